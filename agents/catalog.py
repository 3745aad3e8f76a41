"""Every agent of every game, and each game's difficulty levels.

Each game's package (``agents/<game>/__init__.py``) lists its ``AGENTS``
(``AgentSpec``), ``LEVELS`` (agent ids, easiest first), ``CALIBRATION_REFERENCES`` (the
agents its levels are measured against) and its ``COACH`` (and ``coach_at(players)`` when the
coach depends on the table's size). This module gathers them;
nothing else needs to know which games exist.
"""
from __future__ import annotations

from typing import Any

from agents.spec import AgentSpec, Values
from engine import GameError


def _packages() -> dict[str, Any]:
    from agents import queen_of_spades, racko, tictactoe, uno, yaniv

    return {"tictactoe": tictactoe, "uno": uno, "yaniv": yaniv, "racko": racko, "queen_of_spades": queen_of_spades}


_PACKAGES = _packages()


def playable_games() -> list[str]:
    """Games that have agents (the ones the app offers)."""
    from engine import GAMES

    return [g for g in GAMES if g in _PACKAGES]


def agent_specs(game: str) -> list[AgentSpec]:
    if game not in _PACKAGES:
        raise GameError(f"no agents for game {game!r}")
    return list(_PACKAGES[game].AGENTS)


def spec(game: str, agent_id: str) -> AgentSpec:
    for s in agent_specs(game):
        if s.id == agent_id:
            return s
    known = ", ".join(s.id for s in agent_specs(game))
    raise GameError(f"unknown agent {agent_id!r} for {game}; known: {known}")


def levels(game: str) -> list[str]:
    """Agent ids of the game's levels, level 1 (easiest) first."""
    if game not in _PACKAGES:
        raise GameError(f"no agents for game {game!r}")
    return list(_PACKAGES[game].LEVELS)


def references(game: str) -> list[str]:
    """Agent ids the game's levels are calibrated against."""
    levels(game)
    return list(_PACKAGES[game].CALIBRATION_REFERENCES)


def coach(game: str, players: int | None = None):
    """The game's coach (``agents.coach.Coach``): reviews a person's decisions. A package whose top
    level changes player with the table's size (Uno's) gives ``coach_at(players)``; without
    ``players``, its ``COACH``."""
    levels(game)
    package = _PACKAGES[game]
    at = getattr(package, "coach_at", None)
    return package.COACH if at is None or players is None else at(players)


def level_agent(game: str, level: int) -> str:
    ids = levels(game)
    if not isinstance(level, int) or not 1 <= level <= len(ids):
        raise GameError(f"{game} has levels 1 to {len(ids)}, got {level!r}")
    return ids[level - 1]


def make_agent(game: str, agent_id: str, values: Values | None = None) -> Any:
    """A fresh agent; live learners are built from ``values`` (their stored table)."""
    s = spec(game, agent_id)
    if s.live is not None:
        return s.live.from_values(values if values is not None else s.live.trained())
    return s.make()
