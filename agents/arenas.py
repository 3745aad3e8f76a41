"""Fast arenas: a game's own loop for tournaments among agents that can play on its rules
table directly, without an observation per move. Each plays the very same games as
``agents.tournament.play_by_observation`` (same seats, deals and decisions; its game's tests
check it), only faster. A game's agents package registers its arena when it is imported.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from agents.records import GameRecord

Arena = Callable[[Sequence, Sequence[int], int, "dict | None", bool], list[GameRecord]]
"""``arena(agents, indices, seed, options, whole_match)``: the records of games ``indices``."""


@dataclass(frozen=True)
class _Registered:
    arena: Arena
    accepts: Callable[[object], bool]


_ARENAS: dict[str, _Registered] = {}


def register(game: str, arena: Arena, accepts: Callable[[object], bool]) -> None:
    """``arena`` plays ``game`` when every agent at the table ``accepts``."""
    _ARENAS[game] = _Registered(arena, accepts)


def fast_arena(game: str, agents: Sequence) -> Arena | None:
    """The game's fast arena if it can seat all of ``agents``, else None."""
    entry = _ARENAS.get(game)
    if entry is None or not all(entry.accepts(a) for a in agents):
        return None
    return entry.arena
