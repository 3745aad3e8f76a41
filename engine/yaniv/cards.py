"""The 54 Yaniv cards: a standard deck and two jokers (docs/rules.md, section 4.1).

A card is a small frozen value, ``Card(index)``, with ``index`` from 0 to 53:
``suit * 13 + rank - 1`` for the 52 standard cards (suits in the order clubs,
diamonds, hearts, spades; ranks Ace = 1 to King = 13), 52 and 53 for the jokers.
The 54 cards exist once each in ``CARDS``; the engine keeps plain indices in its
states and hands out these values at its surface.

Card ids are the rank then the suit letter: ``Ah``, ``7s``, ``10d``, ``Kc``; the
jokers are ``jk1`` and ``jk2``. ``parse_card`` reads exactly these ids.

Values (what a card counts in a hand) depend on the ``face_values`` option:
``ten`` (default: J, Q, K count 10) or ``rank`` (J 11, Q 12, K 13). Jokers
count 0, Aces 1. ``card_values(face_values)`` gives a table indexed by card.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.base import ActionSyntaxError

SUITS = ("c", "d", "h", "s")
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = ("\u2663", "\u2666", "\u2665", "\u2660")
RANK_LABELS = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_NAMES = ("joker", "ace", "two", "three", "four", "five", "six", "seven", "eight", "nine",
              "ten", "jack", "queen", "king")
JOKER = 0  # the rank of a joker
JOKERS = (52, 53)
DECK_SIZE = 54

# Per index: rank (0 for a joker) and suit index (-1 for a joker).
RANK_OF: tuple[int, ...] = tuple([i % 13 + 1 for i in range(52)] + [JOKER, JOKER])
SUIT_OF: tuple[int, ...] = tuple([i // 13 for i in range(52)] + [-1, -1])


def _card_id(index: int) -> str:
    if index >= 52:
        return f"jk{index - 51}"
    return RANK_LABELS[RANK_OF[index]] + SUITS[SUIT_OF[index]]


CARD_IDS: tuple[str, ...] = tuple(_card_id(i) for i in range(DECK_SIZE))
_BY_ID: dict[str, int] = {cid: i for i, cid in enumerate(CARD_IDS)}


@dataclass(frozen=True, slots=True)
class Card:
    """One of the 54 cards; see the module docstring for the numbering."""

    index: int

    @property
    def rank(self) -> int:
        """1 (Ace) to 13 (King); 0 for a joker."""
        return RANK_OF[self.index]

    @property
    def suit(self) -> str | None:
        """'c', 'd', 'h' or 's'; None for a joker."""
        s = SUIT_OF[self.index]
        return None if s < 0 else SUITS[s]

    @property
    def is_joker(self) -> bool:
        return self.index >= 52

    @property
    def id(self) -> str:
        return CARD_IDS[self.index]

    def label(self) -> str:
        """For people: 'A\u2665', '10\u2660', 'joker'."""
        if self.is_joker:
            return "joker"
        return RANK_LABELS[self.rank] + SUIT_SYMBOLS[SUIT_OF[self.index]]

    def __repr__(self) -> str:
        return f"Card({self.id})"


CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(DECK_SIZE))


def parse_card(text: str) -> Card:
    """The card with id ``text`` ('7s', '10d', 'Kh', 'jk1'); ActionSyntaxError otherwise."""
    index = _BY_ID.get(text)
    if index is None:
        raise ActionSyntaxError(text,
            f"{text!r} is not a card: a card is a rank (A, 2-10, J, Q, K) and a suit (c, d, h, s), "
            "or jk1 / jk2")
    return CARDS[index]


FACE_VALUES = ("ten", "rank")


def card_values(face_values: str) -> tuple[int, ...]:
    """The value of each card index: Ace 1, 2-10 face value, J/Q/K 10 (``ten``) or
    11/12/13 (``rank``), jokers 0."""
    if face_values not in FACE_VALUES:
        raise ValueError(f"face_values is one of {FACE_VALUES}, got {face_values!r}")
    cap = 10 if face_values == "ten" else 13
    return tuple(min(RANK_OF[i], cap) for i in range(DECK_SIZE))


def sort_key(index: int) -> tuple[int, int]:
    """The order hands are shown in: by rank (jokers first), then by suit."""
    return (RANK_OF[index], index)
