"""Lookahead: the top Rack-O level, Diablo's rack scores with expectimax over the cards it
has not seen.

Every card it has not seen (the deck and the other racks' hidden cards) counts as
equally likely to come off the deck. With ``V`` Diablo's score of a rack:

- ``deck(R)``: the value of drawing from the deck with rack ``R``: the mean, over
  the unseen cards, of the better of keeping ``R`` and putting the card in its
  best slot (by ``V``).
- **Drawing**: it takes the discard when the discard in its best slot (it must be
  placed) is worth more than ``deck(rack)``.
- **Placing**: each way to place the card (each slot, and discarding a deck card)
  is worth ``deck`` of the rack it leaves: what the rack is worth after its *next*
  draw, not as it stands (a one-turn expectimax on top of Diablo's greedy choice).

Scores come from Diablo's shipped network; no forced random move. Every candidate
rack of a decision is scored in one batch.
"""
from __future__ import annotations

import numpy as np

from agents.base import Explanation
from agents.racko.common import WriteupPlayer, code_of_slot
from agents.racko.diablo import pick_net, rack_scores, tries, view_seen
from agents.racko.features import unseen_prefix
from engine.racko import DRAW_DECK, DRAW_DISCARD


def deck_values(net, racks: list[list[int]], max_card: int, turns: int, prefix: np.ndarray,
                unseen: list[int]) -> np.ndarray:
    """``deck(R)`` for each rack: the mean over ``unseen`` cards of the best of keeping R and
    each slot the card is tried in."""
    if not unseen:
        return rack_scores(net, racks, max_card, turns, prefix)
    every, sizes = list(racks), []
    for rack in racks:
        for card in unseen:
            _slots, trial = tries(rack, card, max_card)
            sizes.append(len(trial) - 1)
            every.extend(trial[1:])
    values = rack_scores(net, every, max_card, turns, prefix)
    kept = values[:len(racks)]
    starts = np.cumsum([len(racks)] + sizes[:-1])
    best = np.maximum.reduceat(values, starts).reshape(len(racks), len(unseen))
    return np.maximum(best, kept[:, None]).mean(axis=1)


class Decision:
    """What Lookahead weighed at a decision: ``options`` maps an action code to its value."""

    def __init__(self, options: dict[int, float], note: str):
        self.options = options
        self.note = note

    @property
    def best(self) -> int:
        return max(self.options, key=self.options.get)


class Lookahead(WriteupPlayer):
    name = "lookahead"

    def __init__(self, nets):
        super().__init__(forced_random=False)
        self.nets = nets

    def _context(self, view: dict):
        n_cards = view["options"]["max_card"]
        seen = view_seen(view)
        seen_set = set(seen)
        unseen = [c for c in range(1, n_cards + 1) if c not in seen_set]
        net = pick_net(self.nets, view["options"]["rack_size"])
        return net, n_cards, view["turns"][view["seat"]], unseen_prefix(n_cards, seen), unseen

    def decision(self, view: dict) -> Decision:
        net, n_cards, turns, prefix, unseen = self._context(view)
        rack = view["rack"]
        if view["phase"] == "draw":
            slots, racks = tries(rack, view["discard_top"], n_cards)
            take = rack_scores(net, racks[1:], n_cards, turns, prefix)
            deck = float(deck_values(net, [rack], n_cards, turns, prefix, unseen)[0])
            k = int(np.argmax(take))
            return Decision({DRAW_DISCARD: float(take[k]), DRAW_DECK: deck},
                            f"the discard {view['discard_top']} in its best slot {slots[k] + 1}: {take[k]:.3f}; "
                            f"a deck card, averaged over the {len(unseen)} cards it has not seen: {deck:.3f}")
        slots, racks = tries(rack, view["drawn"], n_cards, all_slots=True)
        codes = [code_of_slot(s) for s in slots]
        if view["drawn_from"] != "discard":
            codes = [code_of_slot(-1)] + codes
        else:
            racks = racks[1:]
        later = deck_values(net, racks, n_cards, turns + 1, prefix, unseen)
        return Decision(dict(zip(codes, later.tolist())),
                        f"each way to play the {view['drawn']}, worth the rack it leaves after the next deck "
                        f"draw (averaged over the {len(unseen)} cards it has not seen)")

    def decide(self, view: dict) -> int:
        return self.decision(view).best

    def explain(self, view: dict, legal_actions) -> Explanation:
        d = self.decision(view)
        values = {a.id: d.options[a.code] for a in legal_actions if a.code in d.options}
        return Explanation("rack score after the turn and the next draw (Diablo's network)", values, d.note)
