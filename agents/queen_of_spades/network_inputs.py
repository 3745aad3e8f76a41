"""The write-up's 115 network inputs for Queen of Spades, as one pure function.

Card index 0..31 = suit * 8 + rank, suits clubs, spades, hearts, diamonds (C S H D),
ranks A K Q J 10 9 8 7 (rank 0 = Ace): the engine's order (``engine.queen_of_spades.cards``),
and the order of every 32-element block below (suit-major). Every element is -1 or +1, 0 where the
write-up says "unknown or not applicable":

| offset | size | block |
|---|---|---|
| 0 | 8 | round: one-hot of the trick number 1..8 (+1 there, -1 elsewhere) |
| 8 | 32 | own hand: +1 held, -1 not |
| 40 | 32 | table: +1 for the cards already on the current trick, -1 not |
| 72 | 32 | others' hands: +1 for cards neither played nor held (some other player has them), -1 not |
| 104 | 4 | led suit: one-hot of the suit led to this trick; all 0 when the player leads |
| 108 | 4 | position: one-hot of the cards already on the trick (0..3) |
| 112 | 3 | flags: has taken no trick yet; has taken every trick so far; has taken the Q♠ trick |

*Choices* where the write-up is silent: "has taken every trick so far" is -1
before the first trick is done (no trick has been taken yet); the table block and
the others' block use -1 (not 0) for "no", as the other card blocks do.

The difficulty levels weaken the card-counting block (``COUNTING``): "good" scales
its non-spade elements by ``PARTIAL`` (the write-up halves them; *choice*: three quarters,
which puts "good" clearly between the rule player and "very good", see
docs/measurements/queen_of_spades.md), "average" zeroes it; ``encode(..., counting=...)``
applies the scale.
"""
from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from engine.queen_of_spades.cards import CARD_IDS, SPADES

CARD_OF_ID = {cid: i for i, cid in enumerate(CARD_IDS)}  # "QS" -> 10

SIZE = 115
ROUND, HAND, TABLE, OTHERS, LED, POSITION, FLAGS = 0, 8, 40, 72, 104, 108, 112
BLOCKS = {"round": (ROUND, 8), "hand": (HAND, 32), "table": (TABLE, 32), "others": (OTHERS, 32),
          "led": (LED, 4), "position": (POSITION, 4), "flags": (FLAGS, 3)}

_spade = np.array([c // 8 == SPADES for c in range(32)])
PARTIAL = 0.75  # good: the scale of the counting inputs of the other suits
COUNTING = {
    "full": np.ones(32, np.float32),  # very good: counts every card
    "partial": np.where(_spade, 1.0, PARTIAL).astype(np.float32),  # good: spades in full, the rest scaled
    "none": np.zeros(32, np.float32),  # average and below: no counting
}

_BIT = np.arange(32, dtype=np.uint64)
_ONE_HOT8 = np.where(np.eye(8, dtype=bool), 1.0, -1.0).astype(np.float32)
_ONE_HOT4 = np.where(np.eye(4, dtype=bool), 1.0, -1.0).astype(np.float32)


def suit_of(card: int) -> int:
    return card >> 3


def mask_of(cards: Iterable[int]) -> int:
    """A 32-bit mask with bit ``card`` set for each card."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _signs(masks: np.ndarray) -> np.ndarray:
    """(batch, 32): the bits of each mask as +1 (set) / -1 (clear), card order."""
    return np.where((masks[:, None] >> _BIT) & 1, np.float32(1.0), np.float32(-1.0))


def encode_many(trick_number, hand, trick, played, flags, counting: str = "full") -> np.ndarray:
    """The 115 inputs of a batch of players to act, (batch, 115) float32.

    Per row: ``trick_number`` 1..8; ``hand`` the player's cards as a mask (bit
    ``card``); ``trick`` (batch, 3) the cards already on the current trick in the
    order played, padded with -1; ``played`` the mask of every card played in the
    deal so far (including the current trick's); ``flags`` (batch, 3) of bools = (no
    trick taken yet, every trick taken so far, took the Q♠ trick)."""
    hand = np.asarray(hand, np.uint64)
    played = np.asarray(played, np.uint64)
    trick = np.asarray(trick, np.int64).reshape(len(hand), 3)
    n = len(hand)
    trick_number = np.asarray(trick_number, np.int64)
    if n and (trick_number.min() < 1 or trick_number.max() > 8):
        raise ValueError(f"trick numbers run 1..8, got {trick_number.min()}..{trick_number.max()}")
    out = np.empty((n, SIZE), np.float32)
    out[:, ROUND:ROUND + 8] = _ONE_HOT8[trick_number - 1]
    out[:, HAND:HAND + 32] = _signs(hand)
    on_table = np.full((n, 33), -1.0, np.float32)  # column 32 soaks up the padding
    on_table[np.arange(n)[:, None], np.where(trick >= 0, trick, 32)] = 1.0
    out[:, TABLE:TABLE + 32] = on_table[:, :32]
    others = _signs(~(hand | played) & np.uint64(0xFFFFFFFF))
    out[:, OTHERS:OTHERS + 32] = others if counting == "full" else others * COUNTING[counting]
    position = (trick >= 0).sum(axis=1)
    leading = position == 0
    out[:, LED:LED + 4] = np.where(leading[:, None], np.float32(0.0), _ONE_HOT4[np.maximum(trick[:, 0], 0) >> 3])
    out[:, POSITION:POSITION + 4] = _ONE_HOT4[position]
    out[:, FLAGS:FLAGS + 3] = np.where(np.asarray(flags, bool).reshape(n, 3), np.float32(1.0), np.float32(-1.0))
    return out


_BYTE_SIGNS = np.where((np.arange(256)[:, None] >> np.arange(8)) & 1, 1.0, -1.0).astype(np.float32)
_ONE_ROW = np.full(SIZE, -1.0, np.float32)  # every "no"; the led suit's 0s for a player who leads
_ONE_ROW[LED:LED + 4] = 0.0


def _mask_signs(mask: int) -> np.ndarray:
    """(32,): the bits of one mask as +1 / -1, card order (a byte at a time from a table)."""
    return _BYTE_SIGNS[np.frombuffer(mask.to_bytes(4, "little"), np.uint8)].ravel()


def encode(trick_number: int, hand: int, trick: Sequence[int], played: int, flags: tuple[bool, bool, bool],
           counting: str = "full") -> np.ndarray:
    """One player's 115 inputs, the row ``encode_many`` makes (a test checks), written element by
    element: a move at batch 1 pays for this, and a handful of numpy calls on one row cost a few
    microseconds each. ``trick`` here is a plain list (padding with -1 allowed)."""
    if not 1 <= trick_number <= 8:
        raise ValueError(f"trick numbers run 1..8, got {trick_number}")
    out = _ONE_ROW.copy()
    out[ROUND + trick_number - 1] = 1.0
    out[HAND:HAND + 32] = _mask_signs(hand)
    others = _mask_signs(~(hand | played) & 0xFFFFFFFF)
    out[OTHERS:OTHERS + 32] = others if counting == "full" else others * COUNTING[counting]
    on_table = [c for c in trick if c >= 0]
    for c in on_table:
        out[TABLE + c] = 1.0
    if on_table:
        out[LED:LED + 4] = -1.0
        out[LED + suit_of(on_table[0])] = 1.0
    out[POSITION + len(on_table)] = 1.0
    for i, flag in enumerate(flags):
        if flag:
            out[FLAGS + i] = 1.0
    return out


def flags_of(tricks_taken: int, tricks_done: int, took_queen: bool) -> tuple[bool, bool, bool]:
    return tricks_taken == 0, tricks_done > 0 and tricks_taken == tricks_done, took_queen


def table_inputs(table) -> tuple:
    """The inputs of the seat to move on an engine ``Table``, as the plain values ``encode_many``
    takes (training and search read tables directly; this reads only what that seat may know:
    its own hand and the public play)."""
    seat = table.to_move
    trick = [c for _, c in table.trick]
    return (table.tricks_done + 1, mask_of(table.hands[seat]), trick + [-1] * (3 - len(trick)), table.played,
            flags_of(table.tricks[seat], table.tricks_done, table.queen_by == seat))


def encode_tables(tables, counting: str = "full") -> np.ndarray:
    """(len(tables), 115): the inputs of the seat to move at each table."""
    trick_number, hand, trick, played, flags = zip(*(table_inputs(t) for t in tables))
    return encode_many(trick_number, hand, trick, played, flags, counting=counting)
