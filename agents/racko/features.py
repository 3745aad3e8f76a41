"""Diablo's view of a rack: maximal usable sequences and the 17 features of each.

Conventions: a rack is a list of ints, index 0 = slot 1 (the front, lowest); cards
run 1..``max_card``; ``r`` = rack size. Slot ``i`` (0-based) of a winning rack needs
a card in ``[i + 1, max_card - (r - 1 - i)]``, and two kept cards in slots i < j
need ``c_j - c_i >= j - i`` (room for the slots between). Writing ``d_i = c_i - i``
both read: slot i is *usable* when ``1 <= d_i <= max_card - r + 1``, and usable
slots i < j may both stay when ``d_i <= d_j``. So a **usable sequence** is a
non-decreasing run of ``d`` over usable slots (in slot order), and the
**maximal** ones (not a subset of another) are the maximal chains of that order:
the paths of its cover graph from a minimal to a maximal slot
(``maximal_sequences``). A rack with no usable slot has one, empty, sequence.

Probabilities use only what the player has seen (the write-up's version, not the
public code's oracle): the *unseen* cards are all cards less its own rack, the
discard pile, the card it holds and the cards it saw others take from the discard
pile. ``unseen_prefix(max_card, seen)`` gives ``prefix[v]`` = unseen cards <= v.

The 17 features of a sequence (``feature_matrix``, all sequences at once), each about 0..1:

  0 turns       min(turns, 2r) / r (the player's turns so far)
  1 points      the rack's points now / (5r + 25)
  2 length      cards in the sequence / r
  3 rack error  sum over kept cards |t_i - c_i| / (r (N - r)), t_i = i (N - 1) / r + 1
  4 clump error the same at each clump's centre (mean slot, mean card), times its size
  5 fill product  product over holes of P(a deck card fits the hole)
  6 fill mean     mean of those probabilities (1 with no hole)
  7 adjacent density   sum over clumps of size * (m - 1) / (last - first) / r; 1 per lone card
  8 adjacent density penalised: the same with 0 for a lone card
  9 centre density     sum over clumps of size / (1 + mean |d_j - mean d|) / r
 10-16 features 3-9 again with each slot (or clump centre) weighted w_i = 1 - i / r,
       so that a partial rack scores from slot 1 up; the skewed fill product is
       the product of (1 - w_h (1 - p_h)).

A clump is a run of kept cards in adjacent slots; a hole is a slot not kept. A
hole's card must lie strictly between its kept neighbours with room for the
other holes between them: ``[c_prev + (h - prev), c_next - (next - h)]``.
"""
from __future__ import annotations

import threading
from functools import lru_cache
from itertools import accumulate
from typing import Callable, Iterable

import numpy as np

FEATURES = 17
NAMES = ("turns", "points", "length", "rack error", "clump error", "fill product", "fill mean",
         "adjacent density", "adjacent density penalised", "centre density",
         "skewed rack error", "skewed clump error", "skewed fill product", "skewed fill mean",
         "skewed adjacent density", "skewed adjacent density penalised", "skewed centre density")


def points(rack: list[int]) -> int:
    """The rack's points by the scoring rule, as if the deal ended now (no bonus)."""
    r = len(rack)
    for i in range(1, r):
        if rack[i] < rack[i - 1]:
            return 5 * i
    return 5 * r + 25


def rack_points_scale(r: int) -> float:
    return 5.0 * r + 25.0


def sequence_masks(rack, max_card: int) -> tuple[int, ...]:
    """The maximal usable sequences of ``rack`` as bit masks (bit i = slot i kept; 0 when no
    slot is usable)."""
    return masks_of(np.asarray([rack], np.int64), max_card)[0]


_BY_ORDER: dict[tuple[int, bytes], tuple[int, ...]] = {}
"""Maximal sequences by the order they depend on (``order_keys``): racks that differ only in
cards that keep every comparison share them (a search tries one slot with many cards)."""


_KEY_BITS: dict[int, np.ndarray] = {}
"""For each rack size r, where ``order_keys``'s bits sit in a rack's (r, r) comparisons: the
diagonal (slot i usable), then the pairs i < j in ``np.triu_indices`` order."""


def order_keys(racks: np.ndarray, max_card: int) -> list[bytes]:
    """All that a rack's maximal usable sequences depend on, as bytes, for each row of ``racks``
    ((n, r) ints): which slots are usable and, for each pair of usable slots i < j, whether
    ``d_i <= d_j``."""
    n_racks, r = racks.shape
    bits = _KEY_BITS.get(r)
    if bits is None:
        i, j = np.triu_indices(r, 1)
        bits = _KEY_BITS[r] = np.concatenate([np.arange(r) * (r + 1), i * r + j])
    d = racks - np.arange(r)
    usable = (d >= 1) & (d <= max_card - r + 1)
    pairs = (d[:, :, None] <= d[:, None, :]) & usable[:, :, None] & usable[:, None, :]  # [rack, i, j]
    packed = np.packbits(pairs.reshape(n_racks, r * r).take(bits, axis=1), axis=1)
    data, width = packed.tobytes(), packed.shape[1]
    return [data[k:k + width] for k in range(0, n_racks * width, width)]


ORDER_CACHE = 200_000
"""The most orders a cache of ``per_order`` holds before it is emptied."""


def per_order(cache: dict, racks: np.ndarray, max_card: int, work_out: Callable[[np.ndarray], Iterable]) -> list:
    """For each row of ``racks`` ((n, r) ints), what depends only on its order (``order_keys``):
    from ``cache``, or ``work_out(rows)`` (one value per row) for the first rack of each order not
    in it."""
    r = racks.shape[1]
    keys = order_keys(racks, max_card)
    found = [cache.get((r, key)) for key in keys]
    first: dict[bytes, int] = {}
    for k, value in enumerate(found):
        if value is None:
            first.setdefault(keys[k], k)
    if first:
        if len(cache) >= ORDER_CACHE:
            cache.clear()
        for key, value in zip(first, work_out(racks[list(first.values())])):
            cache[(r, key)] = value
        found = [cache[(r, key)] if value is None else value for key, value in zip(keys, found)]
    return found


def masks_of(racks: np.ndarray, max_card: int) -> list[tuple[int, ...]]:
    """``sequence_masks`` of each row of ``racks`` ((n, r) ints), each order worked out once."""
    return per_order(_BY_ORDER, racks, max_card, lambda rows: [_chains(row.tolist(), max_card) for row in rows])


def _chains(rack: list[int], max_card: int) -> tuple[int, ...]:
    """The maximal usable sequences of one rack, worked out (see the module docstring)."""
    r = len(rack)
    top = max_card - r + 1
    d = [c - i for i, c in enumerate(rack)]
    usable = [i for i in range(r) if 1 <= d[i] <= top]
    if not usable:
        return (0,)
    # paths of the cover graph, built from the back: chains[i] = maximal chains starting at i
    chains: dict[int, list[int]] = {}
    for k in range(len(usable) - 1, -1, -1):
        i = usable[k]
        di, bit = d[i], 1 << i
        bound = None
        mine: list[int] = []
        for j in usable[k + 1:]:
            dj = d[j]
            if dj >= di and (bound is None or dj < bound):
                bound = dj
                mine.extend(bit | m for m in chains[j])
        chains[i] = mine or [bit]
    out: list[int] = []
    lowest = None  # minimal slots: no usable slot before them with d at most theirs
    for i in usable:
        if lowest is None or d[i] < lowest:
            out.extend(chains[i])
            lowest = d[i]
    return tuple(out)


def maximal_sequences(rack: list[int], max_card: int) -> list[list[int]]:
    """The maximal usable sequences of ``rack`` as lists of 0-based slots (``[[]]`` if none)."""
    return [[i for i in range(len(rack)) if m >> i & 1] for m in sequence_masks(rack, max_card)]


def unseen_prefix(max_card: int, seen) -> np.ndarray:
    """``prefix[v]`` = number of cards 1..v the player has not seen (``prefix[0]`` = 0)."""
    unseen = np.ones(max_card + 1, np.int64)
    unseen[0] = 0
    unseen[list(seen)] = 0
    return np.cumsum(unseen)


class _Layout:
    """What ``feature_matrix`` needs of a sequence's mask for one rack size ``r`` and highest card
    ``n`` (its clumps, its holes' kept neighbours, the weights of its slots), worked out once per
    mask as it is first met and kept as a row of two tables, so that a call costs a few dozen numpy
    operations on all its sequences at once, whatever their clumps and holes (until session 17 it
    was about a hundred, most of them on the clumps). Floats here are computed by the same
    operations as the labelled way's (``_features_by_label``), so the rows are the same bit for bit
    (a test checks it).

    Two tables, a row per mask: what is per slot, and what is per clump (at most ``clumps``
    clumps of at most r cards each, padded; the card indices are stored as floats, exactly)."""

    GROW = 64

    def __init__(self, r: int, n: int):
        self.r, self.n = r, n
        self.slope = (n - 1) / r
        self.err_scale = float(r * max(1, n - r))
        slot = np.arange(r)
        self.target = slot * self.slope + 1.0  # t_i
        self.skew = 1.0 - slot / r  # w_i
        self.bits = (1 << slot).astype(np.int64)
        self.clumps = c = (r + 1) // 2
        self.by_divisor = np.array([self.err_scale, r, r, r], np.float64)[:, None]
        self.row_of = np.full(1 << r, -1, np.int32)  # a mask's row in the tables (-1: not yet); 4 MB at r = 20
        self.count = 0
        self.lock = threading.Lock()  # rows are added under it (a server may decide in threads)
        # per slot: floats, then ints (indices into the cards padded [0, c_1, ..., c_r, n + 1])
        self.LENGTH, self.WEIGHTS, self.KEPT, self.SKEW_HOLES = 0, slice(1, 1 + 4 * r), slice(1, 1 + r), slice(1 + 3 * r, 1 + 4 * r)
        self.DIVISOR, self.ADD = slice(1 + 4 * r, 5 + 4 * r), slice(5 + 4 * r, 9 + 4 * r)
        self.slot_floats = np.zeros((0, 9 + 4 * r))
        # the cards to pick: the holes' bounds (hi, then lo - 1), clump k's j-th card at [j, k], the
        # clumps' last cards; and the bounds' offsets
        at = 2 * r + r * c + c
        self.PICKS, self.BOUND_OFFSET = slice(0, at), slice(at, at + 2 * r)
        self.slot_ints = np.zeros((0, at + 2 * r), np.int64)
        # per clump
        (self.SIZE, self.SIZE1, self.CENTRE_TARGET, self.CENTRE_SKEW, self.LONE, self.DENS_NUM,
         self.SLOT_SUM) = (slice(k * c, (k + 1) * c) for k in range(7))
        at = 7 * c
        self.MEMBER_SLOT, self.MEMBER_VALID = slice(at, at + r * c), slice(at + r * c, at + 2 * r * c)
        self.per_clump = np.zeros((0, at + 2 * r * c))

    def rows(self, masks: np.ndarray) -> np.ndarray | None:
        """The table row of each mask ((M, r) bools), working out the masks not met before; None
        when the tables are full (``LAYOUT_MASKS``) and a mask is not in them."""
        codes = masks @ self.bits
        index = self.row_of[codes]
        if index.min() < 0:
            with self.lock:
                new = [code for code in set(codes[index < 0].tolist()) if self.row_of[code] < 0]
                if self.count + len(new) > LAYOUT_MASKS:
                    return None
                for code in new:
                    self._add(code)
            index = self.row_of[codes]
        return index

    def _add(self, code: int) -> None:
        if self.count == len(self.slot_floats):
            more = max(self.GROW, self.count) + self.count
            self.slot_floats = np.resize(self.slot_floats, (more, self.slot_floats.shape[1]))
            self.slot_ints = np.resize(self.slot_ints, (more, self.slot_ints.shape[1]))
            self.per_clump = np.resize(self.per_clump, (more, self.per_clump.shape[1]))
        k = self.count
        self.slot_floats[k], self.slot_ints[k], self.per_clump[k] = self._worked_out(code)
        self.row_of[code] = k
        self.count += 1

    def _worked_out(self, code: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        r, c = self.r, self.clumps
        kept = np.array([code >> i & 1 for i in range(r)], np.float64)
        slots = [i for i in range(r) if code >> i & 1]
        holes = r - len(slots)
        slot_floats = np.zeros(9 + 4 * r)
        slot_floats[self.LENGTH] = len(slots) / r
        slot_floats[self.WEIGHTS] = np.concatenate([kept, kept * self.skew, np.ones(r), (1.0 - kept) * self.skew])
        slot_floats[self.DIVISOR] = [self.err_scale, self.err_scale, max(holes, 1), max(holes, 1)]
        slot_floats[self.ADD] = [0.0, 0.0, float(holes == 0), float(holes == 0)]
        # a hole's values run from lo = c_prev + (h - prev) to hi = c_next - (next - h), with c_prev = 0
        # and c_next = n + 1 where there is no kept neighbour; a kept slot gets hi = lo - 1 (none)
        index, offset = np.zeros(2 * r, np.int64), np.zeros(2 * r, np.int64)
        for h in range(r):
            if code >> h & 1:
                index[h] = index[r + h] = h + 1
                continue
            prev = max([i for i in slots if i < h], default=-1)
            nxt = min([i for i in slots if i > h], default=r)
            index[h], offset[h] = nxt + 1, -(nxt - h)  # hi
            index[r + h], offset[r + h] = prev + 1, h - prev - 1  # lo - 1
        runs: list[list[int]] = []
        for i in slots:
            if runs and runs[-1][-1] == i - 1:
                runs[-1].append(i)
            else:
                runs.append([i])
        per_clump = np.zeros((7, c))  # size, size or 1, t at the centre, w at the centre, lone, m (m - 1), slots
        per_clump[1] = 1.0
        member_slot, member_valid = np.zeros((r, c)), np.zeros((r, c))  # [j, k]: clump k's j-th card
        member, last = np.zeros((r, c), np.int64), np.zeros(c, np.int64)
        for k, run in enumerate(runs):
            m = len(run)
            centre = np.float64(sum(run)) / np.float64(m)
            per_clump[:, k] = [m, m, centre * self.slope + 1.0, 1.0 - centre / r, m == 1, m * (m - 1), sum(run)]
            member_slot[:m, k], member_valid[:m, k], member[:m, k] = run, 1.0, [i + 1 for i in run]
            last[k] = run[-1] + 1
        return (slot_floats, np.concatenate([index[:r], index[r:], member.ravel(), last, offset]),
                np.concatenate([per_clump.ravel(), member_slot.ravel(), member_valid.ravel()]))


def _features_by_label(racks: np.ndarray, masks: np.ndarray, max_card: int, turns: np.ndarray,
                   prefix: np.ndarray, which: np.ndarray, rack_points: np.ndarray) -> np.ndarray:
    """``feature_matrix`` for a large batch (a search's, or training's): per-clump sums by
    ``np.bincount`` over labelled cards and ``np.add.at``, in reading order. About a hundred numpy
    calls whatever the batch, each on about r numbers a row."""
    m_rows, r = racks.shape
    n = max_card
    unseen = np.maximum(prefix[which, n], 1).astype(np.float64)[:, None]
    err_scale = float(r * max(1, n - r))
    slope = (n - 1) / r
    slot = np.arange(r)
    skew = 1.0 - slot / r
    kept = masks
    cards = racks.astype(np.float64)
    out = np.empty((m_rows, FEATURES))
    out[:, 0] = np.minimum(turns, 2 * r) / r
    out[:, 1] = rack_points / rack_points_scale(r)
    out[:, 2] = kept.sum(axis=1) / r
    err = np.abs(slot * slope + 1.0 - cards) * kept
    out[:, 3] = err.sum(axis=1) / err_scale
    out[:, 10] = (err * skew).sum(axis=1) / err_scale
    # clumps: runs of kept slots, labelled in reading order
    before = np.zeros_like(kept)
    before[:, 1:] = kept[:, :-1]
    after = np.zeros_like(kept)
    after[:, :-1] = kept[:, 1:]
    starts = kept & ~before
    flat_kept = kept.ravel()
    label = (np.cumsum(starts.ravel()) - 1)[flat_kept]
    clumps = int(starts.sum())
    if clumps:
        size = np.bincount(label, minlength=clumps).astype(np.float64)
        slots_k = np.broadcast_to(slot, kept.shape).ravel()[flat_kept]
        cards_k = cards.ravel()[flat_kept]
        row = np.nonzero(starts)[0]
        first = cards[starts]
        last = cards[kept & ~after]
        centre_slot = np.bincount(label, slots_k, clumps) / size
        centre_card = np.bincount(label, cards_k, clumps) / size
        w = 1.0 - centre_slot / r
        cerr = size * np.abs(centre_slot * slope + 1.0 - centre_card)
        span = np.maximum(last - first, 1.0)
        dens = np.where(size > 1, size * (size - 1) / span, 0.0)
        lone = (size == 1).astype(np.float64)
        d = cards_k - slots_k
        mean_d = np.bincount(label, d, clumps) / size
        spread = np.bincount(label, np.abs(d - mean_d[label]), clumps) / size
        cen = size / (1.0 + spread)
        adj = dens + lone
        per_clump = np.stack([cerr / err_scale, adj / r, dens / r, cen / r]).T
        sums = np.zeros((m_rows, 8))
        np.add.at(sums, row, np.hstack([per_clump, per_clump * w[:, None]]))
        out[:, [4, 7, 8, 9, 11, 14, 15, 16]] = sums
    else:
        out[:, [4, 7, 8, 9, 11, 14, 15, 16]] = 0.0
    # holes: the values that fit between the kept neighbours
    hole = ~kept
    prev_slot = np.maximum.accumulate(np.where(kept, slot, -1), axis=1)
    next_slot = np.minimum.accumulate(np.where(kept, slot, r)[:, ::-1], axis=1)[:, ::-1]
    padded = np.empty((m_rows, r + 2), np.int64)
    padded[:, 0] = 0
    padded[:, 1:-1] = racks
    padded[:, -1] = n + 1
    ridx = np.arange(m_rows)[:, None]
    lo = padded[ridx, prev_slot + 1] + (slot - prev_slot)  # 1 <= lo, hi <= n (see the docstring)
    hi = padded[ridx, next_slot + 1] - (next_slot - slot)
    rows_p = prefix[which][ridx, np.concatenate([hi, lo - 1], axis=1)]
    p = np.where(hole & (hi >= lo), (rows_p[:, :r] - rows_p[:, r:]) / unseen, 0.0)
    holes = hole.sum(axis=1)
    out[:, 5] = np.where(hole, p, 1.0).prod(axis=1)
    out[:, 12] = np.where(hole, 1.0 - skew * (1.0 - p), 1.0).prod(axis=1)
    safe = np.maximum(holes, 1)
    out[:, 6] = np.where(holes > 0, (p * hole).sum(axis=1) / safe, 1.0)
    out[:, 13] = np.where(holes > 0, (p * skew * hole).sum(axis=1) / safe, 1.0)
    return out


@lru_cache(maxsize=8)
def _layout(r: int, n: int) -> _Layout:
    """The ``_Layout`` of a rack size and highest card. Eight are kept, the last used: a match may
    choose any of some 7,000 pairs, and a layout of 20 slots holds a 4 MB index before any mask."""
    return _Layout(r, n)


LAYOUT_MASKS = 16_384
"""The most masks a ``_Layout`` keeps (about 7 KB each at 20 slots). A rack of r slots has at most
2^r masks: every one at 10 slots, a bounded share at 20, where a server that met each new mask
for good would grow for as long as people play. Rows of a mask met past the bound are worked out
the labelled way (the same rows)."""
SMALL_BATCH = 150
"""The most rows ``feature_matrix`` works out from ``_Layout``'s tables."""
_ORDER = np.argsort([0, 1, 2, 3, 10, 6, 13, 5, 12, 4, 7, 8, 9, 11, 14, 15, 16])
"""The features in the order ``feature_matrix`` works them out (``_ORDER`` puts them back)."""


def feature_matrix(racks: np.ndarray, masks: np.ndarray, max_card: int, turns: np.ndarray,
                   prefix: np.ndarray, which: np.ndarray, rack_points: np.ndarray) -> np.ndarray:
    """The 17 features (see the module docstring) of M sequences at once, from several
    players' decisions (a training loop batches many deals).

    ``racks``: (M, r) ints, the rack each sequence belongs to; ``masks``: (M, r) bools,
    the slots the sequence keeps; ``turns``: (M,) the deciding player's turns so far;
    ``prefix``: (T, max_card + 1) unseen counts (``unseen_prefix``) of T deciding
    players, ``which``: (M,) the row of ``prefix`` for each sequence; ``rack_points``:
    (M,) the rack's points now. Returns (M, 17) floats.

    Two ways, the same rows bit for bit (a row does not depend on the rest of the batch: the
    sums over slots are numpy's sums of each row, and the sums over a clump's cards and over
    clumps run in reading order): up to ``SMALL_BATCH`` rows (a served decision: about 11 racks,
    40-70 rows), what depends on the mask alone is read from ``_Layout``'s tables, a few dozen
    numpy calls; a larger batch is worked out by labelling clumps (``_features_by_label``), whose
    calls are more but each on fewer numbers a row."""
    m_rows, r = racks.shape
    if m_rows > SMALL_BATCH:
        return _features_by_label(racks, masks, max_card, turns, prefix, which, rack_points)
    n = max_card
    lay = _layout(r, n)
    index = lay.rows(masks)
    if index is None:
        return _features_by_label(racks, masks, max_card, turns, prefix, which, rack_points)
    slot_floats, slot_ints = lay.slot_floats.take(index, 0), lay.slot_ints.take(index, 0)
    found = np.empty((m_rows, FEATURES))  # in the order of _ORDER
    found[:, 0] = np.minimum(turns, 2 * r) / r
    found[:, 1] = rack_points / rack_points_scale(r)
    found[:, 2] = slot_floats[:, lay.LENGTH]
    # the cards each sequence needs, from its rack padded [0, c_1, ..., c_r, n + 1]
    padded = np.empty((m_rows, r + 2), np.int64)
    padded[:, 0] = 0
    padded[:, 1:-1] = racks
    padded[:, -1] = n + 1
    picked = padded.ravel().take(slot_ints[:, lay.PICKS] + (r + 2) * np.arange(m_rows)[:, None])
    # holes: p = the share of the unseen cards that fit (0 for a kept slot)
    bounds = picked[:, :2 * r] + slot_ints[:, lay.BOUND_OFFSET]  # hi, then lo - 1
    if len(prefix) == 1:  # one player's decision
        counts = prefix[0].take(bounds)  # unseen cards <= hi, then <= lo - 1
        unseen = float(max(prefix[0, n], 1))
        p = np.maximum(counts[:, :r] - counts[:, r:], 0) / unseen
    else:
        counts = prefix.ravel().take(bounds + (n + 1) * which[:, None])
        p = np.maximum(counts[:, :r] - counts[:, r:], 0) / np.maximum(prefix[which, n], 1).astype(np.float64)[:, None]
    # sums over slots: the rack errors (3, 10) and the fill means (6, 13)
    error = np.abs(lay.target - racks)
    per_slot = np.concatenate([error, error, p, p], axis=1).reshape(m_rows, 4, r)
    sums = (per_slot * slot_floats[:, lay.WEIGHTS].reshape(m_rows, 4, r)).sum(axis=2)
    found[:, 3:7] = sums / slot_floats[:, lay.DIVISOR] + slot_floats[:, lay.ADD]
    # products over holes: the fill products (5, 12), with a kept slot's factor 1
    factors = np.concatenate([p + slot_floats[:, lay.KEPT], 1.0 - slot_floats[:, lay.SKEW_HOLES] * (1.0 - p)], axis=1)
    found[:, 7:9] = factors.reshape(m_rows, 2, r).prod(axis=2)
    # clumps (4, 7, 8, 9, 11, 14, 15, 16): clump k of every sequence side by side, its cards [j, k]
    c = lay.clumps
    clump = lay.per_clump.take(index, 0).T.copy()  # a row per quantity
    cards = np.ascontiguousarray(picked[:, 2 * r:].T, np.float64)
    member, last = cards[:r * c].reshape(r, c, m_rows), cards[r * c:]
    size, size1 = clump[lay.SIZE], clump[lay.SIZE1]
    total = member.sum(axis=0)
    mean_d = (total - clump[lay.SLOT_SUM]) / size1
    deviation = np.abs(member - clump[lay.MEMBER_SLOT].reshape(r, c, m_rows) - mean_d)
    spread = (deviation * clump[lay.MEMBER_VALID].reshape(r, c, m_rows)).sum(axis=0) / size1
    per_clump = np.empty((c, 8, m_rows))
    np.multiply(size, np.abs(clump[lay.CENTRE_TARGET] - total / size1), out=per_clump[:, 0])  # size * |t - c| at the centre
    dens = np.divide(clump[lay.DENS_NUM], np.maximum(last - member[0], 1.0), out=per_clump[:, 2])
    np.add(dens, clump[lay.LONE], out=per_clump[:, 1])
    np.divide(size, 1.0 + spread, out=per_clump[:, 3])
    per_clump[:, :4] /= lay.by_divisor
    np.multiply(per_clump[:, :4], clump[lay.CENTRE_SKEW][:, None], out=per_clump[:, 4:])
    found[:, 9:] = per_clump.sum(axis=0).T
    return found.take(_ORDER, 1)


def expand(racks, max_card: int):
    """Every maximal sequence of every rack (``racks``: a list of racks or an (n, r) array):
    (rack rows (M, r), masks (M, r), points (M,), the index of each rack's first row)."""
    arr = np.asarray(racks, np.int64)
    r = arr.shape[1]
    masks = masks_of(arr, max_card)
    counts = [len(ms) for ms in masks]
    flat = np.array([m for ms in masks for m in ms], np.int64)
    falls = arr[:, 1:] < arr[:, :-1]
    pts = np.where(falls.any(axis=1), 5.0 * (falls.argmax(axis=1) + 1), rack_points_scale(r))
    return (np.repeat(arr, counts, axis=0), (flat[:, None] >> np.arange(r)) & 1 != 0,
            np.repeat(pts, counts), list(accumulate(counts[:-1], initial=0)))
