"""The write-up's four Uno players. Each only chooses which playable card to play;
drawing, the drawn card, wild colours and UNO are shared (``agents.uno.play``).

Points are the scoring values (numbers face value, Skip/Reverse/Draw Two 20,
Wild and Wild Draw Four 50). Ties go to the lower card code: red, yellow, green,
blue, and within a colour 0-9, Skip, Reverse, Draw Two; Wild before Wild Draw Four.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Sequence

from engine.uno.cards import COLOURED, POINTS_OF
from agents.uno.play import CardPlayer, hand_codes


class RandomPlayer(CardPlayer):
    """Random: any playable card, uniformly (a wild counts once, whatever colour it could name)."""

    name = "random"
    label = "chosen uniformly at random among the playable cards"

    def value(self, card: int, hand: Sequence[int]) -> float:
        return 1.0

    def pick(self, cards: list[int], hand: Sequence[int], rng: random.Random) -> int:
        return cards[rng.randrange(len(cards))]


class FirstPlayable(CardPlayer):
    """The write-up's own Random (its public code): the first playable card in the hand, in the
    order the cards came. No choice by value, but not uniform: drawn cards wait behind the dealt
    ones. Against Defensive it is weaker than a uniform choice (docs/measurements/uno.md).

    On the rules table (tournaments) the hand is in the order the cards came. An observation
    shows the hand sorted, so ``held`` keeps the order itself: cards it held before stay in
    their order and new ones go behind them, several at once in a random order (as dealt)."""

    name = "firstplayable"
    label = "minus the card's place in the hand (the first playable card held is played)"

    def __init__(self) -> None:
        self.order: list[int] = []

    def value(self, card: int, hand: Sequence[int]) -> float:
        return -float(list(hand).index(card))

    def held(self, observation: dict, rng: random.Random) -> list[int]:
        return self.held_in_order(hand_codes(observation), rng)

    def held_in_order(self, hand: Sequence[int], rng: random.Random) -> list[int]:
        """``hand`` (any order) in the order the cards came, as far as this player has seen."""
        left = Counter(hand)
        kept = []
        for card in self.order:
            if left[card]:
                left[card] -= 1
                kept.append(card)
        new = sorted(left.elements())
        rng.shuffle(new)
        self.order = kept + new
        return self.order


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
