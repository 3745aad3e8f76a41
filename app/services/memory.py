"""What a server process remembers of matches between requests, for speed only.

Everything here is in the database too, and nothing here can go stale, because it holds only
what never changes once committed, whichever process wrote it:

- a match's state at a ply (moves are stored with an optimistic check on the ply, so a match
  has exactly one state per ply);
- the tail of its move log (a move's row is written once, numbered by its ply);
- its seats while it is active (their scores are written once, when it finishes).

A match's own row (ply, status, controls) is read from the database on every request, and
says which of these apply: a state is used only for the ply the row gives, a log tail only
when it reaches that ply, seats only while the row says the match is active. A process that
restarts (even after ``kill -9``) starts with an empty memory and reads everything afresh.

The memory is bounded (least recently used matches are forgotten first) and safe to use from
any thread; what it hands out is shared, so callers never change it.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

MATCHES = 512
"""Matches remembered per process (a log tail is at most ``match_store.LOG_TAIL`` moves)."""


@dataclass
class _Entry:
    ply: int = -1
    state: Any = None
    moves: list = field(default_factory=list)
    """Consecutive moves (plain rows) ending at ``moves_end`` (exclusive)."""
    moves_end: int = -1
    seats: tuple | None = None


class MatchMemory:
    def __init__(self, size: int = MATCHES) -> None:
        self._entries: OrderedDict[str, _Entry] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def _entry(self, match_id: str) -> _Entry:
        """The match's entry, created if new, marked as most recently used (hold the lock)."""
        entry = self._entries.get(match_id)
        if entry is None:
            entry = self._entries[match_id] = _Entry()
            if len(self._entries) > self._size:
                self._entries.popitem(last=False)
        else:
            self._entries.move_to_end(match_id)
        return entry

    # ----- states -----
    def state(self, match_id: str, ply: int) -> Any:
        """The match's state at ``ply`` if remembered, else None."""
        with self._lock:
            entry = self._entries.get(match_id)
            return entry.state if entry is not None and entry.ply == ply else None

    def put_state(self, match_id: str, ply: int, state: Any) -> None:
        with self._lock:
            entry = self._entry(match_id)
            if ply >= entry.ply:
                entry.ply, entry.state = ply, state

    # ----- the move log's tail -----
    def tail(self, match_id: str, ply: int, limit: int) -> list | None:
        """The last ``limit`` moves before ``ply`` (oldest first) if all remembered, else None."""
        with self._lock:
            entry = self._entries.get(match_id)
            if entry is None or entry.moves_end != ply:
                return None
            want = min(limit, ply)
            if len(entry.moves) < want:
                return None
            return entry.moves[len(entry.moves) - want:]

    def put_tail(self, match_id: str, moves: list, end: int, keep: int) -> None:
        """Remember ``moves``, consecutive and ending at ply ``end`` (exclusive)."""
        if any(m.ply != end - len(moves) + i for i, m in enumerate(moves)):
            return
        with self._lock:
            entry = self._entry(match_id)
            if end >= entry.moves_end:
                entry.moves, entry.moves_end = list(moves[-keep:]), end

    def add_move(self, match_id: str, move, keep: int) -> None:
        """A move just committed: extends a tail that ends right before it."""
        with self._lock:
            entry = self._entries.get(match_id)
            if entry is None or entry.moves_end != move.ply:
                return
            entry.moves = [*entry.moves[max(0, len(entry.moves) + 1 - keep):], move]
            entry.moves_end = move.ply + 1

    # ----- seats -----
    def seats(self, match_id: str) -> tuple | None:
        with self._lock:
            entry = self._entries.get(match_id)
            return None if entry is None else entry.seats

    def put_seats(self, match_id: str, seats: tuple) -> None:
        with self._lock:
            self._entry(match_id).seats = seats


MEMORY = MatchMemory()
