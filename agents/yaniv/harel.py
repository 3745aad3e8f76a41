"""Harel: the write-up's tabular Q-learner for Yaniv.

State: the ranks of Harel's cards in ascending order, one slot per card of a full
hand (``hand_size``, 5 by default) with 0 for a missing card or a joker, plus the
rank of the card Harel would take from the pile (its lowest takeable card).
Ranks rather than values, so that a jack and a king (both worth 10) are told
apart: the action names the rank to throw. Written as one character per slot
(``0A23456789TJQK``): hand ``0003K`` with ``5`` on the pile is ``0003K5``.

Harel's state has no clock, so two greedy Harels can repeat the same exchanges
for ever; after ``STALL_TURNS`` turns of a deal it explores with probability
``STALL_EPSILON`` (0.2) whatever its ``epsilon``, which ends such loops.

Actions: call Yaniv (``Y``, when allowed), or throw all cards of a rank held
(a joker alone) and take the pile's lowest card (``p`` + rank) or the stock
(``s`` + rank): ``sK`` throws the kings and draws from the stock.

The Q-table is sparse: a ``{"<state>:<action>": value}`` dict holding visited
pairs only (unseen pairs are worth 0), which is what the database stores for the
live Harel. Play is epsilon-greedy (ties broken at random); ``learn`` is the
Q-learning step ``Q(s,a) += alpha * (r + gamma * max Q(s',.) - Q(s,a))`` where s'
is what Harel sees at its next turn, returned as ``Update(key, "blend", target,
rate=alpha)`` items.

Rewards (``reward``): ``deal`` gives +1 to the last move of a deal Harel won
(scored 0 in) and -1 to that of a deal it lost, 0 elsewhere; ``round`` also
gives +1 / -1 at each of Harel's turns after the first for leading / not leading
(holding a strictly lower total than every other player) after the round of
turns. ``round`` needs the others' hands, so only the training loop (which sees
the whole state) can use it; ``learn`` from an episode of observations uses the
deal rewards.
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Sequence

from agents.base import Episode, Explanation, Update
from agents.spec import InspectQueryError, Inspector
from agents.yaniv.common import (
    STALL_TURNS, YANIV, Decision, Seat, decision_id, pile_card, rank_drop, ranks_held, seat_of, to_action,
)
from engine.yaniv import CallYaniv, parse_action
from engine.yaniv.cards import RANK_OF

RANK_CHARS = "0A23456789TJQK"
REWARD_MODES = ("deal", "round")
STALL_EPSILON = 0.2  # exploration in a deal that has lasted STALL_TURNS turns (a greedy loop)


@dataclass(frozen=True)
class HarelConfig:
    alpha: float = 0.1  # learning rate
    gamma: float = 0.95  # discount
    epsilon: float = 0.0  # exploration while playing
    reward: str = "deal"

    def __post_init__(self) -> None:
        if self.reward not in REWARD_MODES:
            raise ValueError(f"reward is one of {REWARD_MODES}, got {self.reward!r}")
        if not (0 < self.alpha <= 1 and 0 <= self.gamma <= 1 and 0 <= self.epsilon <= 1):
            raise ValueError("alpha in (0, 1], gamma and epsilon in [0, 1]")


def state_key(seat: Seat) -> str:
    """Harel's state: sorted hand ranks (0-padded to a full hand) and the pile card's rank."""
    ranks = sorted(RANK_OF[c] for c in seat.hand)
    pad = "0" * (seat.hand_size - len(ranks))
    return pad + "".join(RANK_CHARS[r] for r in ranks) + RANK_CHARS[RANK_OF[pile_card(seat)]]


def action_codes(seat: Seat) -> list[str]:
    """Harel's actions in this seat: ``Y`` when allowed, then ``p``/``s`` x each rank held."""
    codes = ["Y"] if seat.can_call else []
    for rank in ranks_held(seat.hand):
        codes.append("p" + RANK_CHARS[rank])
        codes.append("s" + RANK_CHARS[rank])
    return codes


def decision_of(code: str, seat: Seat) -> Decision:
    if code == "Y":
        return YANIV
    drop = rank_drop(seat.hand, RANK_CHARS.index(code[1]))
    return drop, pile_card(seat) if code[0] == "p" else None


def code_of(action_id: str, seat: Seat) -> str | None:
    """Harel's action code for an action id taken in ``seat``; None if Harel has no such action."""
    action = parse_action(action_id)
    if isinstance(action, CallYaniv):
        return "Y"
    rank = RANK_OF[action.drop[0].index]
    take = None if action.take is None else action.take.index
    if action.indices != rank_drop(seat.hand, rank) or (take is not None and take != pile_card(seat)):
        return None
    return ("s" if take is None else "p") + RANK_CHARS[rank]


def q_values(q, state: str, codes: Sequence[str]) -> list[float | None]:
    """The learned value of each action code in ``state`` (None: never learned); a packed
    table finds them all with one search."""
    keys = [state + ":" + code for code in codes]
    many = getattr(q, "get_many", None)
    return many(keys) if many is not None else [q.get(key) for key in keys]


def greedy(codes: Sequence[str], values: Sequence[float | None], rng: random.Random) -> str:
    """The best of ``codes`` by their ``values`` (``q_values``: None, never learned, is worth 0;
    ties at random)."""
    best, choices = None, []
    for code, learned in zip(codes, values):
        value = 0.0 if learned is None else learned
        if best is None or value > best:
            best, choices = value, [code]
        elif value == best:
            choices.append(code)
    return choices[0] if len(choices) == 1 else choices[rng.randrange(len(choices))]


def pick(codes: Sequence[str], values: Sequence[float | None], turn: int, rng: random.Random,
         epsilon: float) -> str:
    """Epsilon-greedy choice among ``codes`` by their ``values`` (with the stall rule: see the
    module docstring)."""
    if turn >= STALL_TURNS and epsilon < STALL_EPSILON:
        epsilon = STALL_EPSILON
    if epsilon and rng.random() < epsilon:
        return codes[rng.randrange(len(codes))]
    return greedy(codes, values, rng)


def best_value(q: dict[str, float], state: str, codes: Sequence[str]) -> float:
    return max(q.get(state + ":" + code, 0.0) for code in codes)


class Harel:
    name = "harel"

    def __init__(self, table=None, config: HarelConfig = HarelConfig()):
        """``table``: a ``{key: value}`` dict (copied), or a ``PackedTable`` (used as it is)."""
        self.table = dict(table) if isinstance(table, dict) else table if table is not None else {}
        self.config = config
        self._last: tuple[dict, tuple] | None = None

    def choose(self, seat: Seat, rng: random.Random) -> Decision:
        state, codes = state_key(seat), action_codes(seat)
        return decision_of(pick(codes, q_values(self.table, state, codes), seat.turn, rng, self.config.epsilon), seat)

    def _look(self, observation: dict) -> tuple[Seat, str, list[str], list[float | None]]:
        """The seat, its state, its action codes and their values. Act then explain on the same
        observation (the server asks both for every move) read the table once; the last pair is
        replaced whole, so a Harel shared by several threads at worst reads it again."""
        last = self._last
        if last is not None and last[0] is observation:
            return last[1]
        seat = seat_of(observation)
        state, codes = state_key(seat), action_codes(seat)
        looked = (seat, state, codes, q_values(self.table, state, codes))
        self._last = (observation, looked)
        return looked

    def act(self, observation: dict, legal_actions: Sequence, rng: random.Random):
        seat, _, codes, values = self._look(observation)
        return to_action(decision_of(pick(codes, values, seat.turn, rng, self.config.epsilon), seat))

    def explain(self, observation: dict, legal_actions: Sequence) -> Explanation:
        seat, state, codes, values = self._look(observation)
        learned = dict(zip(codes, values))
        shown = {decision_id(decision_of(code, seat)): 0.0 if value is None else value
                 for code, value in learned.items()}
        seen = sum(1 for value in learned.values() if value is not None)
        return Explanation("Q-value", shown,
                           f"state {state} (hand ranks, pile card); {seen} of its actions learned, "
                           f"{len(self.table)} values in the table")

    def learn(self, episode: Episode) -> list[Update]:
        """Q-learning over Harel's turns in ``episode``, deal by deal, with the deal rewards.

        A deal's outcome is read from the next deal's view (its history); the last
        deal's outcome is ``episode.won``."""
        self._last = None  # the table changes: what was read from it is stale
        alpha, gamma = self.config.alpha, self.config.gamma
        steps = []
        for observation, action_id in episode.steps:
            if not observation.get("legal_actions"):
                continue
            seat = seat_of(observation)
            code = code_of(action_id, seat)
            steps.append((observation["deal"], state_key(seat), action_codes(seat), code, observation))
        updates = []
        for i, (deal, state, _codes, code, _obs) in enumerate(steps):
            if code is None:
                continue
            nxt = steps[i + 1] if i + 1 < len(steps) else None
            if nxt is not None and nxt[0] == deal:
                target = gamma * best_value(self.table, nxt[1], nxt[2])
            else:
                target = 1.0 if self._won(deal, nxt, episode) else -1.0
            key = state + ":" + code
            old = self.table.get(key, 0.0)
            self.table[key] = old + alpha * (target - old)
            updates.append(Update(key, "blend", target=target, rate=alpha))
        return updates

    @staticmethod
    def _won(deal: int, later, episode: Episode) -> bool:
        if later is None:
            return episode.won
        observation = later[4]
        result = next(r for r in observation["history"] if r["deal"] == deal)
        return episode.seat in result["winners"]


def read_table(harel: Harel, query: Mapping[str, str]) -> dict[str, Any]:
    """Harel's inspector: without ``state``, how many values its table holds; with ``state``
    (written as ``state_key`` writes it: a hand's ranks in order, 0 for a missing card or a joker,
    then the pile card's rank, e.g. ``0003K5``), the value it has learned for each action it could
    have there (``null``: never learned, worth 0), exactly as it reads them when it moves."""
    state = query.get("state")
    if state is None:
        return {"values": len(harel.table)}
    hand = state[:-1]
    if not 2 <= len(state) <= 8 or set(state) - set(RANK_CHARS) or list(hand) != sorted(hand, key=RANK_CHARS.index):
        raise InspectQueryError(f"a state is 1 to 7 ranks in order, then the pile card's rank, "
                                f"each one of {RANK_CHARS}")
    codes = ["Y"] + [kind + rank for rank in sorted(set(hand), key=RANK_CHARS.index) for kind in "ps"]
    values = q_values(harel.table, state, codes)
    return {"state": state, "values": dict(zip(codes, values)),
            "learned": sum(v is not None for v in values)}


TABLE = Inspector(read_table, params=("state",),
                  about="its Q-table: how many values it holds, or its value for each action in one state "
                        "(hand ranks in order, 0 for a gap or a joker, then the pile card's rank: 0003K5)")
