"""Yaniv (docs/rules.md, section 4).

- ``cards``: the 54 cards, their ids and values;
- ``groups``: singles, sets and runs, and what the next player may take (a helper of the rules);
- ``actions``: ``CallYaniv`` and ``Discard`` with their codes, ids and parser;
- ``rules``: the rules on a mutable ``Table``, the immutable ``State``, the scoring of a call;
- ``view``: what a seat sees, and the state's JSON;
- ``game``: ``Yaniv``, the ``Game`` every part of Parlour talks to.
"""
from engine.yaniv.actions import CallYaniv, Discard, parse_action
from engine.yaniv.cards import CARDS, Card, parse_card
from engine.yaniv.game import Yaniv
from engine.yaniv.rules import DealResult, Rules, State, Table

__all__ = ["CARDS", "CallYaniv", "Card", "DealResult", "Discard", "Rules", "State", "Table", "Yaniv",
           "parse_action", "parse_card"]
