"""Harel's Q-table packed into numbers, for shipping and for playing from memory.

A trained Harel visits over half a million (state, action) pairs: as a Python
dict of strings that is tens of megabytes in every process, and as JSON over ten
megabytes on disk. Packed, each pair is one integer key and one value:

- the state's characters (``0A23456789TJQK``, see ``agents.yaniv.harel``) read
  as a base-14 number, times 32, plus the action's number (``Y`` 0, ``p`` + rank
  1-14, ``s`` + rank 15-28);
- keys sorted, stored as differences in a compressed ``.npz`` with the
  values as int16 (value x 32767; Q-values lie in [-1, 1] with these rewards),
  and the number of state characters.

``PackedTable`` answers ``get(key, default)`` by binary search over the sorted
keys and takes writes into a small dict on top (``table[key] = value``), so a
Harel playing from it can still ``learn``. ``to_dict()`` unpacks it (the live
Harel's table in the database is a plain ``{key: value}`` dict).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

RANK_CHARS = "0A23456789TJQK"
_DIGIT = {ch: i for i, ch in enumerate(RANK_CHARS)}
SCALE = 32767


def encode_key(key: str) -> int:
    state, _, action = key.partition(":")
    n = 0
    for ch in state:
        n = n * 14 + _DIGIT[ch]
    if action == "Y":
        code = 0
    else:
        code = (1 if action[0] == "p" else 15) + _DIGIT[action[1]]
    return n * 32 + code


def decode_key(number: int, slots: int) -> str:
    n, code = divmod(int(number), 32)
    chars = []
    for _ in range(slots):
        n, digit = divmod(n, 14)
        chars.append(RANK_CHARS[digit])
    if code == 0:
        action = "Y"
    else:
        action = ("p" if code < 15 else "s") + RANK_CHARS[(code - 1) % 14]
    return "".join(reversed(chars)) + ":" + action


class PackedTable:
    """A read-mostly Q-table: sorted integer keys and values, with writes kept aside."""

    def __init__(self, keys: np.ndarray, values: np.ndarray, slots: int):
        self.keys = keys
        self.values = values
        self.slots = slots
        self.written: dict[str, float] = {}
        self._added = 0  # written keys that are not among the packed ones

    def _packed(self, key: str) -> float | None:
        n = encode_key(key)
        i = int(self.keys.searchsorted(n))  # the method: np.searchsorted costs 3x more per call
        return float(self.values[i]) if i < len(self.keys) and self.keys[i] == n else None

    def get(self, key: str, default: float | None = 0.0) -> float | None:
        if key in self.written:
            return self.written[key]
        value = self._packed(key)
        return default if value is None else value

    def get_many(self, keys: list[str]) -> list[float | None]:
        """``get(key, None)`` for every key, with one binary search for them all (a move asks for
        all the actions of one state: one numpy call instead of one per action)."""
        numbers = np.array([encode_key(k) for k in keys], dtype=np.int64)
        at = np.minimum(self.keys.searchsorted(numbers), len(self.keys) - 1)
        found = (self.keys[at] == numbers).tolist() if len(self.keys) else [False] * len(keys)
        values = self.values[at].tolist() if len(self.keys) else [0.0] * len(keys)
        written = self.written
        return [written[k] if k in written else v if hit else None for k, hit, v in zip(keys, found, values)]

    def __contains__(self, key: str) -> bool:
        return key in self.written or self._packed(key) is not None

    def __setitem__(self, key: str, value: float) -> None:
        if key not in self.written and self._packed(key) is None:
            self._added += 1
        self.written[key] = value

    def __len__(self) -> int:
        return len(self.keys) + self._added

    def to_dict(self) -> dict[str, float]:
        out = {decode_key(k, self.slots): float(v) for k, v in zip(self.keys.tolist(), self.values.tolist())}
        out.update(self.written)
        return out

    @staticmethod
    def from_dict(table: dict[str, float]) -> "PackedTable":
        slots = len(next(iter(table)).partition(":")[0]) if table else 6
        keys = np.fromiter((encode_key(k) for k in table), dtype=np.int64, count=len(table))
        values = np.fromiter(table.values(), dtype=np.float64, count=len(table))
        order = np.argsort(keys)
        return PackedTable(keys[order], np.round(values[order] * SCALE) / SCALE, slots)


def save_packed(path: Path, table: dict[str, float]) -> Path:
    packed = PackedTable.from_dict(table)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:
        np.savez_compressed(f, key_steps=np.diff(packed.keys, prepend=0).astype(np.uint64),
                            values=np.round(packed.values * SCALE).astype(np.int16),
                            slots=np.array(packed.slots))
    return path


def load_packed(path: Path) -> PackedTable:
    with np.load(path) as data:
        keys = np.cumsum(data["key_steps"].astype(np.int64))
        values = data["values"].astype(np.float64) / SCALE
        return PackedTable(keys, values, int(data["slots"]))
