"""Uno cards (docs/rules.md, section 2, rule 1) as typed values, and their compact codes.

There are 54 distinct cards. Each has a small integer **code** that the rules
core (``engine.uno.rules``) works with, because tuples of ints are cheap to copy:

    code = 13 * colour + rank   for the 52 coloured cards (rank 0-9, 10 Skip,
                                11 Reverse, 12 Draw Two)
    code = 52                   Wild
    code = 53                   Wild Draw Four

``CARDS[code]`` is the one interned ``Card`` for a code. A card's text id is its
colour letter and rank token (``r7``, ``gskip``, ``brev``, ``yd2``) or ``wild`` /
``wd4``; ``parse_card`` reads an id back with a grammar, never by splitting.

The full deck (``FULL_DECK``) holds 108 cards: in each colour one 0 and two each
of 1-9, Skip, Reverse and Draw Two; four Wild and four Wild Draw Four.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum

from engine.base import ActionSyntaxError


class Colour(IntEnum):
    RED = 0
    YELLOW = 1
    GREEN = 2
    BLUE = 3

    @property
    def letter(self) -> str:
        return "rygb"[self]

    @property
    def title(self) -> str:
        return self.name.capitalize()


class Rank(IntEnum):
    ZERO = 0
    ONE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    SKIP = 10
    REVERSE = 11
    DRAW_TWO = 12
    WILD = 13
    WILD_DRAW_FOUR = 14

    @property
    def token(self) -> str:
        return _RANK_TOKENS[self]

    @property
    def points(self) -> int:
        """Scoring value (rule 9): face value, 20 for Skip/Reverse/Draw Two, 50 for wilds."""
        if self <= Rank.NINE:
            return int(self)
        return 20 if self <= Rank.DRAW_TWO else 50


_RANK_TOKENS = {**{Rank(i): str(i) for i in range(10)}, Rank.SKIP: "skip", Rank.REVERSE: "rev",
                Rank.DRAW_TWO: "d2", Rank.WILD: "wild", Rank.WILD_DRAW_FOUR: "wd4"}
_RANK_TITLES = {Rank.SKIP: "Skip", Rank.REVERSE: "Reverse", Rank.DRAW_TWO: "Draw Two",
                Rank.WILD: "Wild", Rank.WILD_DRAW_FOUR: "Wild Draw Four"}

WILD = 52
WILD_DRAW_FOUR = 53
COLOURED = 52
DISTINCT = 54


@dataclass(frozen=True)
class Card:
    """One card: ``colour`` is None for the two wild kinds."""

    colour: Colour | None
    rank: Rank

    @property
    def code(self) -> int:
        if self.rank == Rank.WILD:
            return WILD
        if self.rank == Rank.WILD_DRAW_FOUR:
            return WILD_DRAW_FOUR
        return 13 * int(self.colour) + int(self.rank)  # type: ignore[arg-type]

    @property
    def is_wild(self) -> bool:
        return self.colour is None

    @property
    def points(self) -> int:
        return self.rank.points

    @property
    def id(self) -> str:
        return self.rank.token if self.colour is None else self.colour.letter + self.rank.token

    @property
    def title(self) -> str:
        rank = _RANK_TITLES.get(self.rank, str(int(self.rank)))
        return rank if self.colour is None else f"{self.colour.title} {rank}"

    def __str__(self) -> str:
        return self.id


def _card_of_code(code: int) -> Card:
    if code == WILD:
        return Card(None, Rank.WILD)
    if code == WILD_DRAW_FOUR:
        return Card(None, Rank.WILD_DRAW_FOUR)
    return Card(Colour(code // 13), Rank(code % 13))


CARDS: tuple[Card, ...] = tuple(_card_of_code(code) for code in range(DISTINCT))
"""The 54 distinct cards, indexed by code."""

CARD_IDS: tuple[str, ...] = tuple(card.id for card in CARDS)
"""``CARD_IDS[code]``: the id of a card code."""

BY_ID: dict[str, Card] = {card.id: card for card in CARDS}

# Per-code lookup tables for the rules core (plain tuples of ints: fastest to index).
COLOUR_OF: tuple[int, ...] = tuple(-1 if c >= COLOURED else c // 13 for c in range(DISTINCT))
RANK_OF: tuple[int, ...] = tuple(int(card.rank) for card in CARDS)
POINTS_OF: tuple[int, ...] = tuple(card.points for card in CARDS)

FULL_DECK: tuple[int, ...] = tuple(
    [13 * colour + rank for colour in range(4) for rank in range(13) for _ in range(1 if rank == 0 else 2)]
    + [WILD] * 4 + [WILD_DRAW_FOUR] * 4
)
"""The 108 cards of a deck as codes, in a fixed (unshuffled) order."""

COPIES: tuple[int, ...] = tuple(FULL_DECK.count(code) for code in range(DISTINCT))
"""How many copies of each code a deck holds (1, 2 or 4)."""

_CARD = re.compile(r"(?P<colour>[rygb])(?P<rank>[0-9]|skip|rev|d2)|(?P<wild>wild|wd4)")
_TOKEN_RANK = {token: rank for rank, token in _RANK_TOKENS.items()}


def parse_card(text: str) -> Card:
    """The card named by an id such as ``r7``, ``gskip``, ``brev``, ``yd2``, ``wild``, ``wd4``."""
    match = _CARD.fullmatch(text)
    if match is None:
        raise ActionSyntaxError(text,
            f"{text!r} is not a card: use a colour letter (r, y, g, b) and 0-9, skip, rev or d2, "
            "or wild / wd4")
    if match["wild"]:
        return CARDS[WILD if match["wild"] == "wild" else WILD_DRAW_FOUR]
    return CARDS[13 * "rygb".index(match["colour"]) + int(_TOKEN_RANK[match["rank"]])]


def parse_colour(text: str) -> Colour:
    """A colour from its letter (``r``, ``y``, ``g``, ``b``)."""
    if len(text) != 1 or text not in "rygb":
        raise ActionSyntaxError(text, f"{text!r} is not a colour: use r, y, g or b")
    return Colour("rygb".index(text))


def hand_points(codes) -> int:
    """The scoring value of a hand of card codes."""
    return sum(POINTS_OF[c] for c in codes)
