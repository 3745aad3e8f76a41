"""Queen of Spades, Grasobern (docs/rules.md, section 5).

- ``cards``: the card order (0..31 = suit·8 + rank; ♣ ♠ ♥ ♦; A K Q J 10 9 8 7), ids and labels;
- ``actions``: ``Play(card)`` with id ``play:QS``, code = the card, and its parser;
- ``rules``: the rules on a mutable ``Table`` (plain ints; simulations drive it with
  ``legal()`` and ``step(card)``) and the immutable ``State``;
- ``hidden``: redealing the unseen cards consistently with the voids play has shown (a
  helper of ``game``'s ``resample_hidden``);
- ``view``: what a seat sees, the scoring explained, the state's JSON;
- ``game``: ``QueenOfSpades``, the ``Game`` every part of Parlour talks to.
"""
from engine.queen_of_spades.actions import ACTIONS, Play, parse_action
from engine.queen_of_spades.cards import CARD_IDS, QUEEN_OF_SPADES, parse_card
from engine.queen_of_spades.game import QueenOfSpades
from engine.queen_of_spades.rules import DealResult, Rules, State, Table, deal_points

__all__ = ["ACTIONS", "CARD_IDS", "QUEEN_OF_SPADES", "DealResult", "Play", "QueenOfSpades", "Rules", "State",
           "Table", "deal_points", "parse_action", "parse_card"]
