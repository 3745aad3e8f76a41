"""Rack-O actions: typed values, their integer codes and text ids, and the id parser.

=================  ======  ===============================================
id                 code    meaning
=================  ======  ===============================================
``draw:deck``      0       take the top card of the deck
``draw:discard``   1       take the top card of the discard pile
``discard``        2       put the card drawn from the deck on the discard pile
``place:N``        2 + N   put the drawn card in slot N (1 = front, lowest),
                           the card it replaces going on the discard pile
=================  ======  ===============================================

A turn is two actions by the same seat: a draw, then a place (or, for a card from
the deck, a discard). ``ACTIONS[code]`` is the interned value of every code.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from engine.base import ActionSyntaxError

DRAW_DECK, DRAW_DISCARD, DISCARD, PLACE = 0, 1, 2, 3  # PLACE + k: slot k + 1
MAX_RACK = 20  # the largest rack_size the option allows
CODES = PLACE + MAX_RACK


@dataclass(frozen=True, slots=True)
class Action:
    """One Rack-O action, named by its integer ``code`` (see the table above)."""

    code: int

    @property
    def id(self) -> str:
        code = self.code
        if code >= PLACE:
            return f"place:{code - PLACE + 1}"
        return ("draw:deck", "draw:discard", "discard")[code]

    @property
    def slot(self) -> int | None:
        """The slot number (1 = lowest) of a place action, else None."""
        return self.code - PLACE + 1 if self.code >= PLACE else None


ACTIONS: tuple[Action, ...] = tuple(Action(code) for code in range(CODES))

_ID = re.compile(r"draw:(?P<source>deck|discard)|(?P<discard>discard)|place:(?P<slot>[1-9][0-9]?)")


def parse_action(text: str) -> Action:
    """The action named by ``text``; ActionSyntaxError if none is."""
    match = _ID.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise ActionSyntaxError(text, f"{text!r} is not a Rack-O action: use draw:deck, draw:discard, "
                                "discard or place:N (N = 1 for the lowest slot)")
    if match["source"]:
        return ACTIONS[DRAW_DECK if match["source"] == "deck" else DRAW_DISCARD]
    if match["discard"]:
        return ACTIONS[DISCARD]
    slot = int(match["slot"])
    if slot > MAX_RACK:
        raise ActionSyntaxError(text, f"{text!r}: no rack has more than {MAX_RACK} slots")
    return ACTIONS[PLACE + slot - 1]


def label(action: Action) -> str:
    """Words for a person: 'draw from the deck', 'put it in slot 3'."""
    code = action.code
    if code >= PLACE:
        return f"put it in slot {code - PLACE + 1}"
    return ("draw from the deck", "take the discard", "discard the drawn card")[code]
