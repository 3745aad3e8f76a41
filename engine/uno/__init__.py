"""Uno (docs/rules.md, section 2).

- ``cards``: the 54 distinct cards as typed values, their codes, the 108-card deck.
- ``actions``: the actions as typed values, their ids (``play:r7``, ``play:wild:g``,
  ``draw``, ``pass``, ``challenge``, ...) and the id parser.
- ``rules``: the rules on a mutable ``Table`` and the immutable ``State``.
- ``view``: what a seat sees (``observe``), a state consistent with it (``determinise``),
  and the state's JSON.
- ``game``: ``Uno``, the ``Game`` every part of Parlour talks to.
"""
from engine.uno.actions import (
    ACTIONS, Accept, Action, Catch, Challenge, ChooseColour, Draw, Pass, Play, parse_action,
)
from engine.uno.cards import CARDS, FULL_DECK, Card, Colour, Rank, parse_card
from engine.uno.game import Uno
from engine.uno.rules import Rules, State, Table

__all__ = [
    "ACTIONS", "CARDS", "FULL_DECK", "Accept", "Action", "Card", "Catch", "Challenge", "ChooseColour",
    "Colour", "Draw", "Pass", "Play", "Rank", "Rules", "State", "Table", "Uno", "parse_action", "parse_card",
]
