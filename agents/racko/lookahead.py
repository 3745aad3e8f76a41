"""Lookahead: the top Rack-O level, a Diablo network's rack scores (the catalog gives it the
two-layer Diablo2's) with a one-turn expectimax.

Drawing, it compares the two sources by what they are worth *after* the turn:

- the discard top: placed in its best slot (it must be placed);
- the deck: the mean, over every card it has not seen (each as likely; the deck
  and the other racks' hidden cards are all it does not know), of the better of
  keeping the rack and putting that card in its best slot.

It takes the discard when that is worth more than the mean deck draw. Placing a
deck card, it puts it in its best slot when that beats the current rack (as
Diablo). Scores come from the Diablo network it is given. No forced
random move. Every candidate rack of a decision is scored in one batch, so a move
takes milliseconds.
"""
from __future__ import annotations

import numpy as np

from agents.base import Explanation
from agents.racko.common import WriteupPlayer, code_of_slot
from agents.racko.diablo import choose, pick_net, score_groups, tries, view_seen
from agents.racko.features import unseen_prefix
from engine.racko import DRAW_DECK, DRAW_DISCARD


def deck_value(net, rack: list[int], max_card: int, turns: int, prefix: np.ndarray, unseen: list[int]) -> float:
    """The mean over ``unseen`` cards of the best rack after drawing it (kept or placed)."""
    groups = []
    for card in unseen:
        _slots, racks = tries(rack, card, max_card)
        groups.append((racks, turns, prefix))
    scored = score_groups(net, groups, max_card)
    return float(np.mean([values.max() for values, _rows in scored]))


class Lookahead(WriteupPlayer):
    name = "lookahead"

    def __init__(self, nets):
        super().__init__(forced_random=False)
        self.nets = nets

    def _values(self, view: dict):
        n_cards = view["options"]["max_card"]
        turns = view["turns"][view["seat"]]
        seen = view_seen(view)
        prefix = unseen_prefix(n_cards, seen)
        seen_set = set(seen)
        unseen = [c for c in range(1, n_cards + 1) if c not in seen_set]
        take = choose(pick_net(self.nets, view["options"]["rack_size"]), view["rack"], view["discard_top"], n_cards, turns, prefix, 0.0, must_place=True)
        deck = deck_value(pick_net(self.nets, view["options"]["rack_size"]), view["rack"], n_cards, turns, prefix, unseen) if unseen else -1.0
        return take, deck, len(unseen)

    def decide(self, view: dict) -> int:
        if view["phase"] == "draw":
            take, deck, _ = self._values(view)
            return DRAW_DISCARD if take.value > deck else DRAW_DECK
        n_cards = view["options"]["max_card"]
        prefix = unseen_prefix(n_cards, view_seen(view))
        c = choose(pick_net(self.nets, view["options"]["rack_size"]), view["rack"], view["drawn"], n_cards, view["turns"][view["seat"]], prefix, 0.0,
                   must_place=view["drawn_from"] == "discard")
        return code_of_slot(-1 if c.slot is None else c.slot)

    def explain(self, view: dict, legal_actions) -> Explanation:
        if view["phase"] == "draw":
            take, deck, count = self._values(view)
            return Explanation("rack score after the turn (Diablo's network)",
                               {"draw:discard": take.value, "draw:deck": deck},
                               f"the discard {view['discard_top']} in its best slot {take.slot + 1}: {take.value:.3f}; "
                               f"a deck card, averaged over the {count} cards it has not seen: {deck:.3f}")
        n_cards = view["options"]["max_card"]
        prefix = unseen_prefix(n_cards, view_seen(view))
        c = choose(pick_net(self.nets, view["options"]["rack_size"]), view["rack"], view["drawn"], n_cards, view["turns"][view["seat"]], prefix, 0.0,
                   all_slots=True)
        values = {f"place:{s + 1}": v for s, v in zip(c.slots, c.values)}
        values["discard"] = c.current
        return Explanation("rack score after the turn (Diablo's network)",
                           {a.id: values[a.id] for a in legal_actions if a.id in values},
                           f"rack now {c.current:.3f}")
