"""Tactician: a card rule of ours, beyond the write-up, and the search level's rollout rule.

It plays the card that leaves in force the colour it then holds most of (so its
next turn is likeliest to have a play), and among those: Skip and Draw Two first
(they cost the next player a turn), then numbers, lowest first, then Reverse;
wilds only when nothing else can be played, Wild Draw Four before Wild (the
plain Wild is the more flexible card to keep). Everything else (drawing, the
drawn card, naming colours, UNO) is shared with the write-up's players
(``agents.uno.play``).

Measured with ``parlour tournament uno --players tactician,offensive,defensive,betteroffensive``
(docs/measurements/uno.md): the colour rule is worth more than any fixed order of cards.
"""
from __future__ import annotations

from typing import Sequence

from agents.uno.play import CardPlayer
from engine.uno.cards import COLOURED, RANK_OF, WILD_DRAW_FOUR

_ORDER_WITHIN_COLOUR = tuple([-0.01 * r for r in range(10)] + [3.0, -3.0, 3.0])  # 0-9, Skip, Reverse, Draw Two


class Tactician(CardPlayer):
    """Keeps to the colour it holds most; Skips and Draw Twos early, Reverses late, wilds last."""

    name = "tactician"
    label = "10 per card it would still hold in the card's colour, +3 Skip/Draw Two, -3 Reverse; wilds last"

    def value(self, card: int, hand: Sequence[int]) -> float:
        if card >= COLOURED:
            return -100.0 + (card == WILD_DRAW_FOUR)
        colour = card // 13
        same = sum(1 for c in hand if c < COLOURED and c // 13 == colour) - 1  # the others of its colour
        return 10.0 * same + _ORDER_WITHIN_COLOUR[RANK_OF[card]]
