"""Rack-O (docs/rules.md, section 3).

- ``cards``: the cards (the ints 1..max_card) and what a rack of them scores;
- ``actions``: the actions as typed values, their integer codes (0 draw from the deck,
  1 take the discard, 2 discard the drawn card, 3 + k place it in slot k + 1) and ids
  (``draw:deck``, ``draw:discard``, ``discard``, ``place:N``) and the id parser;
- ``rules``: the rules on a mutable ``Table`` (plain ints and lists, for simulations)
  and the immutable ``State``;
- ``view``: what a seat sees, and the state's JSON;
- ``game``: ``Racko``, the ``Game`` every part of Parlour talks to (reasons, labels, hidden cards).
"""
from engine.racko.actions import (
    ACTIONS, DISCARD, DRAW_DECK, DRAW_DISCARD, PLACE, Action, parse_action,
)
from engine.racko.cards import ascending_prefix, is_racko, longest_run, run_bonus
from engine.racko.game import Racko
from engine.racko.rules import (
    DRAW, FROM_DECK, FROM_DISCARD, FROM_NONE, OVER, PLACE_PHASE, Rules, State, Table, deal_points,
)

__all__ = [
    "ACTIONS", "DISCARD", "DRAW", "DRAW_DECK", "DRAW_DISCARD", "FROM_DECK", "FROM_DISCARD", "FROM_NONE", "OVER",
    "PLACE", "PLACE_PHASE", "Action", "Racko", "Rules", "State", "Table", "ascending_prefix", "deal_points",
    "is_racko", "longest_run", "parse_action", "run_bonus",
]
