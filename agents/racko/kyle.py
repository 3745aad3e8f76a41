"""Kyle: the heuristic player the write-up benchmarks against (a public 2008 Rack-O
program, ported in the write-up's code), as coded there. With N cards and r slots,
k = N // r (integer division, as in the code):

1. **Anchors**, at the deal: slot i (1-based) is an anchor when its card lies in its
   band [(i-1)k + 1, ik]; then, from each anchor a, slot a + 1 joins while its card is
   exactly card(a) + 1 (chains run on).
2. **Ranges**, each turn, from the current rack: every run of non-anchor slots s..e
   gets lo = (card of the anchor below) + 1, or 1, and hi = (card of the anchor above)
   - 1, or N.
3. **Draw**: take the discard when lo <= c <= hi for some range; a deck card is kept
   only when lo < c < hi for some range, else discarded. The first range that matches.
4. **Slot**: in a one-slot range, that slot; c = lo goes to the range's first slot;
   otherwise slot s - 1 + max(1, round(c · n / hi)) (n slots in the range; Java's
   round, half up).
5. **Growing anchors** (``grow_anchors``, on by default): in the code every slot Kyle
   fills becomes an anchor too (``anchorPoints.add(slot)`` after each placement), so the
   ranges shrink as the deal goes and can become empty: then Kyle only draws and
   discards until the forced random move changes something. The Rack-O write-up describes the
   anchors as fixed at the deal; the code (src/models/ModelKyle.java) grows them, and
   that is what reproduces its tables, so it is the default. ``grow_anchors=False``
   keeps them fixed.

The decisions are plain functions of ints (``anchors_at_deal``, ``ranges``,
``draw_discard``, ``place_slot``): ``Kyle.act`` rebuilds the anchors from its view
(its dealt rack and the slots it filled, ``placed``) and calls them, and the arena's
``KyleDecider`` keeps them up to date incrementally.
"""
from __future__ import annotations

from typing import Sequence

from agents.base import Explanation
from agents.racko.common import WriteupPlayer, code_of_slot, forced_turn
from engine.racko import DRAW_DECK, DRAW_DISCARD


def anchors_at_deal(rack: Sequence[int], max_card: int) -> list[bool]:
    """Kyle's anchors for a rack as dealt (index 0 = slot 1)."""
    r = len(rack)
    k = max_card // r
    anchors = [i * k < rack[i] <= (i + 1) * k for i in range(r)]
    for i in range(r - 1):  # in slot order, so chains of consecutive cards run on
        if anchors[i] and rack[i] + 1 == rack[i + 1]:
            anchors[i + 1] = True
    return anchors


def ranges(rack: Sequence[int], anchors: Sequence[bool], max_card: int) -> list[tuple[int, int, int, int]]:
    """The ranges (lo, hi, first slot index, number of slots) of the runs of non-anchor
    slots, front first; a range may be empty (hi < lo)."""
    out = []
    r = len(rack)
    lo = 1
    start = -1
    for i in range(r):
        if anchors[i]:
            if start >= 0:
                out.append((lo, rack[i] - 1, start, i - start))
                start = -1
            lo = rack[i] + 1
        elif start < 0:
            start = i
    if start >= 0:
        out.append((lo, max_card, start, r - start))
    return out


def find_range(rs, card: int, from_discard: bool) -> int:
    """The index of the first range the card fits (lo <= c <= hi for the discard,
    lo < c < hi for a deck card), or -1."""
    for j, (lo, hi, _, _) in enumerate(rs):
        if lo < card < hi or (from_discard and (card == lo or card == hi)):
            return j
    return -1


def slot_in(lo: int, hi: int, start: int, n: int, card: int) -> int:
    """Kyle's slot (0-based index) for ``card`` in the range (lo, hi, start, n)."""
    if n == 1 or card <= lo:
        return start
    estimate = card / hi * n  # in the code's order of operations (the same doubles as Java)
    return start + (1 if estimate < 1 else int(estimate + 0.5)) - 1


def draw_discard(rack: Sequence[int], anchors: Sequence[bool], top: int, max_card: int) -> bool:
    """True: take the discard ``top`` (it fits a range)."""
    return find_range(ranges(rack, anchors, max_card), top, True) >= 0


def place_slot(rack: Sequence[int], anchors: Sequence[bool], card: int, from_discard: bool,
               max_card: int) -> int:
    """The slot index for the drawn ``card``, or -1 to discard it (a card taken from the
    discard pile always fits, since Kyle took it for that)."""
    rs = ranges(rack, anchors, max_card)
    j = find_range(rs, card, from_discard)
    if j < 0:
        return -1
    lo, hi, start, n = rs[j]
    return slot_in(lo, hi, start, n, card)


def anchors_of_view(view: dict, forced_random: bool, grow: bool) -> list[bool]:
    """Kyle's anchors now, rebuilt from its own view: those of the dealt rack, plus (as
    coded) every slot it filled on a turn that was not a forced random move."""
    rack_size, max_card = view["options"]["rack_size"], view["options"]["max_card"]
    anchors = anchors_at_deal(view["dealt"], max_card)
    if grow:
        for t, slot in enumerate(view["placed"][view["seat"]]):
            if slot and not (forced_random and forced_turn(t, rack_size)):
                anchors[slot - 1] = True
    return anchors


class Kyle(WriteupPlayer):
    """Kyle as coded (see the module docstring)."""

    name = "kyle"

    def __init__(self, forced_random: bool = True, grow_anchors: bool = True):
        super().__init__(forced_random)
        self.grow_anchors = grow_anchors

    def decide(self, view: dict) -> int:
        rack, max_card = view["rack"], view["options"]["max_card"]
        anchors = anchors_of_view(view, self.forced_random, self.grow_anchors)
        if view["phase"] == "draw":
            return DRAW_DISCARD if draw_discard(rack, anchors, view["discard_top"], max_card) else DRAW_DECK
        return code_of_slot(place_slot(rack, anchors, view["drawn"], view["drawn_from"] == "discard", max_card))

    def explain(self, view: dict, legal_actions: Sequence) -> Explanation:
        rack, max_card = view["rack"], view["options"]["max_card"]
        anchors = anchors_of_view(view, self.forced_random, self.grow_anchors)
        rs = ranges(rack, anchors, max_card)
        shown = ", ".join(f"slots {s + 1}-{s + n}: {lo}..{hi}" if n > 1 else f"slot {s + 1}: {lo}..{hi}"
                          for lo, hi, s, n in rs) or "none (every slot is an anchor)"
        anchor_slots = ", ".join(str(i + 1) for i, a in enumerate(anchors) if a) or "none"
        drawing = view["phase"] == "draw"
        card = view["discard_top"] if drawing else view["drawn"]
        choice = self.decide(view)
        values = {a.id: float(a.code == choice) for a in legal_actions}
        if self.forced_now(view):
            why = "this turn is its forced random move (every 2 · rack_size turns)"
        elif drawing:
            why = (f"the discard {card} fits a range: take it" if choice == DRAW_DISCARD
                   else f"the discard {card} fits no range: draw from the deck")
        else:
            why = (f"{card} fits no range: discard it" if choice < 3
                   else f"{card} fits a range: slot {choice - 2}")
        return Explanation("Kyle's choice (1 = chosen)", values,
                           f"anchors: {anchor_slots}; ranges: {shown}; {why}")
