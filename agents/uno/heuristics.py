"""The write-up's four Uno players. Each only chooses which playable card to play;
drawing, the drawn card, wild colours and UNO are shared (``agents.uno.play``).

Points are the scoring values (numbers face value, Skip/Reverse/Draw Two 20,
Wild and Wild Draw Four 50). Ties go to the lower card code: red, yellow, green,
blue, and within a colour 0-9, Skip, Reverse, Draw Two; Wild before Wild Draw Four.
"""
from __future__ import annotations

import random
from typing import Sequence

from engine.uno.cards import COLOURED, POINTS_OF
from agents.uno.play import CardPlayer


class RandomPlayer(CardPlayer):
    """Random: any playable card, uniformly (a wild counts once, whatever colour it could name)."""

    name = "random"
    label = "chosen uniformly at random among the playable cards"

    def value(self, card: int, hand: Sequence[int]) -> float:
        return 1.0

    def pick(self, cards: list[int], hand: Sequence[int], rng: random.Random) -> int:
        return cards[rng.randrange(len(cards))]


class Offensive(CardPlayer):
    """Offensive: the lowest-scoring playable card, keeping wild cards for the end."""

    name = "offensive"
    label = "minus the card's points; wilds last"

    def value(self, card: int, hand: Sequence[int]) -> float:
        return -POINTS_OF[card] if card < COLOURED else -100.0 - (card - COLOURED)


class Defensive(CardPlayer):
    """Defensive: the highest-scoring playable card (wilds, at 50, first), to hold fewer points."""

    name = "defensive"
    label = "the card's points"

    def value(self, card: int, hand: Sequence[int]) -> float:
        return POINTS_OF[card]


class BetterOffensive(CardPlayer):
    """BetterOffensive: the highest-scoring non-wild playable card first, wilds last."""

    name = "betteroffensive"
    label = "the card's points; wilds last"

    def value(self, card: int, hand: Sequence[int]) -> float:
        return POINTS_OF[card] if card < COLOURED else -1.0 - (card - COLOURED)
