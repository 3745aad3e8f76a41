"""The 8 symmetries of the 3x3 board and canonical positions.

A board is a tuple of nine ints (0 empty, 1 X, 2 O), cells 0-8 row by row.
Each symmetry is a permutation ``p`` with ``transformed[i] = board[p[i]]``.
The canonical form of a board is the smallest of its eight images (compared
as tuples); matchboxes are keyed by it.
"""
from __future__ import annotations

from functools import lru_cache

IDENTITY: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 7, 8)
ROTATE = (6, 3, 0, 7, 4, 1, 8, 5, 2)  # a quarter turn clockwise
REFLECT = (2, 1, 0, 5, 4, 3, 8, 7, 6)  # mirror left-right


def compose(p: tuple[int, ...], q: tuple[int, ...]) -> tuple[int, ...]:
    """The permutation applying ``q`` first, then ``p``."""
    return tuple(q[p[i]] for i in range(9))


def _all_symmetries() -> tuple[tuple[int, ...], ...]:
    out: list[tuple[int, ...]] = []
    r = IDENTITY
    for _ in range(4):
        out.append(r)
        out.append(compose(REFLECT, r))
        r = compose(ROTATE, r)
    assert len(set(out)) == 8
    return tuple(out)


SYMMETRIES = _all_symmetries()


def transform(board: tuple[int, ...], p: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(board[p[i]] for i in range(9))


@lru_cache(maxsize=None)
def canonical(board: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(canonical board, the permutation p with canonical[i] = board[p[i]])."""
    return min((transform(board, p), p) for p in SYMMETRIES)


@lru_cache(maxsize=None)
def orbits(board: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Empty cells grouped by the board's own symmetries (cells that give the same
    position when played share a group); each group sorted, groups by first cell."""
    own = [p for p in SYMMETRIES if transform(board, p) == board]
    seen: set[int] = set()
    groups = []
    for cell in range(9):
        if board[cell] or cell in seen:
            continue
        group = sorted({p.index(cell) for p in own})
        seen.update(group)
        groups.append(tuple(group))
    return tuple(groups)


def render(board: tuple[int, ...]) -> str:
    """'X.O......' style key of a board."""
    return "".join(".XO"[c] for c in board)


def parse(text: str) -> tuple[int, ...]:
    if len(text) != 9 or set(text) - set(".XOxo"):
        raise ValueError("a board is nine characters of '.', 'X' and 'O', cells 0-8 row by row")
    return tuple(".XO".index(ch) for ch in text.upper())
