"""The Deep Monte-Carlo Uno player: a Q-network (``agents.qnet``) trained by self-play and
against the write-up's players (``parlour train uno dmc``) values every card it may play
and, holding a card just drawn, playing it or passing,
from the seat's own view (``agents.uno.dmc_features``); it takes the best. No search.

The network's unit is the deal's points for the seat, / ``SCALE``: what the deal's winner
scores (every other hand) when it goes out, minus its own hand when another player does
(what it hands the winner toward 500). Drawing (only when nothing
plays), the colour a wild names, calling and catching UNO, accepting a Wild Draw Four
follow the write-up's players.

``DmcDecider`` is the same player on the rules table (training), with optional
exploration (epsilon-greedy) and the record of the rows it chose, which is what training
learns from.
"""
from __future__ import annotations

import random
from functools import lru_cache
from typing import Sequence

import numpy as np

from agents.base import Explanation
from agents.qnet import MeanNet, QNet, shipped
from agents.uno.dmc_features import FEATURES, Seen, candidate_codes, phase_code, rows, rule_action, seen_of_table, \
    seen_of_view
from agents.uno.play import hand_codes
from engine.uno.actions import ACTIONS, Action, label

NAME = "dmc"
SCALE = 100.0
"""Points per unit of the network's output (training divides the deal's points by it)."""


BIG_TABLES = (NAME, "dmc-five", "dmc-five-seed7", "dmc-resumed")
"""The networks the top level plays at four seats or more, as one (``MeanNet``): the shipped one,
two trained from scratch with most deals at four and five seats, and the shipped one's run
continued that way (docs/measurements/uno.md, "Uno at five seats (session 15)")."""


@lru_cache(maxsize=None)
def shipped_net() -> QNet:
    return shipped("uno", NAME, FEATURES)


@lru_cache(maxsize=None)
def big_tables_net() -> MeanNet:
    return MeanNet([shipped("uno", name, FEATURES) for name in BIG_TABLES])


def valued(net: QNet | MeanNet, seen: Seen, codes: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """The candidates' rows and values (no network call for a single candidate)."""
    x = rows(seen, codes)
    return x, (net(x) if len(codes) > 1 else np.zeros(1))


class Dmc:
    name = NAME

    def __init__(self, net: QNet | MeanNet | None = None):
        self.net = net or shipped_net()
        self._last: tuple | None = None  # (key, answer) of the last decision valued
        self.choose_on = DmcDecider(self.net).choose_on  # on the rules table (``agents.uno.arena``)

    def _values(self, view: dict, legal: Sequence[int]) -> tuple[Seen, list[int], np.ndarray] | None:
        """The decision's candidates and values, or None when a rule decides. The last answer is
        kept: the server asks for the move and then its explanation on the same view."""
        key = (view["deal"], view["moves"], view["seat"], view["phase"], tuple(view["hand"]), tuple(legal))
        if self._last is not None and self._last[0] == key:
            return self._last[1]
        answer = None
        if rule_action(phase_code(view), legal, hand_codes(view)) is None:
            seen = seen_of_view(view)
            codes = candidate_codes(legal, hand_codes(view))
            answer = seen, codes, valued(self.net, seen, codes)[1]
        self._last = (key, answer)
        return answer

    def act(self, view: dict, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        legal = [a.code for a in legal_actions]
        answer = self._values(view, legal)
        if answer is None:
            return ACTIONS[rule_action(phase_code(view), legal, hand_codes(view))]  # type: ignore[index]
        _, codes, values = answer
        return ACTIONS[codes[int(np.argmax(values))]]

    def explain(self, view: dict, legal_actions: Sequence[Action]) -> Explanation:
        legal = [a.code for a in legal_actions]
        unit = "expected points from this deal (its win when it goes out, minus its hand when another does)"
        answer = self._values(view, legal)
        if answer is None:
            rule = ACTIONS[rule_action(phase_code(view), legal, hand_codes(view))]  # type: ignore[index]
            return Explanation(unit, {}, f"no choice valued: it will {label(rule)}, as the write-up's players do")
        seen, codes, values = answer
        if len(codes) == 1:
            return Explanation(unit, {}, f"one option: {label(ACTIONS[codes[0]])}")
        points = values * SCALE
        order = np.argsort(-points)
        best, second = int(order[0]), int(order[1])
        note = (f"weighed {len(codes)} options from its hand ({len(seen.hand)} cards), the {len(seen.discard)} "
                f"cards played, the colour in force and the others' hands in playing order "
                f"({', '.join(str(s) for s in seen.others)} cards): {label(ACTIONS[codes[best]])} "
                f"{points[best]:+.1f}, next {label(ACTIONS[codes[second]])} {points[second]:+.1f}")
        return Explanation(unit, {ACTIONS[a].id: round(float(v), 1) for a, v in zip(codes, points)}, note)

    def option_values(self, view: dict, legal_actions: Sequence[Action]) -> dict[str, float]:
        """The deal's expected points of every move it chooses among, by action id (a single one
        valued too); none when a rule decides. The coach's values at big tables (``agents.uno.coach``)."""
        answer = self._values(view, [a.code for a in legal_actions])
        if answer is None:
            return {}
        seen, codes, values = answer
        if len(codes) == 1:  # playing it needs no value; the coach shows one
            values = self.net(rows(seen, codes))
        return {ACTIONS[a].id: round(float(v) * SCALE, 1) for a, v in zip(codes, values)}


class DmcDecider:
    """The player on the rules table. ``epsilon``: the share of valued decisions made at
    random (training); with ``record``, ``rows[seat]`` lists the feature row of every action
    it chose at that seat among two or more, and ``values[seat]`` the network's value of each."""

    def __init__(self, net: QNet | MeanNet, epsilon: float = 0.0, record: bool = False):
        self.net = net
        self.epsilon = epsilon
        self.record = record
        self.rows: dict[int, list[np.ndarray]] = {}
        self.values: dict[int, list[float]] = {}  # the network's value of each recorded row

    def choose_on(self, table, seat: int, rng: random.Random) -> int:
        legal = table.legal()
        rule = rule_action(table.phase, legal, table.hands[seat])
        if rule is not None:
            return rule
        codes = candidate_codes(legal, table.hands[seat])
        if len(codes) == 1:
            return codes[0]
        x, values = valued(self.net, seen_of_table(table, seat), codes)
        k = rng.randrange(len(codes)) if self.epsilon and rng.random() < self.epsilon else int(np.argmax(values))
        if self.record:
            self.rows.setdefault(seat, []).append(x[k].astype(np.float32))
            self.values.setdefault(seat, []).append(float(values[k]))
        return codes[k]
