"""Diablo: the write-up's rack-scoring network learned by temporal difference.

A rack's score is the network's highest output over the rack's maximal usable
sequences (``agents.racko.features``). A card ``x`` is tried only in the slots
where it is usable (``1 <= x - i <= max_card - r + 1``, i 0-based); when none
is, every slot is tried.

- Draw: put the discard top in each slot it may go and score each rack; take it
  when ``best - 1 / (MARGIN * r) > current`` (MARGIN = 2.8169, the write-up's
  tuned margin), else draw from the deck.
- Place: a card from the deck goes to the best slot if that beats the current
  rack at all, else it is discarded; a card taken from the discard pile is
  always placed, in its best slot.

The functions here take plain data (rack, max_card, the player's turns, the
unseen-card prefix counts) so that the agent (reading its observation) and the
training loop (reading the engine's ``Table``) decide alike. Probabilities count
only the cards the player has seen (see ``features``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from agents.base import Explanation
from agents.racko.common import WriteupPlayer, code_of_slot
from agents.racko.features import expand, feature_matrix, unseen_prefix
from agents.racko.network import Network
from engine.racko import DRAW_DECK, DRAW_DISCARD, FROM_DISCARD

MARGIN = 2.8169


Group = tuple  # (racks, turns, prefix): the candidate racks of one decision


def score_groups(net, groups: list[Group], max_card: int) -> list[tuple[np.ndarray, list[np.ndarray]]]:
    """For each decision (its candidate racks, the player's turns and unseen-card prefix),
    each rack's score (the network's best output over its maximal usable sequences) and
    the feature row of that best sequence. One forward pass for all of them.

    Each rack's best sequence is found in Python: a served decision scores about 11 racks of
    a few sequences each, and a numpy call per rack cost more than the network."""
    parts = [expand(racks, max_card) for racks, _t, _prefix in groups]
    sizes = [len(rows) for rows, _m, _p, _s in parts]
    if len(parts) == 1:  # a served decision
        rows, masks, points, _starts = parts[0]
        feats = feature_matrix(rows, masks, max_card, np.full(sizes[0], groups[0][1]), groups[0][2][None, :],
                               np.zeros(sizes[0], np.int64), points)
    else:
        which = np.repeat(np.arange(len(groups)), sizes)
        rows, masks, points = (np.concatenate([part[k] for part in parts]) for k in range(3))
        feats = feature_matrix(rows, masks, max_card, np.array([t for _r, t, _p in groups])[which],
                               np.array([g[2] for g in groups]), which, points)
    out = net(feats).tolist()
    results, offset = [], 0
    for (_rows, _m, _p, starts), size in zip(parts, sizes):
        values, best = [], []
        for a, b in zip(starts, starts[1:] + [size]):
            k = offset + a if b - a == 1 else max(range(offset + a, offset + b), key=out.__getitem__)  # first best, as argmax
            values.append(out[k])
            best.append(feats[k])
        results.append((np.array(values), best))
        offset += size
    return results


def candidate_slots(card: int, r: int, max_card: int) -> list[int]:
    """0-based slots where ``card`` is usable (all slots when it is usable nowhere)."""
    top = max_card - r + 1
    slots = [i for i in range(r) if 1 <= card - i <= top]
    return slots or list(range(r))


@dataclass
class Choice:
    """A decision with what it was worth.

    ``slot``: 0-based slot to place in (None: draw from the deck / discard the card);
    ``current``: the rack's score as it is; ``slots``/``values``: the slots tried and
    their scores; ``value``/``row``: the score and feature row of the rack chosen
    (for ``draw`` it is the rack the discard would make, or the current rack)."""

    slot: int | None
    current: float
    slots: list[int]
    values: list[float]
    value: float
    row: np.ndarray  # the feature row of the rack chosen


def tries(rack: list[int], card: int, max_card: int, all_slots: bool = False) -> tuple[list[int], list[list[int]]]:
    """The slots ``card`` is tried in (every slot with ``all_slots``), and the racks: the
    current one first, then one per slot."""
    slots = list(range(len(rack))) if all_slots else candidate_slots(card, len(rack), max_card)
    racks = [rack]
    for i in slots:
        trial = rack[:]
        trial[i] = card
        racks.append(trial)
    return slots, racks


def pick(slots: list[int], values, rows: list, margin: float, must_place: bool = False) -> Choice:
    """The decision from the scores of ``tries`` (an array or a list): the best slot (the first
    of the best) if it beats the current rack by more than ``margin`` (or always, ``must_place``),
    else None (keep the rack)."""
    scores = values.tolist() if isinstance(values, np.ndarray) else list(values)
    current, tried = scores[0], scores[1:]
    best = max(tried)
    k = tried.index(best)
    if must_place or best - margin > current:
        return Choice(slots[k], current, slots, tried, best, rows[1 + k])
    return Choice(None, current, slots, tried, current, rows[0])


def choose(net, rack: list[int], card: int, max_card: int, turns: int, prefix: np.ndarray,
           margin: float, must_place: bool = False, all_slots: bool = False) -> Choice:
    """Where ``card`` would go (see ``pick``), for one player's decision."""
    slots, racks = tries(rack, card, max_card, all_slots)
    values, rows = score_groups(net, [(racks, turns, prefix)], max_card)[0]
    return pick(slots, values, rows, margin, must_place)


def draw_margin(r: int) -> float:
    return 1.0 / (MARGIN * r)


def seen_cards(rack: list[int], discard_pile: list[int], others_known, drawn: int | None = None) -> list[int]:
    """What a player has seen: its rack, the discard pile, the cards others took from it
    (and the card it holds)."""
    out = list(rack) + list(discard_pile) + [c for c in others_known if c]
    if drawn:
        out.append(drawn)
    return out


def view_seen(view: dict) -> list[int]:
    seat = view["seat"]
    others = [c for q, pairs in enumerate(view["known"]) if q != seat for _slot, c in pairs]
    return seen_cards(view["rack"], view["discard_pile"], others, view["drawn"])


def table_seen(table, seat: int) -> list[int]:
    others = [c for q, known in enumerate(table.known) if q != seat for c in known if c]
    return seen_cards(table.racks[seat], table.discard, others, table.drawn if table.to_move == seat else None)


def pick_net(nets, rack_size: int) -> Network:
    """The network trained at the rack size nearest ``rack_size`` (``nets``: a Network, or
    {rack size: Network}); the features are scaled by rack size, so it carries over."""
    if isinstance(nets, Network):
        return nets
    return nets[min(nets, key=lambda r: (abs(r - rack_size), -r))]


class Diablo(WriteupPlayer):
    """Diablo playing from its view (see the module docstring); ``nets``: a ``Network`` or
    {rack size trained at: Network}."""

    name = "diablo"

    def __init__(self, nets, forced_random: bool = True, margin: float = MARGIN):
        super().__init__(forced_random)
        self.nets = nets
        self.margin = margin
        self._last: tuple | None = None  # (what the last decision's scores depend on, those scores)

    def _scored(self, view: dict) -> tuple[np.ndarray, list]:
        """The scores of the rack and of the card (the discard top, or the card drawn) in each
        slot, with their feature rows; kept for the explanation of the same decision. They depend
        only on the rack, the card, the turns and the cards seen, so placing a card taken from the
        discard pile reuses the draw's scores (the same racks, and the same cards seen)."""
        n_cards, r = view["options"]["max_card"], view["options"]["rack_size"]
        card = view["discard_top"] if view["phase"] == "draw" else view["drawn"]
        seen = view_seen(view)
        key = (tuple(view["rack"]), card, n_cards, view["turns"][view["seat"]], frozenset(seen))
        if self._last is None or self._last[0] != key:
            _slots, racks = tries(view["rack"], card, n_cards, all_slots=True)
            scored = score_groups(pick_net(self.nets, r), [(racks, key[3], unseen_prefix(n_cards, seen))], n_cards)[0]
            self._last = (key, scored)
        return self._last[1]

    def _choice(self, view: dict, all_slots: bool = False) -> Choice:
        n_cards, r = view["options"]["max_card"], view["options"]["rack_size"]
        values, rows = self._scored(view)
        drawing = view["phase"] == "draw"
        slots = list(range(r)) if all_slots else candidate_slots(view["discard_top"] if drawing else view["drawn"], r, n_cards)
        kept = [0] + [1 + s for s in slots]
        scores = values.tolist()
        if drawing:
            return pick(slots, [scores[k] for k in kept], [rows[k] for k in kept], 1.0 / (self.margin * r))
        return pick(slots, [scores[k] for k in kept], [rows[k] for k in kept], 0.0, must_place=view["drawn_from"] == "discard")

    def decide(self, view: dict) -> int:
        c = self._choice(view)
        if view["phase"] == "draw":
            return DRAW_DECK if c.slot is None else DRAW_DISCARD
        return code_of_slot(-1 if c.slot is None else c.slot)

    def explain(self, view: dict, legal_actions) -> Explanation:
        c = self._choice(view, all_slots=True)
        scores = ", ".join(f"{s + 1}: {v:.3f}" for s, v in zip(c.slots, c.values))
        if view["phase"] == "draw":
            r = view["options"]["rack_size"]
            margin = 1.0 / (self.margin * r)
            values = {"draw:deck": c.current, "draw:discard": max(c.values) - margin}
            note = (f"rack now {c.current:.3f}; the discard {view['discard_top']} in each slot: {scores}; "
                    f"it takes the discard when the best beats the rack by {margin:.3f}")
        else:
            values = {f"place:{s + 1}": v for s, v in zip(c.slots, c.values)}
            if view["drawn_from"] != "discard":
                values["discard"] = c.current
            note = f"rack now {c.current:.3f}; {view['drawn']} in each slot: {scores}"
        if self.forced_now(view):
            note += "; this turn is its forced random move (every 2 · rack_size turns)"
        return Explanation("Diablo's rack score (its estimate of the final points / (5r + 25))",
                           {a.id: values[a.id] for a in legal_actions if a.id in values}, note)


class DiabloDecider:
    """Diablo on the arena's table (``agents.racko.arena``)."""

    def __init__(self, nets, forced_random: bool = True, margin: float = MARGIN):
        self.nets = nets
        self.forced_random = forced_random
        self.margin = margin

    def begin(self, table, seat: int) -> None:
        pass

    def draw(self, table, seat: int, rng) -> bool:
        n_cards = table.rules.max_card
        prefix = unseen_prefix(n_cards, table_seen(table, seat))
        return choose(pick_net(self.nets, table.size), table.racks[seat], table.discard[-1], n_cards, table.turns[seat], prefix,
                      1.0 / (self.margin * table.size)).slot is not None

    def place(self, table, seat: int, rng) -> int:
        n_cards = table.rules.max_card
        prefix = unseen_prefix(n_cards, table_seen(table, seat))
        c = choose(pick_net(self.nets, table.size), table.racks[seat], table.drawn, n_cards, table.turns[seat], prefix, 0.0,
                   must_place=table.source == FROM_DISCARD)
        return -1 if c.slot is None else c.slot
