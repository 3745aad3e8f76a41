"""The top Uno level: the search (``mcts-bo``) at tables of two and three, four Deep Monte-Carlo
networks valuing together at tables of four or more.

Measured in whole games to 500 (docs/measurements/uno.md, "Uno at five seats (session 15)" and "Uno at
four seats (session 16)"): the search is first head to head, but at the write-up's five-seat table the
move of its fallback rule (BetterOffensive) stands in most decisions and it ties the perceptron and
BetterOffensive, and at its four-seat table it came second to the perceptron on fresh games; at both
tables the networks, three of them trained with most of their deals at four and five seats, are first.
So the table's size picks the player; the reasoning panel says which one decided and what it weighed.
"""
from __future__ import annotations

import random
from typing import Sequence

from agents.base import Explanation
from engine.uno.actions import Action


NETWORK_SEATS = 4
"""The table size from which the networks decide (and the coach judges by them: ``agents.uno.coach``)."""


class BySeats:
    """``small`` decides at tables of fewer than ``seats`` players, ``large`` at the others."""

    name = "top"

    def __init__(self, small, large, seats: int = NETWORK_SEATS):
        self.small = small
        self.large = large
        self.seats = seats

    def _player(self, view: dict):
        return self.large if view["players"] >= self.seats else self.small

    def act(self, view: dict, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        return self._player(view).act(view, legal_actions, rng)

    def explain(self, view: dict, legal_actions: Sequence[Action]) -> Explanation:
        player = self._player(view)
        why = player.explain(view, legal_actions)
        who = (f"{view['players']} players: the network decides (at {self.seats} or more it is the stronger)"
               if player is self.large else f"{view['players']} players: the search decides")
        return Explanation(why.label, why.values, f"{who}; {why.note}" if why.note else who)
