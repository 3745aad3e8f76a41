"""Uno actions as typed values, their text ids, their integer codes, and the id parser.

======================  ==================  ============================================
id                      value               meaning
======================  ==================  ============================================
``play:r7``             Play(r7)            play a coloured card
``play:wild:g``         Play(wild, GREEN)   play a Wild and name green
``play:wd4:b``          Play(wd4, BLUE)     play a Wild Draw Four and name blue
``play:r7:uno``         Play(r7, uno=True)  play your second-last card and call "UNO"
                                            (offered only with the ``uno_call`` option)
``draw``                Draw()              draw a card instead of playing
``pass``                Pass()              keep the card just drawn (or, when neither pile
                                            has a card left, do nothing)
``challenge``           Challenge()         challenge the Wild Draw Four just played on you
``accept``              Accept()            take the four cards without challenging
``colour:g``            ChooseColour(GREEN) name the colour of a Wild turned up to start
``catch``               Catch()             the previous player forgot to call UNO: they draw 2
======================  ==================  ============================================

Every action also has a small integer ``code`` (the rules core's currency):
0-51 play that coloured card, 52+k Wild naming colour k, 56+k Wild Draw Four
naming k, plus 60 when UNO is called; then the fixed codes below. ``ACTIONS[code]``
is the interned value, so comparing and looking up actions is cheap.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from engine.base import ActionSyntaxError
from engine.uno.cards import CARDS, WILD, WILD_DRAW_FOUR, Card, Colour, parse_card, parse_colour

UNO_FLAG = 60
DRAW, PASS, CHALLENGE, ACCEPT = 120, 121, 122, 123
CHOOSE = 124  # + colour
CATCH = 128
CODES = 129


def play_code(card_code: int, colour: int = -1, uno: bool = False) -> int:
    """The action code of playing ``card_code`` (naming ``colour`` for a wild)."""
    if card_code == WILD:
        base = 52 + colour
    elif card_code == WILD_DRAW_FOUR:
        base = 56 + colour
    else:
        base = card_code
    return base + UNO_FLAG if uno else base


@dataclass(frozen=True)
class Play:
    """Play ``card``; a wild names ``colour``; ``uno`` calls UNO with the second-last card."""

    card: Card
    colour: Colour | None = None
    uno: bool = False

    @property
    def code(self) -> int:
        return play_code(self.card.code, -1 if self.colour is None else int(self.colour), self.uno)

    @property
    def id(self) -> str:
        text = f"play:{self.card.id}"
        if self.colour is not None:
            text += f":{self.colour.letter}"
        return text + (":uno" if self.uno else "")


@dataclass(frozen=True)
class Draw:
    """Draw one card (or, with ``draw_until_playable``, until a playable one)."""

    code = DRAW
    id = "draw"


@dataclass(frozen=True)
class Pass:
    """Keep the card just drawn and end the turn; or end it when nothing can be drawn."""

    code = PASS
    id = "pass"


@dataclass(frozen=True)
class Challenge:
    """Challenge the Wild Draw Four just played on you (option ``wd4_challenge``)."""

    code = CHALLENGE
    id = "challenge"


@dataclass(frozen=True)
class Accept:
    """Draw the four cards of a Wild Draw Four without challenging it."""

    code = ACCEPT
    id = "accept"


@dataclass(frozen=True)
class ChooseColour:
    """Name the colour of a Wild turned up to start the discard pile (``opening_wild: choose``)."""

    colour: Colour

    @property
    def code(self) -> int:
        return CHOOSE + int(self.colour)

    @property
    def id(self) -> str:
        return f"colour:{self.colour.letter}"


@dataclass(frozen=True)
class Catch:
    """Catch the previous player, who played their second-last card without calling UNO."""

    code = CATCH
    id = "catch"


Action = Play | Draw | Pass | Challenge | Accept | ChooseColour | Catch


def _action_of_code(code: int) -> Action:
    if code < DRAW:
        uno = code >= UNO_FLAG
        base = code - UNO_FLAG if uno else code
        if base < 52:
            return Play(CARDS[base], None, uno)
        card = CARDS[WILD] if base < 56 else CARDS[WILD_DRAW_FOUR]
        return Play(card, Colour((base - 52) % 4), uno)
    if CHOOSE <= code < CATCH:
        return ChooseColour(Colour(code - CHOOSE))
    fixed: dict[int, Action] = {DRAW: Draw(), PASS: Pass(), CHALLENGE: Challenge(), ACCEPT: Accept(), CATCH: Catch()}
    return fixed[code]


ACTIONS: tuple[Action, ...] = tuple(_action_of_code(code) for code in range(CODES))
"""The interned action of every code."""

BY_ID: dict[str, Action] = {a.id: a for a in ACTIONS}

_ACTION = re.compile(
    r"play:(?P<card>[a-z0-9]+)(?::(?P<colour>[a-z]))?(?P<uno>:uno)?"
    r"|colour:(?P<pick>[a-z])"
    r"|(?P<word>draw|pass|challenge|accept|catch)")


def parse_action(text: str) -> Action:
    """The action named by ``text`` (see the table above); ActionSyntaxError if none is."""
    match = _ACTION.fullmatch(text)
    if match is None:
        raise ActionSyntaxError(text,
            f"{text!r} is not an Uno action: use play:CARD (play:r7, play:wild:g, play:wd4:b, "
            "optionally :uno), draw, pass, challenge, accept, colour:C or catch")
    if match["word"]:
        return BY_ID[match["word"]]
    try:
        if match["pick"]:
            return ACTIONS[CHOOSE + int(parse_colour(match["pick"]))]
        card = parse_card(match["card"])
        colour = parse_colour(match["colour"]) if match["colour"] else None
    except ActionSyntaxError as err:
        raise ActionSyntaxError(text, f"{text!r}: {err.reason}") from None
    if card.is_wild and colour is None:
        raise ActionSyntaxError(text, f"{text!r}: a {card.title} names a colour, e.g. play:{card.id}:g")
    if not card.is_wild and colour is not None:
        raise ActionSyntaxError(text, f"{text!r}: only wild cards name a colour")
    return ACTIONS[play_code(card.code, -1 if colour is None else int(colour), bool(match["uno"]))]


def label(action: Action) -> str:
    """Words for a person: 'play Red 7', 'play Wild, naming green', 'draw a card'."""
    if isinstance(action, Play):
        text = f"play {action.card.title}"
        if action.colour is not None:
            text += f", naming {action.colour.name.lower()}"
        return text + (" and call UNO" if action.uno else "")
    if isinstance(action, ChooseColour):
        return f"name {action.colour.name.lower()} for the opening Wild"
    return {DRAW: "draw a card", PASS: "pass", CHALLENGE: "challenge the Wild Draw Four",
            ACCEPT: "accept the Wild Draw Four (draw 4)", CATCH: "catch: no UNO called (they draw 2)"}[
        action.code]
