"""The Deep Monte-Carlo player's view of a Rack-O decision: one feature row per candidate action.

A turn is decided once, at the draw, over these candidates (a card taken from the
discard pile must be placed, so taking it and choosing its slot are one action):

- ``DECK``: draw from the deck (the rack stays as it is for now);
- ``TAKE`` k: take the discard top into slot k;

and, holding a card drawn from the deck, once more:

- ``KEEP``: discard the drawn card;
- ``PLACE`` k: put it into slot k.

Each row describes the rack the action leaves (the *afterstate*) and what the seat
knows: its own rack, the discard pile, the cards it saw other seats take from the pile
(``known``), the turns taken. Never a card it has not seen: ``Seen`` is built from a
table (training) or a view (serving) with exactly that information, and a test checks
that resampling the other seats' hidden cards leaves every row unchanged.

Row layout (r = rack size, N = highest card), all about 0..1:

  r   the afterstate's cards / N
  r   usable: slot i's card could stay in a winning rack (1 <= c - i <= N - r + 1)
  r   compatibility: how many usable slots could stay beside slot i's card, / r
  r-1 ascending: card i < card i + 1
  r   kept: slot i lies on a longest usable sequence
  r   outs: off those, the share of unseen cards that would fit slot i between its
      nearest kept neighbours (0 for a kept slot)
  3   longest usable sequence / r, ascending prefix / r, Rack-O
  1   the card the action puts on the discard pile / N (0: none yet, the deck draw)
  8   the cards it has not seen, by eighths of 1..N (count / (N / 8))
  r   the next seat's cards it saw taken (card / N, 0 unknown)
  2   its own turns and the next seat's, / 2r (capped at 2)
  4   the action's kind, one-hot (DECK, TAKE, KEEP, PLACE)
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from agents.racko.features import per_order
from engine.racko import FROM_DISCARD, FROM_NONE

DECK, TAKE, KEEP, PLACE = range(4)
BINS = 8


def feature_count(rack_size: int) -> int:
    return 7 * rack_size - 1 + 3 + 1 + BINS + 2 + 4


def outs(racks: np.ndarray, kept: np.ndarray, prefix: np.ndarray) -> np.ndarray:
    """For each slot off the kept sequences, the share of the unseen cards that would fit
    it between its nearest kept neighbours (with room for the slots between); 0 for a
    kept slot. ``prefix[v]``: unseen cards <= v."""
    n, r = racks.shape
    big = len(prefix) - 1
    idx = np.arange(r)
    last = np.maximum.accumulate(np.where(kept, idx, -1), axis=1)
    prev = np.concatenate([np.full((n, 1), -1), last[:, :-1]], axis=1)
    first = np.minimum.accumulate(np.where(kept, idx, r)[:, ::-1], axis=1)[:, ::-1]
    nxt = np.concatenate([first[:, 1:], np.full((n, 1), r)], axis=1)
    # the cards padded with 0 before slot 1 and big + 1 after slot r: a missing neighbour gives
    # lo = 1 + slot and hi = big - (r - 1 - slot)
    padded = np.empty((n, r + 2), np.int64)
    padded[:, 0] = 0
    padded[:, 1:-1] = racks
    padded[:, -1] = big + 1
    flat, base = padded.ravel(), (r + 2) * np.arange(n)[:, None]
    lo = flat.take(prev + 1 + base) + idx - prev
    hi = flat.take(nxt + 1 + base) - (nxt - idx)
    lo, hi = np.minimum(np.maximum(lo, 1), big + 1), np.minimum(np.maximum(hi, 0), big)  # as np.clip, cheaper
    count = np.where(hi >= lo, prefix[hi] - prefix[np.minimum(lo, big + 1) - 1], 0)
    return np.where(kept, 0.0, count / max(1, prefix[-1]))


_BY_ORDER: dict[tuple[int, bytes], np.ndarray] = {}
"""``chains`` of a rack by its order (``agents.racko.features.order_keys``): they depend on nothing else."""


def chains(racks: np.ndarray, big: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each rack (row of ``racks``): how many usable slots could stay beside each slot's card
    (compatibility, / r), whether each slot lies on a longest usable sequence, and that length.
    They depend only on which slots are usable and the order of their ``d`` values, so each such
    order is worked out once (``_chains``) and kept."""
    r = racks.shape[1]
    table = np.array(per_order(_BY_ORDER, racks, big, lambda rows: np.concatenate(_chains(rows, big), axis=1)))
    return table[:, :r], table[:, r:2 * r] > 0.5, table[:, 2 * r]


def _chains(racks: np.ndarray, big: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``chains`` worked out: (compatibility (n, r), kept (n, r) as 0/1, longest (n, 1))."""
    n, r = racks.shape
    d = racks - np.arange(r)
    usable = (d >= 1) & (d <= big - r + 1)
    below = np.tri(r, k=-1, dtype=bool)  # [j, i]: i < j
    fits = np.where(below, d[:, None, :] <= d[:, :, None], d[:, None, :] >= d[:, :, None])  # [rack, j, i]
    fits &= usable[:, None, :] & usable[:, :, None]
    compat = fits.sum(axis=2) / r
    weights = fits.astype(np.float64)
    use = usable.T.astype(np.float64)  # [slot, rack]
    ending = np.zeros((r, n))  # [j]: the longest usable sequence ending at slot j (as usable_sequence_length)
    starting = np.zeros((r, n))  # the same, starting at slot j
    ending[0], starting[r - 1] = use[0], use[r - 1]
    for j in range(1, r):
        ending[j] = ((ending[:j].T * weights[:, j, :j]).max(axis=1) + 1) * use[j]
        k = r - 1 - j
        starting[k] = ((starting[k + 1:].T * weights[:, k, k + 1:]).max(axis=1) + 1) * use[k]
    ending, starting = ending.T, starting.T
    longest = ending.max(axis=1)
    kept = usable & (ending + starting - 1 == longest[:, None])
    return compat, kept.astype(np.float64), longest[:, None]


class Seen(NamedTuple):
    """What one seat knows at its decision."""

    rack: tuple[int, ...]
    max_card: int
    discard_top: int  # the pile's top (before a draw) or 0
    drawn: int  # the card it holds drawn from the deck, else 0
    unseen: np.ndarray  # the cards it has not seen, by eighths (counts)
    unseen_prefix: np.ndarray  # [v]: cards <= v it has not seen
    next_known: tuple[int, ...]  # the next seat's slots it saw filled from the pile (0: unknown)
    turns: int
    next_turns: int


def _unseen(max_card: int, seen: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """The cards not seen by eighths of 1..max_card, and their prefix counts."""
    flags = np.ones(max_card + 1, bool)
    flags[0] = False
    flags[[c for c in seen if c]] = False
    cards = np.nonzero(flags)[0]
    return np.bincount(((cards - 1) * BINS) // max_card, minlength=BINS).astype(np.float64), np.cumsum(flags)


def seen_of_table(table, seat: int) -> Seen:
    """``Seen`` for ``seat`` on an ``engine.racko.Table`` (the seat to move when it decides)."""
    others = [c for q, known in enumerate(table.known) if q != seat for c in known if c]
    mine = table.to_move == seat and table.source != FROM_NONE
    holding = table.drawn if mine and table.source != FROM_DISCARD else 0
    nxt = (seat + 1) % table.players
    seen = list(table.racks[seat]) + list(table.discard) + others + ([table.drawn] if mine else [])
    return Seen(tuple(table.racks[seat]), table.rules.max_card, table.discard[-1] if table.discard else 0, holding,
                *_unseen(table.rules.max_card, seen), tuple(table.known[nxt]), table.turns[seat], table.turns[nxt])


def seen_of_view(view: dict) -> Seen:
    """``Seen`` from a seat's view (``Racko.observe``)."""
    seat, r = view["seat"], view["options"]["rack_size"]
    nxt = (seat + 1) % view["players"]
    others = [c for q, pairs in enumerate(view["known"]) if q != seat for _slot, c in pairs]
    drawn = view["drawn"] or 0
    seen = list(view["rack"]) + list(view["discard_pile"]) + others + [drawn]
    known = [0] * r
    for slot, c in view["known"][nxt]:
        known[slot - 1] = c
    return Seen(tuple(view["rack"]), view["options"]["max_card"], view["discard_top"] or 0,
                drawn if view["drawn_from"] == "deck" else 0, *_unseen(view["options"]["max_card"], seen),
                tuple(known), view["turns"][seat], view["turns"][nxt])


def candidates(seen: Seen) -> tuple[list[tuple[int, int]], np.ndarray]:
    """The actions (kind, slot) open to the seat and their feature rows (one per action):
    the draw's when it holds nothing (``seen.discard_top`` is the card it may take), else
    where to put ``seen.drawn``. A card taken from the pile is placed by the draw's
    choice, so it needs no decision of its own."""
    drawing = not seen.drawn
    card = seen.discard_top if drawing else seen.drawn
    rack = list(seen.rack)
    r = len(rack)
    if drawing:
        actions = [(DECK, -1)] + [(TAKE, k) for k in range(r)]
    else:
        actions = [(KEEP, -1)] + [(PLACE, k) for k in range(r)]
    racks = np.tile(np.asarray(rack, np.int64), (r + 1, 1))
    racks[np.arange(1, r + 1), np.arange(r)] = card
    out_cards = np.empty(r + 1)
    out_cards[0] = 0 if drawing else card
    out_cards[1:] = rack
    return actions, rows(seen, racks, out_cards, actions[0][0], actions[1][0])


def rows(seen: Seen, racks: np.ndarray, out_cards: np.ndarray, first_kind: int, other_kind: int) -> np.ndarray:
    """Feature rows for afterstate ``racks`` (row 0 the rack kept, row k + 1 with slot k
    replaced), the cards they put on the pile, and the two action kinds."""
    n, r = racks.shape
    big = seen.max_card
    d = racks - np.arange(r)
    usable = (d >= 1) & (d <= big - r + 1)
    compat, kept, longest = chains(racks, big)
    ascending = racks[:, 1:] > racks[:, :-1]
    prefix = 1 + np.cumprod(ascending, axis=1).sum(axis=1)
    x = np.empty((n, feature_count(r)))
    x[:, :r] = racks / big
    x[:, r:2 * r] = usable
    x[:, 2 * r:3 * r] = compat
    x[:, 3 * r:4 * r - 1] = ascending
    c = 4 * r - 1
    x[:, c:c + r] = kept
    x[:, c + r:c + 2 * r] = outs(racks, kept, seen.unseen_prefix)
    c += 2 * r
    x[:, c] = longest / r
    x[:, c + 1] = prefix / r
    x[:, c + 2] = prefix == r
    c += 3
    x[:, c] = out_cards / big
    c += 1
    x[:, c:c + BINS] = seen.unseen * (BINS / big)
    c += BINS
    x[:, c:c + r] = np.asarray(seen.next_known) / big
    c += r
    x[:, c] = min(2.0, seen.turns / (2 * r))
    x[:, c + 1] = min(2.0, seen.next_turns / (2 * r))
    c += 2
    x[:, c:] = 0.0
    x[0, c + first_kind] = 1.0
    x[1:, c + other_kind] = 1.0
    return x
