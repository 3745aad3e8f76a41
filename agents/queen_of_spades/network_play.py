"""Many Queen of Spades deals side by side on engine ``Table``s, each decision batched.

``play_deals`` runs every deal of a list at once: at each step it gathers the
tables whose seat to move belongs to the same player, encodes them into one
(batch, 115) array, runs one forward pass and plays the chosen cards. Training
(data from random games, self-play), its evaluations and the benchmarks all use it.

A player is a ``Policy``: ``pick`` set (a function of the ``Table``, for players
written as rules) plays its card; else ``forward`` None plays uniformly at random;
otherwise the legal card with the highest network output, after ``noise`` (Gaussian, std)
on the outputs, and with probability ``epsilon`` a random legal card instead.
``counting`` weakens the card-counting inputs (see ``network_inputs.COUNTING``).

Pairs play A B A B: ``duplicate`` plays each deal twice, once with A in seats 0
and 2 and once with A in seats 1 and 3, so both pairs hold the same cards.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np
from threadpoolctl import threadpool_limits

from agents.queen_of_spades.network_inputs import encode_tables
from engine.queen_of_spades.rules import PLAYERS, TRICKS, Table

RECORDED_TRICKS = TRICKS - 1  # the eighth trick is forced: 7 decisions per player, 28 per deal


@dataclass(frozen=True)
class Policy:
    forward: Callable[[np.ndarray], np.ndarray] | None = None  # (batch, 115) -> (batch, 32)
    counting: str = "full"
    noise: float = 0.0
    epsilon: float = 0.0
    pick: Callable[[Table], int] | None = None  # reads only what the seat to move may know


RANDOM = Policy()


def rules_policy() -> Policy:
    """The rule player as a batched player (it decides from what the seat to move may know)."""
    from agents.queen_of_spades.rules_player import choose as rule_choice
    from agents.queen_of_spades.seen import of_table

    return Policy(pick=lambda t: rule_choice(of_table(t)))


@dataclass
class Played:
    """Finished deals: ``points`` (deals, 4); when recorded, the decisions of tricks 1..7:
    inputs ``x`` (rows, 115), ``card`` played, ``deal`` index and ``seat``."""

    points: np.ndarray
    all_tricks: np.ndarray  # (deals,) the seat that took all eight tricks, or -1
    x: np.ndarray | None = None
    card: np.ndarray | None = None
    deal: np.ndarray | None = None
    seat: np.ndarray | None = None

    def targets(self, scale: float) -> np.ndarray:
        """Each recorded decision's training target: the deal's final score of the seat that made
        it, times ``scale``."""
        return (self.points[self.deal, self.seat] * scale).astype(np.float32)


def choose(policy: Policy, tables: list[Table], rng: np.random.Generator, x: np.ndarray | None) -> list[int]:
    """The card each table's seat to move plays under ``policy`` (``x``: their full inputs, if
    already encoded). A seat with one legal card plays it without asking the network."""
    if policy.pick is not None:
        return [policy.pick(t) for t in tables]
    legal = [t.legal() for t in tables]
    if policy.forward is None:
        return [cards[int(rng.integers(len(cards)))] for cards in legal]
    picks = [cards[0] for cards in legal]
    free = [i for i, cards in enumerate(legal) if len(cards) > 1]
    if not free:
        return picks
    if x is None:
        x = encode_tables([tables[i] for i in free], policy.counting)
    else:
        x = x[free]
    out = np.asarray(policy.forward(x), np.float32)
    if policy.noise:
        out = out + rng.normal(0.0, policy.noise, out.shape).astype(np.float32)
    masked = np.full(out.shape, -np.inf, np.float32)
    for row, i in enumerate(free):
        masked[row, legal[i]] = out[row, legal[i]]
    best = masked.argmax(axis=1)
    explore = rng.random(len(free)) < policy.epsilon if policy.epsilon else np.zeros(len(free), bool)
    for row, i in enumerate(free):
        cards = legal[i]
        picks[i] = cards[int(rng.integers(len(cards)))] if explore[row] else int(best[row])
    return picks


def play_deals(seeds, seats: Sequence[Sequence[Policy]], rng: np.random.Generator,
               record: bool = False) -> Played:
    """Play one deal per seed, ``seats[k]`` the players of deal ``k`` (seat order), all side by side."""
    return play_tables([Table.new(PLAYERS, int(s)) for s in seeds], seats, rng, record)


def play_tables(tables: list[Table], seats: Sequence[Sequence[Policy]], rng: np.random.Generator,
                record: bool = False) -> Played:
    """Play single-deal ``tables`` (from wherever they stand) to the end, side by side. Numpy's
    matrix products run on one thread here: many small products waste least that way (and on a
    shared machine a second BLAS thread mostly spins)."""
    with threadpool_limits(1, "blas"):
        return _play_tables(tables, seats, rng, record)


def _play_tables(tables: list[Table], seats: Sequence[Sequence[Policy]], rng: np.random.Generator,
                 record: bool) -> Played:
    xs, cards, deals, who = [], [], [], []
    active = list(range(len(tables)))
    while active:
        groups: dict[int, tuple[Policy, list[int]]] = {}
        for k in active:
            seat = tables[k].to_move
            assert seat is not None  # active tables are not over
            policy = seats[k][seat]
            groups.setdefault(id(policy), (policy, []))[1].append(k)
        for policy, ks in groups.values():
            batch = [tables[k] for k in ks]
            if record:
                x = encode_tables(batch)  # training rows always carry the full inputs
                picks = choose(policy, batch, rng, x if policy.counting == "full" else None)
                keep = [i for i, t in enumerate(batch) if t.tricks_done < RECORDED_TRICKS]
                if keep:
                    xs.append(x[keep])
                    cards += [picks[i] for i in keep]
                    deals += [ks[i] for i in keep]
                    who += [batch[i].to_move for i in keep]
            else:
                picks = choose(policy, batch, rng, None)
            for t, c in zip(batch, picks):
                t.step(c)
        active = [k for k in active if tables[k].to_move is not None]
    points = np.array([t.deal_points() for t in tables], np.int8).reshape(len(tables), 4)
    all_tricks = np.array([t.tricks.index(8) if 8 in t.tricks else -1 for t in tables], np.int8)
    if not record:
        return Played(points, all_tricks)
    return Played(points, all_tricks, np.concatenate(xs) if xs else np.zeros((0, 115), np.float32),
                  np.array(cards, np.int8), np.array(deals, np.int32), np.array(who, np.int8))


@dataclass(frozen=True)
class PairResult:
    """Pair A against pair B over duplicate deals: A's mean points per deal and player (the mean of
    its two seats; B's is the negative), its standard error over deals, and how often a player
    of A (of B) won a deal by taking all eight tricks."""

    deals: int
    mean: float
    se: float
    a_all_tricks: float
    b_all_tricks: float

    def to_json(self) -> dict:
        return {"deals": self.deals, "mean": self.mean, "se": self.se, "a_all_tricks": self.a_all_tricks,
                "b_all_tricks": self.b_all_tricks}

    @staticmethod
    def of(plays: "Sequence[DuplicatePlays]") -> "PairResult":
        """The result of one or more batches of duplicate deals, taken together."""
        per_deal, a_all, b_all = (np.concatenate([p[i] for p in plays]) for i in range(3))
        n = len(per_deal)
        se = float(per_deal.std(ddof=1) / math.sqrt(n)) if n > 1 else 0.0
        return PairResult(n, float(per_deal.mean()), se, float(a_all.mean()), float(b_all.mean()))


# Duplicate deals played: per deal, A's mean points per player over its two plays; per play (two a
# deal), whether a player of A, of B, took all eight tricks.
DuplicatePlays = tuple[np.ndarray, np.ndarray, np.ndarray]


def duplicate_plays(a: Policy, b: Policy, seeds, rng: np.random.Generator) -> DuplicatePlays:
    """A B A B and B A B A on the same deals (A's seats 0, 2 then 1, 3)."""
    seeds = list(seeds)
    n = len(seeds)
    played = play_deals(seeds + seeds, [(a, b, a, b)] * n + [(b, a, b, a)] * n, rng)
    p = played.points.astype(np.float64)
    per_deal = ((p[:n, 0] + p[:n, 2]) / 2 + (p[n:, 1] + p[n:, 3]) / 2) / 2
    seat = played.all_tricks.astype(np.int64)
    a_seat = np.concatenate([np.isin(seat[:n], (0, 2)), np.isin(seat[n:], (1, 3))])
    return per_deal, a_seat, (seat >= 0) & ~a_seat


def duplicate(a: Policy, b: Policy, seeds, rng: np.random.Generator) -> PairResult:
    """Pair A against pair B over ``seeds`` (see ``duplicate_plays``)."""
    return PairResult.of([duplicate_plays(a, b, seeds, rng)])
