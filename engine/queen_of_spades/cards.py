"""The 32 cards of Queen of Spades and the one card order every part of Parlour uses.

A card is an int 0..31: ``suit * 8 + rank``.

- suits in the order ♣ ♠ ♥ ♦ (ids ``C S H D``), suit 0..3;
- ranks from highest to lowest A K Q J 10 9 8 7, rank 0..7 (rank 0 = Ace; 10 is below J).

So within a suit a *lower* card index is a *higher* card, the whole deck sorted by
index is the display order (suit by suit, high to low), and the network's 32-element
blocks (the Queen of Spades write-up's inputs) use this same order. Card ids are rank then suit
letter: ``AC``, ``10H``, ``QS``; labels for people use the suit symbol: ``Q♠``.
"""
from __future__ import annotations

from engine.base import ActionSyntaxError

SUITS = "CSHD"
SUIT_SYMBOLS = "♣♠♥♦"
SUIT_NAMES = ("clubs", "spades", "hearts", "diamonds")
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7")
CLUBS, SPADES, HEARTS, DIAMONDS = range(4)
DECK_SIZE = 32
HAND_SIZE = 8


def card(suit: int, rank: int) -> int:
    return suit * 8 + rank


QUEEN_OF_SPADES = card(SPADES, 2)

CARD_IDS: tuple[str, ...] = tuple(RANKS[c & 7] + SUITS[c >> 3] for c in range(DECK_SIZE))
CARD_LABELS: tuple[str, ...] = tuple(RANKS[c & 7] + SUIT_SYMBOLS[c >> 3] for c in range(DECK_SIZE))
_CODE_OF_ID = {card_id: c for c, card_id in enumerate(CARD_IDS)}


def suit_of(c: int) -> int:
    return c >> 3


def parse_card(text: str) -> int:
    """``"QS"`` -> 10. Case-insensitive; ``T`` is accepted for ten."""
    if not isinstance(text, str):
        raise ActionSyntaxError(text, f"{text!r} is not a card id")
    key = text.strip().upper()
    if key.startswith("T"):
        key = "10" + key[1:]
    try:
        return _CODE_OF_ID[key]
    except KeyError:
        raise ActionSyntaxError(text, f"{text!r} is not a card id (like AC, 10H, QS: rank A K Q J 10 9 8 7, "
                              "then suit C S H D)") from None


def ids(cards) -> list[str]:
    """Card ids in display order (suit by suit, highest first)."""
    return [CARD_IDS[c] for c in sorted(cards)]


def labels(cards) -> str:
    """``"9♥, 7♥"``: cards in display order, for sentences."""
    return ", ".join(CARD_LABELS[c] for c in sorted(cards))
