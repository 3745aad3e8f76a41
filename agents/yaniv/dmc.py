"""The Deep Monte-Carlo Yaniv player: a Q-network (``agents.qnet``) trained by self-play and
against the other players (``parlour train yaniv dmc``) values the call and every (group,
source) from the seat's own view (``agents.yaniv.dmc_features``: Sage's score of each throw,
Pythia's reach and win chances among its inputs); it takes the best. No search. The level
averages the network's values over the 24 renamings of the suits (``SuitAveraged``; training
plays the network alone). In a deal stuck past ``STALL_TURNS`` turns it calls whenever it
may, as the other players do.

The unit is the deal's result for the seat: +1 a win, -1 a loss. The network was trained at
two seats; at more it reads the nearest other player (fewest cards), not measured there.

``DmcDecider`` is the same player on the rules table (training), with optional exploration
(epsilon-greedy) and the record of the rows it chose, which is what training learns from.
"""
from __future__ import annotations

import random
from functools import lru_cache
from typing import Callable, Sequence

import numpy as np
from threadpoolctl import threadpool_limits

from agents.base import Explanation
from agents.qnet import QNet, shipped
from agents.yaniv.common import STALL_TURNS, YANIV, Decision, decision_id, to_action
from agents.yaniv.dmc_features import (ACTION, FEATURES, RENAMINGS, SEAT, Seen, candidates, seen_of_table,
                                       seen_of_view, suits_renamed)

NAME = "dmc"
Valuer = Callable[[np.ndarray], np.ndarray]  # rows (n, FEATURES) to values (n,)


class SuitAveraged:
    """The level's value of a row: the mean of the network's values of the row under each of the 24
    renamings of the suits. The rules treat the suits alike, so every renaming asks the same
    question, and the network errs a little differently on each."""

    def __init__(self, net: QNet):
        self.net = net

    def __call__(self, x: np.ndarray) -> np.ndarray:
        """On one BLAS thread: a second one mostly spins on these small products (measured: ten
        times the CPU on a loaded machine)."""
        with threadpool_limits(1, "blas"):
            values = self.net(suits_renamed(x))
        return values.reshape(len(RENAMINGS), len(x)).mean(axis=0)


def shipped_network() -> QNet:
    """The shipped network alone (agents/saved/yaniv/dmc.npz), without the renamings."""
    return shipped("yaniv", NAME, FEATURES)


@lru_cache(maxsize=None)
def shipped_net() -> SuitAveraged:
    return SuitAveraged(shipped_network())


def valued(net: Valuer, seen: Seen) -> tuple[list[Decision], np.ndarray, np.ndarray]:
    """The decisions open to the seat, their rows and the network's values (the call forced
    in a stalled deal: value 0 for every other decision, which is never chosen)."""
    decisions, x = candidates(seen)
    if seen.outlook.turn >= STALL_TURNS and decisions[0] is YANIV:
        return decisions[:1], x[:1], np.zeros(1)
    return decisions, x, net(x)


class Dmc:
    name = NAME

    def __init__(self, net: Valuer | None = None):
        self.net = net or shipped_net()
        self._last: tuple | None = None  # (key, answer) of the last decision valued

    def _values(self, view: dict):
        """The last answer is kept: the server asks for the move, then its explanation."""
        key = (view["seat"], view["deal"], view["turn"], tuple(view["hand"]), tuple(view["discard"]["cards"]))
        if self._last is None or self._last[0] != key:
            self._last = (key, valued(self.net, seen_of_view(view)))
        return self._last[1]

    def act(self, view: dict, legal_actions: Sequence, rng: random.Random):
        decisions, _, values = self._values(view)
        return to_action(decisions[int(np.argmax(values))])

    def explain(self, view: dict, legal_actions: Sequence) -> Explanation:
        decisions, x, values = self._values(view)
        label = "expected result of the deal (+1 a win, -1 a loss), by the network (averaged over the 24 renamings of the suits)"
        shown = {decision_id(d): round(float(v), 3) for d, v in zip(decisions, values)}
        if len(decisions) == 1:
            return Explanation(label, {}, "the deal has run too long: it calls whenever it may, as every player here")
        k = int(np.argmax(values))
        row = x[k]
        what = (f"call (the belief gives {row[SEAT + ACTION - 1]:.2f} that its total is strictly the lowest)"
                if decisions[k] is YANIV else
                f"{decision_id(decisions[k])} (Sage's score {10 * row[SEAT + 9]:.1f} points expected after the next "
                f"throw, {10 * row[SEAT + 10]:.1f} above Sage's best; chance the hand drawn to may call "
                f"{row[SEAT + 12]:.2f}; race model's chance of winning by waiting {row[SEAT + 13]:.2f})")
        note = (f"weighed {len(decisions)} options from its hand ({len(view['hand'])} cards, {view['hand_value']} "
                f"points), the cards thrown, the others' cards and known cards, Sage's score of each throw and "
                f"Pythia's chances; best: {what}, valued {float(values[k]):+.3f}")
        return Explanation(label, shown, note)


class DmcDecider:
    """The player on the rules table. ``epsilon``: the share of decisions made at random
    (training); with ``record``, ``rows[seat]`` lists the feature row of every action it
    chose at that seat among two or more."""

    def __init__(self, net: Valuer, epsilon: float = 0.0, record: bool = False):
        self.net = net
        self.epsilon = epsilon
        self.record = record
        self.rows: dict[int, list[np.ndarray]] = {}

    def choose_on(self, table, rng: random.Random) -> Decision:
        """The decision of the seat to move on ``table``."""
        decisions, x, values = valued(self.net, seen_of_table(table))
        if len(decisions) == 1:
            return decisions[0]
        k = rng.randrange(len(decisions)) if self.epsilon and rng.random() < self.epsilon else int(np.argmax(values))
        if self.record:
            self.rows.setdefault(table.to_move, []).append(x[k].astype(np.float32))
        return decisions[k]
