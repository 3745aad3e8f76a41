"""The JSON of the card games' states and public logs, declared once per game.

A ``Field`` says how one value is written to JSON and read back. A game lists its ``State``'s fields
once, each with its JSON key and its ``Field`` (``StateCodec``), and its log's events once, each
kind with its values (``EventCodec``); the codecs write and read every state and event from those
lists, so nothing is listed twice.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable, NamedTuple

from engine.base import StateError


class Field(NamedTuple):
    """How one value is written: ``encode`` to JSON, ``decode`` back."""

    encode: Callable[[Any], Any]
    decode: Callable[[Any], Any]


def _same(value: Any) -> Any:
    return value


def _ints(data: Any) -> tuple[int, ...]:
    return tuple(int(x) for x in data)


def _seat(data: Any) -> int | None:
    return None if data is None else int(data)


INT = Field(_same, int)
BOOL = Field(bool, int)
"""A yes or no held as 1 or 0 (in events)."""
FLAG = Field(_same, bool)
"""A yes or no held as a bool (in states)."""
SEAT = Field(_same, _seat)
"""A seat, or None."""
INTS = Field(list, _ints)
"""A tuple of ints as a JSON list."""
FLAGS = Field(list, lambda data: tuple(bool(x) for x in data))
"""A tuple of bools as a JSON list."""
INT_ROWS = Field(lambda rows: [list(row) for row in rows], lambda data: tuple(_ints(row) for row in data))
"""A tuple of tuples of ints (a rack per seat) as a list of lists."""


def _read_by_the_game(data: Any) -> Any:
    raise TypeError("a match's rules are read by its game, from the options and the players")


RULES = ("options", Field(lambda rules: rules.to_json(), _read_by_the_game))
"""The field ``rules`` of every state: written as the match's options (``Rules.to_json``); the game
reads them back (``TableGame.decode``), as only it knows how options and players make rules."""


def tuple_of(field: Field) -> Field:
    """A tuple of values as a JSON list, each written by ``field``."""
    encode, decode = field
    return Field(lambda values: [encode(v) for v in values], lambda data: tuple(decode(v) for v in data))


def choice(names: tuple) -> Field:
    """An index into ``names`` written as its name."""
    return Field(names.__getitem__, names.index)


class StateCodec:
    """A game's ``State`` to JSON and back. ``fields`` gives every field of the state, in its order,
    as ``(JSON key, Field)``, or None for a field the JSON leaves out (the game works it out from
    the others). ``from_json`` takes the values of the fields it cannot read alone by name (the
    rules, which the game makes of the options and the players), and checks what it read with
    ``check``, which raises StateError unless a state is a position of the game (cards conserved,
    seats in range)."""

    def __init__(self, state: type, fields: dict[str, tuple[str, Field] | None], check: Callable[[Any], None]):
        names = list(state._fields)  # type: ignore[attr-defined]
        if list(fields) != names:
            raise TypeError(f"the codec of {state.__qualname__} must list its fields {names} in order")
        self.state = state
        self.check = check
        self.fields = [(index, name, *spec) for index, (name, spec) in enumerate(fields.items()) if spec is not None]

    def to_json(self, state: Any) -> dict:
        return {key: field.encode(state[index]) for index, _, key, field in self.fields}

    def from_json(self, data: dict, **given: Any) -> Any:
        values = dict(given)
        for _, name, key, field in self.fields:
            if name not in values:
                values[name] = field.decode(data[key])
        state = self.state(**values)
        self.check(state)
        return state


class EventCodec:
    """The public log's events, plain tuples ``(kind, *values)``, to JSON and back:
    ``("play", 1, 7)`` with the fields ``{"play": (("seat", INT), ("card", CARD))}`` is
    ``{"event": "play", "seat": 1, "card": "r7"}``."""

    def __init__(self, title: str, fields: dict[str, tuple[tuple[str, Field], ...]]):
        self.title = title
        self.fields = fields
        self._to_json = lru_cache(maxsize=4096)(self._write)  # logs repeat their events view after view
        self.many = Field(lambda events: [self.to_json(e) for e in events],
                          lambda data: tuple(self.from_json(e) for e in data))
        """A log (a tuple of events) as a JSON list."""

    def to_json(self, event: tuple) -> dict:
        return dict(self._to_json(event))

    def _write(self, event: tuple) -> dict:
        out: dict = {"event": event[0]}
        for (name, field), value in zip(self.fields[event[0]], event[1:]):
            out[name] = field.encode(value)
        return out

    def from_json(self, data: dict) -> tuple:
        kind = data.get("event")
        if kind not in self.fields:
            raise StateError(f"unknown {self.title} event {kind!r}")
        return (kind, *(field.decode(data[name]) for name, field in self.fields[kind]))
