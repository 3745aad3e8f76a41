"""The kernel every card game is built on: the mutable table's protocol, the one adapter that makes
a ``Game`` of a table, the one shuffle, and the one encoding of the public log's events.

A card game is written as a **table** (``rules.py``): a mutable object holding one position, with
``legal()`` (the legal action codes, small ints), ``step(code)`` (play one for the seat to move) and
``copy()``; search agents, arenas, training and benchmarks drive it directly. Its frozen twin, the
game's ``State`` (an immutable ``NamedTuple``), is what the ``Game`` surface hands out and what is
saved: ``Table.thaw(state)`` and ``table.freeze()`` go between them. Both answer
``current_player()`` (None once the match is over) and ``is_over()``.

``TableGame`` turns a table into a ``Game`` once for every card game: ``apply`` (check, thaw,
step, freeze), ``legal_actions``, ``new_match``/``new_deal``, ``current_player``/``is_over`` and
the JSON round trip with its one error (``StateError``). A game supplies its rules, its actions
by code, the encoding of its state, and what a seat sees.
"""
from __future__ import annotations

import random
from abc import ABC, abstractmethod
from functools import lru_cache, partial
from itertools import repeat, starmap
from typing import Any, Callable, Generic, Iterable, NamedTuple, Protocol, Self, Sequence, TypeVar

from engine.base import Game, GameError, IllegalActionError, StateError


def shuffled(cards: Iterable[int], rng: random.Random) -> list[int]:
    """``cards`` in a uniformly random order: sorted by one ``rng.random()`` key each, drawn for the
    cards in the order given (53-bit floats, which do not tie in practice). The same distribution as
    ``rng.shuffle``, and faster."""
    return sorted(cards, key=partial(next, starmap(rng.random, repeat(()))))


class Position(Protocol):
    """What the adapter asks of a frozen state without thawing it."""

    @property
    def deal(self) -> int: ...

    def current_player(self) -> int | None: ...

    def is_over(self) -> bool: ...


class RulesType(Protocol):
    """A game's rules class: ``of`` makes the rules of a match from its options (resolved and checked)."""

    def of(self, players: int, options: dict) -> Any: ...


S = TypeVar("S", bound=Position)
A = TypeVar("A")


class Table(ABC, Generic[S]):
    """The mutable table of a card game (see the module's notes). ``step`` trusts its caller: the
    adapter checks legality first; simulations pick codes from ``legal()``."""

    __slots__ = ()
    scores: Sequence[int]
    """The match totals so far, one per seat."""

    @classmethod
    @abstractmethod
    def new(cls, players: int, seed: int, rules: Any, single: bool) -> Self:
        """A match (``single``: one deal) at its first move, dealt from ``seed``."""

    @classmethod
    @abstractmethod
    def thaw(cls, state: S) -> Self:
        """A table holding ``state``, to be changed without changing ``state``."""

    @classmethod
    def reader(cls, state: S) -> Self:
        """A table for asking ``legal()`` and ``is_legal()`` of ``state`` only (never ``step``): a
        game whose thaw copies much overrides it with one that shares the state's values."""
        return cls.thaw(state)

    @abstractmethod
    def freeze(self) -> S:
        """The position as an immutable state."""

    @abstractmethod
    def copy(self) -> Self:
        """An independent table in the same position (its event log may be left out)."""

    @abstractmethod
    def legal(self) -> list[int]:
        """The legal action codes of the seat to move (empty once the match is over)."""

    def is_legal(self, code: int) -> bool:
        return code in self.legal()

    @abstractmethod
    def step(self, code: int) -> None:
        """The seat to move plays the legal action ``code``."""

    @abstractmethod
    def current_player(self) -> int | None: ...

    @abstractmethod
    def is_over(self) -> bool: ...


class TableGame(Game[S, A]):
    """A ``Game`` made of a table (see the module's notes). A game sets ``table``, ``rules_type``
    and ``actions`` (the action of each code) or overrides ``action``, and writes ``encode``,
    ``decode`` and ``check`` beside the rest of the surface (views, scores, labels, hidden cards)."""

    table: type[Table[S]]
    rules_type: RulesType
    actions: Sequence[A] = ()

    # ----- hooks -----
    def rules(self, players: int, options: dict | None) -> Any:
        """The rules of a match of ``players`` seats with ``options`` (checked: OptionError)."""
        self.check_players(players)
        return self.rules_type.of(players, self.resolve_options(options))

    def action(self, code: int) -> A:
        """The action of ``code``."""
        return self.actions[code]

    @abstractmethod
    def encode(self, state: S) -> dict:
        """``state`` as JSON-ready data (``to_json``)."""

    @abstractmethod
    def decode(self, data: dict) -> S:
        """The state ``encode`` wrote: any error it meets becomes a StateError in ``from_json``."""

    @abstractmethod
    def check(self, state: S) -> None:
        """StateError unless ``state`` is a position of the game (cards conserved, seats in range)."""

    # ----- the surface -----
    def new_match(self, players: int, seed: int = 0, options: dict | None = None) -> S:
        return self.table.new(players, seed, self.rules(players, options), False).freeze()

    def new_deal(self, players: int, seed: int = 0, options: dict | None = None) -> S:
        return self.table.new(players, seed, self.rules(players, options), True).freeze()

    def current_player(self, state: S) -> int | None:
        return state.current_player()

    def is_over(self, state: S) -> bool:
        return state.is_over()

    def deal_of(self, state: S) -> int:
        return state.deal

    def legal_actions(self, state: S) -> list[A]:
        action = self.action
        return [action(code) for code in self.table.reader(state).legal()]

    def apply(self, state: S, action: A) -> S:
        if state.is_over():
            raise IllegalActionError(getattr(action, "id", str(action)), "the match is over")
        code = getattr(action, "code", None)
        table = self.table.thaw(state)
        if type(code) is not int or not table.is_legal(code) or not self.is_action(code, action):
            raise IllegalActionError(getattr(action, "id", str(action)), self.why_illegal(state, action))
        table.step(code)
        return table.freeze()

    def is_action(self, code: int, action: object) -> bool:
        """``action`` is the action of ``code`` (not another object that says it has that code)."""
        known = self.action(code)
        return known is action or known == action

    def to_json(self, state: S) -> dict:
        return self.encode(state)

    def from_json(self, data: dict) -> S:
        try:
            state = self.decode(data)
        except StateError:
            raise
        except (GameError, KeyError, TypeError, ValueError, AttributeError, IndexError) as err:
            raise StateError(f"not a {self.title} state: {err!r}") from None
        self.check(state)
        return state


class Field(NamedTuple):
    """How one value of an event is written: ``encode`` to JSON, ``decode`` back."""

    encode: Callable[[Any], Any]
    decode: Callable[[Any], Any]


INT = Field(lambda value: value, int)
BOOL = Field(bool, int)


class EventCodec:
    """The public log's events, plain tuples ``(kind, *values)``, to JSON and back:
    ``("play", 1, 7)`` with the fields ``{"play": (("seat", INT), ("card", CARD))}`` is
    ``{"event": "play", "seat": 1, "card": "r7"}``."""

    def __init__(self, title: str, fields: dict[str, tuple[tuple[str, Field], ...]]):
        self.title = title
        self.fields = fields
        self._to_json = lru_cache(maxsize=4096)(self._write)  # logs repeat their events view after view

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
