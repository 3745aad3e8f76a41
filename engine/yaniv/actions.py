"""Yaniv actions and their ids (a turn is one action).

- ``CallYaniv()``: id ``yaniv``.
- ``Discard(drop, take)``: throw the group ``drop`` and draw ``take`` (a card of the
  previous player's group) or, when ``take`` is None, the top of the stock. Ids:
  ``drop:5d,5h|take:stock``, ``drop:7s,8s,9s|take:9s``, ``drop:7s,jk1,9s|take:Kh``.

Grammar of an id (parsed by ``parse_action``, a small recursive-descent reader)::

    action := "yaniv" | "drop:" cards "|take:" source
    cards  := card ("," card)*
    source := "stock" | card
    card   := rank suit | "jk1" | "jk2"      rank: A 2 3 4 5 6 7 8 9 10 J Q K; suit: c d h s

The cards of a drop may be listed in any order: a valid group is put in its
canonical order (``engine.yaniv.groups.arrange``), so an id names one action.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.base import IllegalActionError
from engine.yaniv.cards import CARD_IDS, CARDS, Card, CardSyntaxError, parse_card
from engine.yaniv.groups import GroupError, arrange

YANIV_ID = "yaniv"


@dataclass(frozen=True, slots=True)
class CallYaniv:
    """Call Yaniv: the hands are shown and the deal is scored."""

    @property
    def id(self) -> str:
        return YANIV_ID


@dataclass(frozen=True, slots=True)
class Discard:
    """Throw ``drop`` (a group, in canonical order) and draw ``take`` (None: the stock)."""

    drop: tuple[Card, ...]
    take: Card | None = None

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


class _Reader:
    """Reads an action id left to right; every method consumes what it recognised."""

    def __init__(self, text: str):
        self.text = text
        self.pos = 0

    def fail(self, expected: str) -> IllegalActionError:
        got = self.text[self.pos:] or "the end"
        return IllegalActionError(self.text, f"expected {expected} at {got!r}; an action is 'yaniv' "
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
        except CardSyntaxError as err:
            raise IllegalActionError(self.text, str(err)) from None
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
    """The action with id ``text``; IllegalActionError (with the reason) when it is no id."""
    if not isinstance(text, str):
        raise IllegalActionError(str(text), "an action id is a string")
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
