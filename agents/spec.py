"""What describes an agent in the catalog: ``AgentSpec``, with ``LiveSpec`` for a learner whose
values live in the database (``Values``: its table as it is handed over) and ``Inspector`` for one
that shows what it holds. It sits below every game's agents package, which lists its agents with
it, and below the catalog, which gathers those lists.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Callable, Protocol


@dataclass(frozen=True)
class Canary:
    """How a live learner's strength is checked: ``games`` single deals against each of the
    fixed ``references`` (seats alternating), with the rule ``options`` given here."""

    references: tuple[str, ...]
    games: int = 400
    options: Mapping[str, Any] | None = None


class Values(Protocol):
    """A live learner's stored table as ``LiveSpec.from_values`` gets it: ``{key: value}``, a
    dict or the server's layered table (its origin with the learned values over it), whose
    ``copy()`` copies only what is the learner's own."""

    def keys(self) -> Iterable[str]: ...
    def __getitem__(self, key: str, /) -> float: ...
    def __setitem__(self, key: str, value: float, /) -> None: ...
    def __len__(self) -> int: ...
    def get(self, key: str, default: float, /) -> float: ...
    def copy(self) -> Values: ...


@dataclass(frozen=True)
class LiveSpec:
    """How a learner whose values live in a store (the database) is built.

    ``from_values(values)`` builds the agent from the stored table; ``beginner()``
    and ``trained()`` give the tables to reset to or copy from. ``values`` is a mapping
    (the server passes its origin table with the learned values layered over it, without
    copying the origin): read it with ``get``, ``[]``, ``in``, iteration; writes to it stay
    the agent's own; copy it (``dict(values)``) only when the table is small.

    ``canary``: the check of its strength after learning from people. ``refill``: a box (the
    keys of the origin table that share their part before the last ``:``) that learning would
    leave holding less than this in all gets its origin values back instead: it forgets what it
    learned there (MENACE: 1, so no matchbox empties); 0: no refill.
    """

    from_values: Callable[[Values], Any]
    beginner: Callable[[], dict[str, float]]
    trained: Callable[[], dict[str, float]]
    canary: Canary
    refill: float = 0.0


class InspectQueryError(ValueError):
    """A query an inspector cannot read (the app answers 422)."""


class NothingToInspect(LookupError):
    """A well-formed query that names nothing the agent holds (the app answers 404)."""


@dataclass(frozen=True)
class Inspector:
    """What an agent shows of what it has learned (MENACE: its matchboxes).

    ``read(agent, query)`` answers ``query`` (the values given for some of ``params``, as
    strings) with a JSON object read from ``agent`` (the very agent that plays, a live learner
    built from its stored table); it raises ``InspectQueryError`` for a value it cannot read and
    ``NothingToInspect`` for one that names nothing the agent holds. ``about`` says in words what
    it shows and what each parameter means.
    """

    read: Callable[[Any, Mapping[str, str]], dict[str, Any]]
    params: tuple[str, ...] = ()
    about: str = ""


@dataclass(frozen=True)
class AgentSpec:
    id: str
    game: str
    title: str
    description: str
    make: Callable[[], Any]
    live: LiveSpec | None = None
    saved: str | None = None  # its file in agents/saved/<game>/ (training metadata and curve)
    searches: bool = False  # samples or searches per move: its move time is a thinking budget
    inspect: Inspector | None = None  # what it shows of its values (GET /api/agents/{game}/{id}/inspect)
