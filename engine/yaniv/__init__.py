"""Yaniv (docs/rules.md, section 4): cards, discard groups, actions and the rules.

- ``engine.yaniv.cards``: the 54 cards, their ids and values;
- ``engine.yaniv.groups``: singles, sets and runs, and what the next player may take;
- ``engine.yaniv.actions``: ``CallYaniv`` and ``Discard`` with their ids and parser;
- ``engine.yaniv.rules``: the state, scoring, and the ``Yaniv`` game.
"""
from engine.yaniv.actions import CallYaniv, Discard, parse_action
from engine.yaniv.cards import CARDS, Card, parse_card
from engine.yaniv.rules import DealResult, Rules, State, Yaniv

__all__ = ["CARDS", "CallYaniv", "Card", "DealResult", "Discard", "Rules", "State", "Yaniv",
           "parse_action", "parse_card"]
