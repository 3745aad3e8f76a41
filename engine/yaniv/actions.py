"""Yaniv actions, their integer codes and their ids (a turn is one action).

- ``CallYaniv()``: id ``yaniv``, code 0.
- ``Discard(drop, take)``: throw the group ``drop`` and draw ``take`` (a card of the
  previous player's group) or, when ``take`` is None, the top of the stock. Ids:
  ``drop:5d,5h|take:stock``, ``drop:7s,8s,9s|take:9s``, ``drop:7s,jk1,9s|take:Kh``.
  Its code holds the cards thrown as bits (bit ``index`` of each) and, above them,
  the card taken: ``mask + (take.index + 1 << 54)``, nothing above for the stock.

Grammar of an id (parsed by ``parse_action``, a small recursive-descent reader)::

    action := "yaniv" | "drop:" cards "|take:" source
    cards  := card ("," card)*
    source := "stock" | card
    card   := rank suit | "jk1" | "jk2"      rank: A 2 3 4 5 6 7 8 9 10 J Q K; suit: c d h s

The cards of a drop may be listed in any order: a valid group is put in its
canonical order (``engine.yaniv.groups.arrange``), so an id names one action.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import ClassVar

from engine.base import ActionSyntaxError
from engine.yaniv.cards import CARD_IDS, CARDS, DECK_SIZE, Card, parse_card
from engine.yaniv.groups import GroupError, arrange

YANIV_ID = "yaniv"
CALL = 0
"""The code of calling Yaniv."""
TAKE = 1 << DECK_SIZE
"""A discard's code is its cards' bits plus ``(take + 1) * TAKE`` (0 for the stock)."""


def mask_of(cards) -> int:
    """The bits of the card indices ``cards``."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def cards_of(mask: int) -> list[int]:
    """The card indices whose bits ``mask`` holds, in increasing order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass(frozen=True, slots=True)
class CallYaniv:
    """Call Yaniv: the hands are shown and the deal is scored."""

    code: ClassVar[int] = CALL

    @property
    def id(self) -> str:
        return YANIV_ID


@dataclass(frozen=True, slots=True)
class Discard:
    """Throw ``drop`` (a group, in canonical order) and draw ``take`` (None: the stock)."""

    drop: tuple[Card, ...]
    take: Card | None = None
    code: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        code = 0 if self.take is None else (self.take.index + 1) * TAKE
        for card in self.drop:
            code |= 1 << card.index
        object.__setattr__(self, "code", code)

    @staticmethod
    def of(drop, take: Card | None = None) -> "Discard":
        """A discard of cards in any order (put in canonical order when they form a group)."""
        cards = tuple(drop)
        try:
            cards = tuple(CARDS[i] for i in arrange(c.index for c in cards))
        except GroupError:
            pass
        return Discard(cards, take)

    @property
    def id(self) -> str:
        source = "stock" if self.take is None else CARD_IDS[self.take.index]
        return "drop:" + ",".join(CARD_IDS[c.index] for c in self.drop) + "|take:" + source

    @property
    def indices(self) -> tuple[int, ...]:
        return tuple(c.index for c in self.drop)


Action = CallYaniv | Discard


@lru_cache(maxsize=1 << 16)
def action_of(code: int) -> Action:
    """The action of a code (the cards of a discard in canonical order; GroupError if they are
    no group): one shared value per code."""
    if code == CALL:
        return CallYaniv()
    take, mask = divmod(code, TAKE)
    drop = arrange(cards_of(mask))
    return Discard(tuple(CARDS[c] for c in drop), CARDS[take - 1] if take else None)


class _Reader:
    """Reads an action id left to right; every method consumes what it recognised."""

    def __init__(self, text: str):
        self.text = text
        self.pos = 0

    def fail(self, expected: str) -> ActionSyntaxError:
        got = self.text[self.pos:] or "the end"
        return ActionSyntaxError(self.text, f"expected {expected} at {got!r}; an action is 'yaniv' "
                                             "or 'drop:CARD,CARD,...|take:stock' / '...|take:CARD'")

    def literal(self, word: str) -> bool:
        if self.text.startswith(word, self.pos):
            self.pos += len(word)
            return True
        return False

    def card(self) -> Card:
        end = self.pos
        while end < len(self.text) and self.text[end] not in ",|":
            end += 1
        token = self.text[self.pos:end]
        try:
            card = parse_card(token)
        except ActionSyntaxError as err:
            raise ActionSyntaxError(self.text, err.reason) from None
        self.pos = end
        return card

    def cards(self) -> list[Card]:
        out = [self.card()]
        while self.literal(","):
            out.append(self.card())
        return out

    def end(self) -> None:
        if self.pos != len(self.text):
            raise self.fail("the end")


def parse_action(text: str) -> Action:
    """The action with id ``text``; ActionSyntaxError (with the reason) when it is no id."""
    if not isinstance(text, str):
        raise ActionSyntaxError(text, "an action id is a string")
    reader = _Reader(text)
    if reader.literal(YANIV_ID):
        reader.end()
        return CallYaniv()
    if not reader.literal("drop:"):
        raise reader.fail("'yaniv' or 'drop:'")
    drop = reader.cards()
    if not reader.literal("|take:"):
        raise reader.fail("'|take:'")
    take = None if reader.literal("stock") else reader.card()
    reader.end()
    return Discard.of(drop, take)
