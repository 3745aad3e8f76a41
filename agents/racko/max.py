"""Max: keeps the longest usable sequence (``usable_sequence_length``) as long as possible,
as coded in the write-up's public code (src/models/ModelMax.java):

- **Draw**: put the discard top into each slot in turn; take it only when the best of
  those racks has a strictly longer usable sequence than the rack now (it then goes
  into the first slot that gives that best length).
- **Play** a deck card: into the lowest slot where the sequence is longest afterwards,
  unless every slot shortens it (then discard). Equal length counts as keeping it, so
  Max practically never discards.
"""
from __future__ import annotations

from typing import Sequence

from agents.base import Explanation
from agents.racko.common import WriteupPlayer, code_of_slot, usable_sequence_length
from engine.racko import DRAW_DECK, DRAW_DISCARD


def lengths_with(rack: list[int], card: int, max_card: int) -> list[int]:
    """The usable sequence length with ``card`` put in each slot (index 0 = slot 1)."""
    out = []
    for k in range(len(rack)):
        old = rack[k]
        rack[k] = card
        out.append(usable_sequence_length(rack, max_card))
        rack[k] = old
    return out


def best_slot(rack: Sequence[int], card: int, max_card: int, strictly_better: bool) -> int:
    """The first slot index with the longest sequence after placing ``card``, or -1 when
    that is shorter than now (or, ``strictly_better``, not longer)."""
    now = usable_sequence_length(rack, max_card)
    lengths = lengths_with(list(rack), card, max_card)
    best = max(lengths)
    if best > now or (not strictly_better and best == now):
        return lengths.index(best)
    return -1


def draw_discard(rack: Sequence[int], top: int, max_card: int) -> bool:
    """True: take the discard ``top`` (it lengthens the usable sequence)."""
    return best_slot(rack, top, max_card, True) >= 0


def place_slot(rack: Sequence[int], card: int, from_discard: bool, max_card: int) -> int:
    """The slot index for the drawn card, or -1 to discard it. A card from the discard pile
    must be placed: Max took it for the slot that lengthens its sequence (if a forced random
    draw took it, the best slot even if nothing improves)."""
    k = best_slot(rack, card, max_card, from_discard)
    if k < 0 and from_discard:
        lengths = lengths_with(list(rack), card, max_card)
        k = lengths.index(max(lengths))
    return k


class Max(WriteupPlayer):
    """Max as coded (see the module docstring)."""

    name = "max"

    def decide(self, view: dict) -> int:
        rack, max_card = view["rack"], view["options"]["max_card"]
        if view["phase"] == "draw":
            return DRAW_DISCARD if draw_discard(rack, view["discard_top"], max_card) else DRAW_DECK
        return code_of_slot(place_slot(rack, view["drawn"], view["drawn_from"] == "discard", max_card))

    def explain(self, view: dict, legal_actions: Sequence) -> Explanation:
        """Per action, the longest usable sequence it leaves (drawing: the best the discard
        top could give, and for the deck the length now)."""
        rack, max_card = view["rack"], view["options"]["max_card"]
        now = usable_sequence_length(rack, max_card)
        if view["phase"] == "draw":
            top = view["discard_top"]
            best = max(lengths_with(list(rack), top, max_card))
            values = {"draw:deck": float(now), "draw:discard": float(best)}
            note = (f"usable sequence now {now}; with the discard {top} at best {best}: "
                    + ("take it" if best > now else "not longer, draw from the deck"))
        else:
            card = view["drawn"]
            lengths = lengths_with(list(rack), card, max_card)
            values = {"discard": float(now), **{f"place:{k + 1}": float(v) for k, v in enumerate(lengths)}}
            values = {a.id: values[a.id] for a in legal_actions}
            note = f"usable sequence now {now}; {card} in each slot gives {lengths}"
        if self.forced_now(view):
            note += "; but this turn is its forced random move (every 2 · rack_size turns)"
        return Explanation("longest usable sequence", values, note)
