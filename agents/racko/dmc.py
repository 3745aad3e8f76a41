"""The Deep Monte-Carlo Rack-O player: a Q-network (``agents.qnet``) trained by self-play
and against the other players (``parlour train racko dmc``) values every action of a
decision from the seat's own view (``agents.racko.dmc_features``); it takes the best.
No search, no forced random move.

It decides a turn at the draw: drawing from the deck, or taking the discard into a
chosen slot (the place that follows puts it there); holding a card from the deck, it
values discarding it against each slot. The network was trained at one rack size
(its input width says which); at any other it plays as Lookahead and says so.

``DmcDecider`` is the same player on the arena's table (``agents.racko.arena``), with
optional exploration (epsilon-greedy) and the record of the rows it chose, which is
what training learns from.
"""
from __future__ import annotations

import random
from functools import lru_cache

import numpy as np

from agents.base import Explanation
from agents.qnet import QNet, shipped
from agents.racko.common import decision_key
from agents.racko.dmc_features import DECK, KEEP, TAKE, candidates, feature_count, seen_of_table, seen_of_view
from agents.racko.lookahead import Lookahead
from engine.racko import ACTIONS, DISCARD, DRAW_DECK, DRAW_DISCARD, FROM_DISCARD, PLACE

NAME = "dmc"


@lru_cache(maxsize=None)
def shipped_net() -> QNet:
    return shipped("racko", NAME)


def action_id(kind: int, slot: int) -> str:
    if kind == DECK:
        return "draw:deck"
    if kind == KEEP:
        return "discard"
    return f"place:{slot + 1}"


def taken_back(view: dict) -> dict:
    """A view holding a card taken from the discard pile, as it was at the draw (the card
    back on the pile): the draw's decision chose its slot, so the place repeats it."""
    card = view["drawn"]
    return dict(view, phase="draw", drawn=None, drawn_from=None, discard_top=card,
                discard_pile=view["discard_pile"] + [card])


class Dmc:
    name = NAME

    def __init__(self, net: QNet | None = None):
        self.net = net or shipped_net()
        self._fallback: Lookahead | None = None
        self._last: tuple[tuple, tuple] | None = None  # (key, answer) of the last decision valued

    def _fits(self, view: dict) -> bool:
        return self.net.shape[0] == feature_count(view["options"]["rack_size"])

    def _lookahead(self) -> Lookahead:
        if self._fallback is None:
            from agents.racko.shipped import diablo_nets
            self._fallback = Lookahead(diablo_nets("diablo2"))
        return self._fallback

    def _values(self, view: dict):
        """The actions and their values; the last answer is kept (``decision_key``)."""
        key = decision_key(view)
        last = self._last
        if last is not None and last[0] == key:
            return last[1]
        actions, x = candidates(seen_of_view(view))
        answer = actions, self.net(x)
        self._last = (key, answer)
        return answer

    def act(self, view: dict, legal_actions, rng: random.Random):
        if not self._fits(view):
            return self._lookahead().act(view, legal_actions, rng)
        if view["phase"] == "place" and view["drawn_from"] == "discard":
            view = taken_back(view)
            actions, values = self._values(view)
            takes = [k for k, (kind, _) in enumerate(actions) if kind == TAKE]
            best = takes[int(np.argmax(values[takes]))]
            return ACTIONS[PLACE + actions[best][1]]
        actions, values = self._values(view)
        kind, slot = actions[int(np.argmax(values))]
        if view["phase"] == "draw":
            return ACTIONS[DRAW_DECK if kind == DECK else DRAW_DISCARD]
        return ACTIONS[DISCARD if kind == KEEP else PLACE + slot]

    def explain(self, view: dict, legal_actions) -> Explanation:
        if not self._fits(view):
            got = self._lookahead().explain(view, legal_actions)
            return Explanation(got.label, got.values, f"trained at another rack size, so it plays as Lookahead: {got.note}")
        label = "expected result of the deal (+1 a win, -1 a loss), by the network"
        if view["phase"] == "place" and view["drawn_from"] == "discard":
            view = taken_back(view)
            actions, values = self._values(view)
            shown = {action_id(PLACE, s): float(v) for (kind, s), v in zip(actions, values) if kind == TAKE}
            return Explanation(label, shown, "the card from the discard pile in each slot")
        actions, values = self._values(view)
        if view["phase"] == "draw":
            deck = float(values[0])
            best = int(np.argmax(values[1:]))
            return Explanation(label, {"draw:deck": deck, "draw:discard": float(values[1 + best])},
                               f"a deck card, before seeing it: {deck:+.3f}; the discard {view['discard_top']} "
                               f"at its best, in slot {best + 1}: {float(values[1 + best]):+.3f}")
        legal = {a.id for a in legal_actions}
        shown = {action_id(kind, s): float(v) for (kind, s), v in zip(actions, values)}
        return Explanation(label, {k: v for k, v in shown.items() if k in legal},
                           f"{view['drawn']} discarded or in each slot")


class DmcDecider:
    """The player on the arena's table. ``epsilon``: the share of decisions made at random
    (training); with ``record``, ``rows[seat]`` lists the feature row of every action it
    chose at that seat (reset by ``begin``)."""

    forced_random = False

    def __init__(self, net: QNet, epsilon: float = 0.0, record: bool = False):
        self.net = net
        self.epsilon = epsilon
        self.record = record
        self.rows: dict[int, list[np.ndarray]] = {}
        self.slot: dict[int, int] = {}

    def begin(self, table, seat: int) -> None:
        self.rows[seat] = []

    def _choose(self, table, seat: int, rng: random.Random) -> tuple[int, int]:
        actions, x = candidates(seen_of_table(table, seat))
        if self.epsilon and rng.random() < self.epsilon:
            k = rng.randrange(len(actions))
        else:
            k = int(np.argmax(self.net(x)))
        if self.record:
            self.rows[seat].append(x[k].astype(np.float32))
        return actions[k]

    def draw(self, table, seat: int, rng: random.Random) -> bool:
        kind, slot = self._choose(table, seat, rng)
        self.slot[seat] = slot
        return kind == TAKE

    def place(self, table, seat: int, rng: random.Random) -> int:
        if table.source == FROM_DISCARD:
            return self.slot[seat]
        kind, slot = self._choose(table, seat, rng)
        return -1 if kind == KEEP else slot
