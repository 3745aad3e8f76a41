"""Lookahead: a Diablo network's rack scores (the catalog gives it the two-layer Diablo2's) with an
expectimax over the cards the player has not seen, each as likely to come off the deck (the deck
and the other racks' hidden cards are all it does not know). A rack that ascends is a Rack-O and
worth 1, the most a rack can score (``rack_values``).

``deck(R)`` is what rack ``R`` is worth after one more deck draw: the mean, over the unseen cards,
of the better of keeping ``R`` and putting the card in its best usable slot (``deck_values``).

- **Drawing**: it takes the discard when the discard in its best slot (it must be placed) is worth
  more than ``deck`` of the rack as it is: both are what the rack is worth after this turn.
- **Placing** (``lookahead``): the best slot by its score after the turn, if that beats keeping
  the rack (a deck card), as Diablo does without its margin.
- **Placing, planning a turn ahead** (``lookahead-plan``): the ways to play the card
  (each slot, and discarding a deck card) that score best after the turn, ``width`` of them, are
  each worth ``deck`` of the rack they leave: what the rack will be worth after its *next* deck
  draw. It plays the best of those.
- **Drawing, planning a turn ahead** (``lookahead-deep``, the top level: ``planned_draw``): both piles are valued
  at the placement's horizon: the discard by its ``width`` best slots, a deck card (averaged over
  the unseen cards) by its ``plan_draw`` best ways to play, each worth ``deck`` of the rack it leaves.

No forced random move. Every candidate rack of a decision is scored in one batch of the network (two for a planned draw);
the values of the last decision are kept for its explanation (``decision_key``).
"""
from __future__ import annotations

import numpy as np

from agents.base import Explanation
from agents.racko.common import WriteupPlayer, code_of_slot, decision_key
from agents.racko.diablo import pick_net, tries, view_seen
from agents.racko.features import expand, feature_matrix, rack_points_scale, unseen_prefix
from engine.racko import DRAW_DECK, DRAW_DISCARD


CHUNK_SLOTS = 819_200
CHUNK_CARDS = 8_192_000
"""``rack_values`` scores at most ``CHUNK_SLOTS`` / r² racks in one batch (8,192 of 10 slots, 2,048
of 20), and at most ``CHUNK_CARDS`` / (r · (max_card + 1)) (1,021 of 20 slots and 400 cards). A
batch's memory grows with its sequences times r² (the clumps of ``feature_matrix``'s labelled way)
and times the cards (the unseen counts each row reads), and a search at large tables asks for many
racks: at 20 slots a planned draw scored tens of thousands of racks of about 20 sequences each, and
in one batch took over 20 GB (a probe, session 21). A table of 10 slots and 40 to 60 cards asks for
at most about 18,000 racks a call, in batches of 8,192."""


def rack_values(net, racks: list[list[int]], max_card: int, turns: int, prefix: np.ndarray) -> np.ndarray:
    """Each rack's worth to one player: the network's score (its best over the rack's maximal
    usable sequences), and 1 for a rack that ascends (a Rack-O: the deal is won). In batches of
    at most ``CHUNK_SLOTS`` / r² racks and ``CHUNK_CARDS`` / (r · (max_card + 1)) (a rack's worth does
    not depend on the others in its batch)."""
    r = len(racks[0])
    chunk = max(1, min(CHUNK_SLOTS // r ** 2, CHUNK_CARDS // (r * (max_card + 1))))
    if len(racks) > chunk:
        return np.concatenate([rack_values(net, racks[k:k + chunk], max_card, turns, prefix)
                               for k in range(0, len(racks), chunk)])
    rows, masks, pts, starts = expand(racks, max_card)
    n = len(rows)
    feats = feature_matrix(rows, masks, max_card, np.full(n, turns), prefix[None, :], np.zeros(n, np.int64), pts)
    scores = np.maximum.reduceat(net(feats), starts)
    return np.where(pts[starts] == rack_points_scale(len(racks[0])), 1.0, scores)


def deck_matrix(net, racks: list[list[int]], max_card: int, turns: int, prefix: np.ndarray,
                unseen: list[int]) -> np.ndarray:
    """For each rack R (row) and unseen card c (column): the best of keeping R and putting c in each
    slot where it is usable."""
    index: dict[tuple[int, ...], int] = {}  # each distinct rack scored once
    every, sizes = [index.setdefault(tuple(rack), len(index)) for rack in racks], []
    for rack in racks:
        for card in unseen:
            _slots, trial = tries(rack, card, max_card)
            sizes.append(len(trial) - 1)
            every.extend(index.setdefault(tuple(t), len(index)) for t in trial[1:])
    values = rack_values(net, [list(t) for t in index], max_card, turns, prefix)[every]
    kept, tried = values[:len(racks)], values[len(racks):]
    starts = np.concatenate([[0], np.cumsum(sizes[:-1])]).astype(np.int64)
    best = np.maximum.reduceat(tried, starts).reshape(len(racks), len(unseen))
    return np.maximum(best, kept[:, None])


def deck_values(net, racks: list[list[int]], max_card: int, turns: int, prefix: np.ndarray,
                unseen: list[int]) -> np.ndarray:
    """``deck(R)`` for each rack: the mean over ``unseen`` (not empty) of the best of keeping R and
    putting the card in each slot where it is usable."""
    return deck_matrix(net, racks, max_card, turns, prefix, unseen).mean(axis=1)


def planned_draw(net, rack: list[int], discard: int, max_card: int, turns: int, prefix: np.ndarray,
                 unseen: list[int], width: int, deck_width: int) -> tuple[float, int, float]:
    """The draw valued at the placement's horizon: (taking the discard, the slot that values it,
    drawing from the deck). Taking the discard is worth the best, over its ``width`` best usable
    slots after the turn, of ``deck`` of the rack it leaves; a deck card c, the best over the
    ``deck_width`` best after the turn of keeping the rack and c in each slot, of ``deck`` of the rack left with c no
    longer unseen (the mean over the other unseen cards; over all of them when c is the last);
    the deck is worth the mean over c. Two network calls: every candidate after the turn, then
    ``deck`` of the chosen racks (each distinct rack once)."""
    slots, taken = tries(rack, discard, max_card)
    groups = [taken[1:]] + [tries(rack, c, max_card, all_slots=True)[1] for c in unseen]
    flat = [r for g in groups for r in g]
    now = rack_values(net, flat, max_card, turns, prefix)
    index: dict[tuple[int, ...], int] = {}
    chosen: list[list[int]] = []  # per group: the rows of its chosen racks in ``index``
    tops: list[np.ndarray] = []  # per group: its chosen racks' places in the group
    start = 0
    for g, group in enumerate(groups):
        tops.append(np.argsort(-now[start:start + len(group)], kind="stable")[:deck_width if g else width])
        chosen.append([index.setdefault(tuple(group[i]), len(index)) for i in tops[-1]])
        start += len(group)
    later = deck_matrix(net, [list(r) for r in index], max_card, turns + 1, prefix, unseen)
    total = later.sum(axis=1)
    take_rows = later[chosen[0]].mean(axis=1)
    k = int(np.argmax(take_rows))
    others = max(len(unseen) - 1, 1)
    deck = [max((total[i] - (later[i, j] if len(unseen) > 1 else 0.0)) / others for i in rows)
            for j, rows in enumerate(chosen[1:])]
    return float(take_rows[k]), slots[int(tops[0][k])], float(np.mean(deck))


def unseen_cards(view: dict) -> list[int]:
    """The cards the seat has not seen (the deck and the others' hidden cards), in order."""
    seen = set(view_seen(view))
    return [c for c in range(1, view["options"]["max_card"] + 1) if c not in seen]


AVERAGED_CARDS = 50
"""The most unseen cards an expectation averages over: with more (a table of many cards: up to
400) it averages over that many of them, evenly spread over their order. Every 10-slot table of 2
to 4 players has at most 49 unseen cards, so those average over all of them."""
PLANNED_DRAW_BUDGET = 30_000
"""The largest table whose draw is planned, as (unseen cards)² · rack size: a planned draw scores
about that many racks (each deck card's way to play, after each next deck draw). Every 10-slot
table of 2 to 4 players is within it (4 players, 60 cards: 49² · 10 = 24,010); at 20 slots (59² · 20)
a decision took up to 10 s, and with 400 cards minutes. Past it the draw is weighed as
``lookahead-plan`` weighs it, and the explanation says so."""


class Lookahead(WriteupPlayer):
    """``plan``: placements valued after the next deck draw (the ``width`` best after the turn);
    ``plan_draw``: the draw too (``planned_draw``), weighing that many ways to play each deck card
    (0: the draw is not planned)."""

    name = "lookahead"

    def __init__(self, nets, plan: bool = False, width: int = 3, plan_draw: int = 0):
        super().__init__(forced_random=False)
        self.name = "lookahead-deep" if plan_draw else "lookahead-plan" if plan else "lookahead"
        self.nets = nets
        self.plan = plan
        self.plan_draw = plan_draw
        self.width = width
        self._last: tuple | None = None  # (decision_key, _weigh's answer)

    def _weigh(self, view: dict, also: int | None = None) -> tuple[dict[int, float], list[int], str, bool]:
        """The action codes it weighed and their worth, those it chooses among (in order: ties go to
        the first), what the values mean, and whether they look past the next deck draw; kept for
        ``explain``. ``also``: an action code to weigh as well when planning (the coach's: the move
        a person made)."""
        key = (decision_key(view), also)
        if self._last is None or self._last[0] != key:
            self._last = (key, self._weigh_now(view, also))
        return self._last[1]

    def _weigh_now(self, view: dict, also: int | None) -> tuple[dict[int, float], list[int], str, bool]:
        n_cards, rack = view["options"]["max_card"], view["rack"]
        net = pick_net(self.nets, view["options"]["rack_size"])
        prefix, turns = unseen_prefix(n_cards, view_seen(view)), view["turns"][view["seat"]]
        unseen = unseen_cards(view)
        every = len(unseen)
        if every > AVERAGED_CARDS:
            unseen = [unseen[(2 * k + 1) * every // (2 * AVERAGED_CARDS)] for k in range(AVERAGED_CARDS)]
        over = f"the {every} cards it has not seen" if len(unseen) == every else \
            f"{len(unseen)} of the {every} cards it has not seen, evenly spread"
        if view["phase"] == "draw" and self._plans_draw(len(rack), len(unseen)):
            take_value, slot, deck = planned_draw(net, rack, view["discard_top"], n_cards, turns, prefix, unseen,
                                                  self.width, self.plan_draw)
            return ({DRAW_DECK: deck, DRAW_DISCARD: take_value}, [DRAW_DECK, DRAW_DISCARD],
                    f"each worth the rack after the next deck draw too: the discard {view['discard_top']} in its "
                    f"best slot {slot + 1} (of the {self.width} best after the turn): {take_value:.3f}; a deck card, "
                    f"averaged over {over}, each played the best of its {self.plan_draw} "
                    f"best ways after the turn (keeping the rack is one): {deck:.3f}", self.plan)
        if view["phase"] == "draw":
            slots, racks = tries(rack, view["discard_top"], n_cards)
            take = rack_values(net, racks[1:], n_cards, turns, prefix)
            k = int(np.argmax(take))
            deck = float(deck_values(net, [rack], n_cards, turns, prefix, unseen)[0]) if unseen else -1.0
            too_large = (f"{every} unseen cards and {len(rack)} slots are too many to plan the draw in time: "
                         if self.plan_draw and unseen else "")
            return ({DRAW_DECK: deck, DRAW_DISCARD: float(take[k])}, [DRAW_DECK, DRAW_DISCARD],
                    f"{too_large}the discard {view['discard_top']} in its best slot {slots[k] + 1}: {take[k]:.3f}; "
                    f"a deck card, averaged over {over}: {deck:.3f}", False)
        card, must_place = view["drawn"], view["drawn_from"] == "discard"
        slots, racks = tries(rack, card, n_cards, all_slots=True)
        if must_place:
            racks = racks[1:]
        else:
            slots = [-1] + slots
        codes = [code_of_slot(s) for s in slots]
        now = rack_values(net, racks, n_cards, turns, prefix)
        if not self.plan or not unseen:
            usable = set(tries(rack, card, n_cards)[0]) | {-1}
            return ({c: float(v) for c, v in zip(codes, now)}, [c for c, s in zip(codes, slots) if s in usable],
                    f"the {card} in each slot" + ("" if must_place else " or discarded") + ": the rack's score after "
                    "the turn; it plays the best usable slot if that beats keeping the rack", self.plan)
        top = np.argsort(-now, kind="stable")[:self.width]
        if also in codes and codes.index(also) not in top:
            top = np.append(top, codes.index(also))
        later = deck_values(net, [racks[i] for i in top], n_cards, turns + 1, prefix, unseen)
        values = {codes[i]: float(v) for i, v in zip(top, later)}
        return (values, [c for c in codes if c in values],
                f"the {min(len(top), self.width)} ways to play the {card} that score best after the turn, each worth the rack after its "
                f"next deck draw (averaged over {over})", True)

    def _plans_draw(self, slots: int, unseen: int) -> bool:
        return bool(self.plan_draw) and 0 < unseen and unseen ** 2 * slots <= PLANNED_DRAW_BUDGET

    def decide(self, view: dict) -> int:
        values, choices, _note, _ahead = self._weigh(view)
        return max(choices, key=values.__getitem__)

    def explain(self, view: dict, legal_actions) -> Explanation:
        values, _choices, note, ahead = self._weigh(view)
        return Explanation(f"rack score after the turn{' and the next deck draw' if ahead else ''} "
                           "(Diablo's network; a Rack-O is 1)",
                           {a.id: values[a.code] for a in legal_actions if a.code in values}, note)

    def coach_values(self, view: dict, legal_actions, chosen: str | None) -> dict[str, float]:
        """The explanation's values, with the move ``chosen`` (an action id) weighed too."""
        also = next((a.code for a in legal_actions if a.id == chosen), None)
        values, _choices, _note, _ahead = self._weigh(view, also)
        return {a.id: values[a.code] for a in legal_actions if a.code in values}
