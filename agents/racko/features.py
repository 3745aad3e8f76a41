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


def order_keys(racks: np.ndarray, max_card: int) -> list[bytes]:
    """All that a rack's maximal usable sequences depend on, as bytes, for each row of ``racks``
    ((n, r) ints): which slots are usable and, for each pair of usable slots i < j, whether
    ``d_i <= d_j``."""
    r = racks.shape[1]
    d = racks - np.arange(r)
    usable = (d >= 1) & (d <= max_card - r + 1)
    i, j = np.triu_indices(r, 1)
    ordered = usable[:, i] & usable[:, j] & (d[:, i] <= d[:, j])
    packed = np.packbits(np.concatenate([usable, ordered], axis=1), axis=1)
    return [row.tobytes() for row in packed]


def masks_of(racks: np.ndarray, max_card: int) -> list[tuple[int, ...]]:
    """``sequence_masks`` of each row of ``racks`` ((n, r) ints), each order worked out once."""
    r = racks.shape[1]
    out = []
    for k, key in enumerate(order_keys(racks, max_card)):
        masks = _BY_ORDER.get((r, key))
        if masks is None:
            if len(_BY_ORDER) >= 200_000:
                _BY_ORDER.clear()
            masks = _BY_ORDER[(r, key)] = _chains(racks[k].tolist(), max_card)
        out.append(masks)
    return out


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


def feature_matrix(racks: np.ndarray, masks: np.ndarray, max_card: int, turns: np.ndarray,
                   prefix: np.ndarray, which: np.ndarray, rack_points: np.ndarray) -> np.ndarray:
    """The 17 features (see the module docstring) of M sequences at once, from several
    players' decisions (a training loop batches many deals).

    ``racks``: (M, r) ints, the rack each sequence belongs to; ``masks``: (M, r) bools,
    the slots the sequence keeps; ``turns``: (M,) the deciding player's turns so far;
    ``prefix``: (T, max_card + 1) unseen counts (``unseen_prefix``) of T deciding
    players, ``which``: (M,) the row of ``prefix`` for each sequence; ``rack_points``:
    (M,) the rack's points now. Returns (M, 17) floats."""
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


def expand(racks, max_card: int):
    """Every maximal sequence of every rack (``racks``: a list of racks or an (n, r) array):
    (rack rows (M, r), masks (M, r), points (M,), the index of each rack's first row)."""
    arr = np.asarray(racks, np.int64)
    r = arr.shape[1]
    masks = masks_of(arr, max_card)
    counts = np.fromiter(map(len, masks), np.int64, len(masks))
    flat = np.fromiter((m for ms in masks for m in ms), np.int64, int(counts.sum()))
    falls = arr[:, 1:] < arr[:, :-1]
    pts = np.where(falls.any(axis=1), 5.0 * (falls.argmax(axis=1) + 1), rack_points_scale(r))
    starts = np.concatenate([[0], np.cumsum(counts[:-1])])
    return (np.repeat(arr, counts, axis=0), (flat[:, None] >> np.arange(r)) & 1 != 0,
            np.repeat(pts, counts), starts.tolist())
