"""How low another player's hand is, read from what a seat sees: the belief behind Pythia's call.

Sage's call counts the random deals of the unseen cards in which its total is strictly the
lowest: every unseen card equally likely in the others' hands. Real hands are lower: players
throw their high cards. ``above`` gives that uniform chance exactly, for one other player:
the chance that the sum of its ``u`` unknown cards, drawn from the unseen cards, exceeds
``room`` (the caller's total minus the other's known cards). ``Reading`` adds what the table
shows of that player: how many turns it has had to throw high cards, what it threw last, the
same chance given that it did not call before that throw (``no_call``), and given that the
cards it kept were no higher than that throw (``kept``, ``kept_above``). A logistic model per
number of unknown cards (``CALL_MODEL``, fitted by ``docs/measurements/yaniv_pythia_fit.py`` on
deals where the seat to move could call) turns these into the chance that the other's total is
above the seat's. On those deals the uniform chance says 0.95 where the truth is 0.88 (two
unknown cards); the model's average matches it (``tests/agents/test_yaniv_agents.py``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from agents.yaniv.lookahead import Worlds

FEATURES = ("bias", "uniform logit", "turns", "last card", "last size", "turns x logit", "no-call logit", "kept logit")


@lru_cache(maxsize=1 << 14)
def above(pool: tuple[int, ...], u: int, room: int) -> float:
    """The chance that ``u`` cards drawn without replacement from cards of values ``pool``
    (sorted) sum to more than ``room``."""
    if room < 0:
        return 1.0
    # ways[k][s]: the number of k-card subsets summing to s (s capped at room + 1)
    cap = room + 1
    ways = [[0] * (cap + 1) for _ in range(u + 1)]
    ways[0][0] = 1
    for v in pool:
        for k in range(u, 0, -1):
            row, prev = ways[k], ways[k - 1]
            for s in range(cap, -1, -1):
                if prev[s]:
                    row[min(cap, s + v)] += prev[s]
    return ways[u][cap] / math.comb(len(pool), u)


@lru_cache(maxsize=1 << 14)
def kept_above(pool: tuple[int, ...], cap: int, u: int, room: int) -> float:
    """``above`` when ``u - 1`` of the cards come from the pool's cards worth at most ``cap`` and one
    from the whole pool (the card drawn after throwing ``cap``)."""
    low = tuple(v for v in pool if v <= cap)
    if u < 1 or len(low) < u - 1:
        return above(pool, u, room)
    return sum(pool.count(v) * above(low, u - 1, room - v) for v in set(pool)) / len(pool)


@dataclass(frozen=True)
class Reading:
    """What the seat sees of one other player, as the model's inputs."""

    unknown: int  # cards of its hand the seat has not seen
    room: int  # the seat's total minus that player's known cards
    uniform: float  # ``above`` for those
    turns: int  # turns it has taken in this deal
    last_card: int  # the highest value in the group it threw last (0 if the top is not its)
    last_size: int  # cards in that group (0 if the top is not its)
    no_call: float  # ``uniform`` given that it did not call before its last throw (its total then above the limit)
    kept: float  # ``uniform`` if the cards it kept were no higher than its last throw (and one was drawn)

    def row(self) -> tuple[float, ...]:
        logit, turns = _logit(self.uniform), min(self.turns, 20) / 10
        return (1.0, logit, turns, self.last_card / 10, float(self.last_size), turns * logit, _logit(self.no_call),
                _logit(self.kept))


def _logit(p: float) -> float:
    q = min(max(p, 0.002), 0.998)
    return math.log(q / (1 - q))


def readings(worlds: Worlds, mine: int | None = None) -> list[Reading]:
    """One reading per other player still in, for the seat's total ``mine`` (default: its current one)."""
    values = worlds.rules.values
    if mine is None:
        mine = worlds.rules.total(worlds.hands[worlds.seat])
    pool = tuple(sorted(values[c] for c in worlds.unseen))
    out = []
    for s, known in enumerate(worlds.known):
        if s == worlds.seat or worlds.out[s]:
            continue
        u = worlds.counts[s] - len(known)
        room = mine - sum(values[c] for c in known)
        last = s == worlds.top_by
        uniform = above(pool, u, room)
        no_call = kept = uniform
        if last:  # it held more than the limit before throwing the top group (and drawing at least 0)
            floor = worlds.rules.yaniv_limit - sum(values[c] for c in worlds.top) - (mine - room)
            before = above(pool, u, floor)
            if before > 0:
                no_call = above(pool, u, max(room, floor)) / before
            kept = kept_above(pool, max(values[c] for c in worlds.top), u, room)
        out.append(Reading(u, room, uniform, worlds.turns[s], max(values[c] for c in worlds.top) if last else 0,
                           len(worlds.top) if last else 0, no_call, kept))
    return out


CALL_MODEL: dict[int, tuple[float, ...]] = {
    1: (0.002, 0.552, -0.166, -0.273, 0.079, 0.004, -0.191, 0.552),
    2: (0.248, -1.481, -0.366, -0.943, -0.039, -0.067, 1.994, 0.506),
    3: (1.146, -3.303, 0.460, -3.637, 0.174, -0.319, 3.474, 1.131),
    4: (-3.368, -1.973, 5.388, -4.411, 0.172, -1.199, 3.083, 0.996),
    5: (1.311, 4.560, 0.447, -14.486, 1.311, -0.807, 4.560, -5.947),
}
"""Per number of unknown cards: the logistic weights of ``FEATURES`` (fitted; see the module)."""


def chance_above(reading: Reading) -> float:
    """The model's chance that this player's total is above the seat's."""
    weights = CALL_MODEL.get(reading.unknown)
    if weights is None:  # no unknown cards (its total is known), or more than the model saw
        return reading.uniform
    z = sum(w * x for w, x in zip(weights, reading.row()))
    return 1 / (1 + math.exp(-z))


def lowest_chance(worlds: Worlds) -> float:
    """The chance that the seat's total is strictly the lowest (the others taken as independent)."""
    p = 1.0
    for reading in readings(worlds):
        p *= chance_above(reading)
    return p
