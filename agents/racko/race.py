"""Lookahead valuing the race at the end of a deal: who goes Rack-O first (issue 25, session 18).

``lookahead-deep`` values a rack by Diablo2's score of it after the next deck draw. Near the end
the deal is a race, and a rack one card from Rack-O keeps most of that score whether or not it
finishes first. ``RaceLookahead`` plays as ``lookahead-deep`` until its rack (before the decision)
has a longest usable sequence of at least ``rack_size - near``; from there it values each way to play
by its chance of winning the race, from what the seat sees:

- **The opponent's hazard** ``h``: the chance Diablo2 goes Rack-O on its turn t when it has not yet,
  fitted from Diablo2 self-play (``docs/measurements/racko_hazard.py``, a seed no evaluation uses;
  ``agents/saved/racko/race-hazard.json``). ``by_slots``: also by how many distinct slots the
  opponent has filled so far (``placed`` in the view: public), its visible progress, kept fixed
  for its later turns. ``s_k``: the chance that no other seat goes out on its k-th next turn
  (their turns count from the view's ``turns``).
- **One card short**: ``win(R)`` counts the cards not seen (nor drawn in the line valued) that
  complete rack R in one placement (exact: some slot k whose removal leaves R ascending, any card
  strictly between its neighbours); ``p(R)`` is that count over the cards left to draw.
- **The tail** ``T_j(p)``: the chance of going out first when each of my next draws finishes with
  chance p and the other seats move first, from their j-th next turn:
  ``sum_m (s_j ... s_{j+m}) (1 - p)^m p`` (12 turns).
- **A rack R after my turn** (not a Rack-O) is worth ``A(R) = s_1 * mean over the cards c left of
  the best of keeping R (c discarded) and c in each slot``, each such rack R' worth 1 when it ascends
  and ``T_2(p(R'))`` otherwise: an exact expectimax over my next deck draw, then the tail. A rack
  more than two cards from Rack-O is worth 0 (it cannot be one card short after one draw).
- **Placing**: each slot (and discarding a deck card) is worth 1 for a Rack-O, else ``A`` of the
  rack it leaves. **Drawing**: the discard is worth its best slot so; the deck, the mean over the
  unseen cards c of the best of keeping the rack and c in each slot (each 1 or ``A``, with c gone).

It plays the action of highest race value, except that values within ``tol`` (0.01) of the best are
a tie, broken by ``lookahead-deep``'s own valuation (for a placement, the rack after the next deck
draw; for the draw, its planned draw), and when every value is under ``tol`` it plays as
``lookahead-deep``. Deck draws are the only draws of later turns (the discard then is not known).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from agents.racko.common import code_of_slot, usable_sequence_length
from agents.racko.diablo import pick_net, tries, view_seen
from agents.racko.features import unseen_prefix
from agents.racko.lookahead import Lookahead, deck_values
from agents.saved_files import saved_path
from engine.racko import DRAW_DECK, DRAW_DISCARD

TAIL = 12  # the other seats' next turns the race looks at
POOLED = 100  # a turn seen fewer times than this in the fit takes the hazard of it and every later turn
PRIOR = 20  # a (turn, slots filled) cell is shrunk toward its turn's hazard with this weight


@dataclass(frozen=True)
class Hazard:
    """The chance an opponent goes out on its turn t (1..), and by slots filled before it."""

    rack_size: int
    by_turn: tuple[float, ...]
    by_slots: tuple[tuple[float, ...], ...] | None = None

    def at(self, turn: int, slots: int) -> float:
        t = min(turn, len(self.by_turn) - 1)
        if self.by_slots is None:
            return self.by_turn[t]
        return self.by_slots[t][min(slots, len(self.by_slots[t]) - 1)]


def fitted_hazard(table: dict, by_slots: bool) -> Hazard:
    """The hazard of a fit written by ``racko_hazard.py``: won / reached per turn (a sparse turn
    pooled with every later one), and per slots filled shrunk toward it."""
    won, reached = table["won"], table["reached"]
    by_turn = [0.0] * len(won)
    for t in range(1, len(won)):
        w, n = (won[t], reached[t]) if reached[t] >= POOLED else (sum(won[t:]), sum(reached[t:]))
        by_turn[t] = w / n if n else 0.0
    cells = None
    if by_slots:
        cells = tuple(tuple((w + PRIOR * by_turn[t]) / (n + PRIOR) for w, n in zip(ws, ns))
                      for t, (ws, ns) in enumerate(zip(table["won_by_slots"], table["reached_by_slots"])))
    return Hazard(table["rack_size"], tuple(by_turn), cells)


@lru_cache(maxsize=None)
def shipped_hazard(by_slots: bool = False) -> Hazard:
    return fitted_hazard(json.loads(saved_path("racko", "race-hazard").read_text()), by_slots)


def survival(view: dict, hazard: Hazard, turns: int = TAIL) -> np.ndarray:
    """``s[k - 1]``: the chance no other seat goes out on its k-th next turn (k = 1..turns), given
    none has yet, from what the seat sees (the others' turns and the slots they filled)."""
    s = np.ones(turns)
    for q, t in enumerate(view["turns"]):
        if q != view["seat"]:
            filled = len({slot for slot in view["placed"][q] if slot})
            s *= 1.0 - np.array([hazard.at(t + k, filled) for k in range(1, turns + 1)])
    return s


def ascending(racks: np.ndarray) -> np.ndarray:
    return np.all(racks[..., 1:] > racks[..., :-1], axis=-1)


def completing(racks: np.ndarray, counts: np.ndarray, max_card: int, gone: np.ndarray, gone2: np.ndarray) -> np.ndarray:
    """For each rack (row; not ascending), how many cards counted in ``counts`` (``counts[x]``: how
    many are <= x) and not ``gone`` or ``gone2`` (per row; 0: none) complete it in one placement.
    A slot k qualifies when every descent of the rack touches it and its neighbours leave room;
    the cards strictly between them complete the rack there. The qualifying slots' ranges are
    disjoint (one descent at j: slots j and j + 1, below and above it; two, at j and j + 1: slot
    j + 1 alone), so the counts add."""
    m, r = racks.shape
    desc = (racks[:, 1:] <= racks[:, :-1]).astype(np.int64)
    zero = np.zeros((m, 1), np.int64)
    touching = np.concatenate([zero, desc], axis=1) + np.concatenate([desc, zero], axis=1)
    lo = np.concatenate([zero, racks[:, :-1]], axis=1)
    hi = np.concatenate([racks[:, 1:], np.full((m, 1), max_card + 1, np.int64)], axis=1)
    ok = (desc.sum(axis=1, keepdims=True) == touching) & (hi - lo >= 2)
    n = counts[np.maximum(hi - 1, lo)] - counts[lo]
    for g in (gone, gone2):
        n = n - ((g[:, None] > lo) & (g[:, None] < hi))
    return np.where(ok, n, 0).sum(axis=1)


def tail(p: np.ndarray, s: np.ndarray, start: int) -> np.ndarray:
    """``T``: the chance of going out first with a chance ``p`` a draw, the others moving first from
    their ``start``-th next turn (1-based) on."""
    run = np.cumprod(s[start - 1:])
    return p * np.polyval(run[::-1], 1.0 - p)


def after_turn(racks: np.ndarray, unseen: np.ndarray, counts: np.ndarray, max_card: int, s: np.ndarray,
               gone: np.ndarray) -> np.ndarray:
    """``A(R)`` for each rack (row, not ascending) after my turn; ``gone``: a card per row no longer
    to be drawn (the one drawn this turn, 0 for none; it must be among ``unseen``)."""
    n, r = racks.shape
    out = np.zeros(n)
    near = np.array([usable_sequence_length(row, max_card) >= r - 2 for row in racks.tolist()], bool)
    if not near.any():
        return out
    base, gone_near = racks[near], gone[near]
    k, u = len(base), len(unseen)
    lines = np.broadcast_to(base[:, None, None, :], (k, u, r + 1, r)).copy()
    idx = np.arange(r)
    lines[:, :, idx + 1, idx] = unseen[None, :, None]
    flat = lines.reshape(-1, r)
    drawn = np.broadcast_to(unseen[None, :, None], (k, u, r + 1))
    discarded = np.where(np.arange(r + 1)[None, None, :] == 0, drawn, 0).reshape(-1)  # kept: the card goes
    before = np.broadcast_to(gone_near[:, None, None], (k, u, r + 1)).reshape(-1)
    left = (u - (gone_near > 0) - 1).astype(float)  # cards left to draw after this one
    wins = completing(flat, counts, max_card, before, discarded).reshape(k, u, r + 1)
    p = np.where(left[:, None, None] > 0, wins / np.maximum(left, 1.0)[:, None, None], 0.0)
    value = np.where(ascending(lines), 1.0, tail(p, s, 2)).max(axis=2)
    drawable = unseen[None, :] != gone_near[:, None]
    out[near] = s[0] * (value * drawable).sum(axis=1) / drawable.sum(axis=1)
    return out


def race_values(racks: list[list[int]], unseen: list[int], max_card: int, s: np.ndarray,
                gone: list[int] | None = None) -> np.ndarray:
    """Each rack's race value after my turn: 1 for a Rack-O, else ``A``."""
    arr = np.array(racks, np.int64)
    done = ascending(arr)
    counts = np.concatenate([[0], np.cumsum(np.bincount(unseen, minlength=max_card + 2)[1:])])
    values = np.ones(len(racks))
    if (~done).any():
        g = np.array(gone if gone is not None else [0] * len(racks), np.int64)
        values[~done] = after_turn(arr[~done], np.array(unseen, np.int64), counts, max_card, s, g[~done])
    return values


def race_deck(rack: list[int], unseen: list[int], max_card: int, s: np.ndarray) -> float:
    """Drawing from the deck: the mean over the unseen cards c of the best of keeping the rack and c in
    each slot, each valued after my turn with c gone."""
    r = len(rack)
    racks, gone = [], []
    for c in unseen:
        racks += [rack] + [rack[:i] + [c] + rack[i + 1:] for i in range(r)]
        gone += [c] * (r + 1)
    values = race_values(racks, unseen, max_card, s, gone).reshape(len(unseen), r + 1)
    return float(values.max(axis=1).mean())


class RaceLookahead(Lookahead):
    """``lookahead-deep`` that values the race once its rack is ``near`` cards or fewer from a full
    usable sequence (module docstring); ``hazard``: the opponents' hazard (``Hazard``)."""

    def __init__(self, nets, hazard: Hazard, near: int = 2, tol: float = 0.01, name: str = "deep-race"):
        super().__init__(nets, plan=True, plan_draw=1)
        self.name = name
        self.hazard = hazard
        self.near = near
        self.tol = tol

    def _racing(self, view: dict, unseen: list[int]) -> bool:
        rack, n_cards = view["rack"], view["options"]["max_card"]
        return (len(rack) == self.hazard.rack_size and len(unseen) >= 3
                and usable_sequence_length(rack, n_cards) >= len(rack) - self.near)

    def _weigh_now(self, view: dict, also: int | None) -> tuple[dict[int, float], list[int], str]:
        n_cards, rack = view["options"]["max_card"], view["rack"]
        seen = set(view_seen(view))
        unseen = [c for c in range(1, n_cards + 1) if c not in seen]
        if not self._racing(view, unseen):
            return super()._weigh_now(view, also)
        s = survival(view, self.hazard)
        if view["phase"] == "draw":
            slots, racks = tries(rack, view["discard_top"], n_cards, all_slots=True)
            take = race_values(racks[1:], unseen, n_cards, s)
            k = int(np.argmax(take))
            deck = race_deck(rack, unseen, n_cards, s)
            values = {DRAW_DECK: deck, DRAW_DISCARD: float(take[k])}
            note = (f"racing (its rack {len(rack) - usable_sequence_length(rack, n_cards)} card(s) from a full usable "
                    f"sequence): each the chance of going Rack-O before the others, over its next deck draw and then "
                    f"a constant chance a draw, against their fitted chance of going out at each turn: the discard "
                    f"{view['discard_top']} in its best slot {slots[k] + 1}: {take[k]:.3f}; a deck card: {deck:.3f}")
            if max(values.values()) < self.tol or abs(deck - take[k]) <= self.tol:
                deep, choices, _ = super()._weigh_now(view, also)
                pick = max(choices, key=deep.__getitem__)
                return values, [pick], note + "; within 0.01 of each other: the deep search's choice"
            return values, [max(values, key=values.__getitem__)], note
        card, must_place = view["drawn"], view["drawn_from"] == "discard"
        slots, racks = tries(rack, card, n_cards, all_slots=True)
        if must_place:
            racks = racks[1:]
        else:
            slots = [-1] + slots
        codes = [code_of_slot(sl) for sl in slots]
        race = race_values(racks, unseen, n_cards, s)
        values = {c: float(v) for c, v in zip(codes, race)}
        note = (f"racing: the {card} in each slot" + ("" if must_place else " or discarded") + ": the chance of going "
                "Rack-O before the others, over its next deck draw and then a constant chance a draw, against their "
                "fitted chance of going out at each turn")
        best = float(race.max())
        if best < self.tol:
            return super()._weigh_now(view, also)
        near = [i for i, v in enumerate(race) if v >= best - self.tol]
        if len(near) > 1:
            net = pick_net(self.nets, len(rack))
            later = deck_values(net, [racks[i] for i in near], n_cards, view["turns"][view["seat"]] + 1,
                                unseen_prefix(n_cards, sorted(seen)), unseen)
            return values, [codes[near[int(np.argmax(later))]]], note + "; those within 0.01 of the best by the deep search"
        return values, [codes[near[0]]], note
