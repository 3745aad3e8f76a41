"""Answers about games and agents (levels with their measured strength, live learners)."""
from __future__ import annotations

from typing import Any

from pydantic import Field

from app.schemas.base import Answer, OpenAnswer


class InspectOffer(Answer):
    params: list[str] = Field(description="the query parameters its inspector reads")
    about: str


class AgentOut(Answer):
    id: str
    game: str
    title: str
    description: str
    live: bool = Field(description="a live learner, which learns from the games people play against it")
    level: int | None = Field(description="its level (1 is the easiest); None for an agent no level seats")
    strength: dict[str, Any] | None = Field(description="its measured strength (parlour calibrate), if measured")
    inspect: InspectOffer | None = Field(None, description="what GET /api/agents/{game}/{id}/inspect shows of it, if anything")


class LiveState(Answer):
    games: int
    origin: str
    reset_at: str


class AgentDetail(AgentOut):
    live_state: LiveState | None = Field(None, description="a live learner's games learned and origin; only then")


class GameOut(OpenAnswer):
    """A game as the engine describes it (rules summary, players, options with defaults, presets),
    with its levels, their calibration and whether it hides information."""
    name: str
    title: str
    levels: list[AgentOut]
    calibration: dict[str, Any] | None
    hidden_information: bool


class TrainingRun(OpenAnswer):
    """How a shipped agent's file was made; the other fields are the file's own metadata
    (command, seed, games, date, time)."""
    game: str
    file: str
    agents: list[str]


class LearnerChange(Answer):
    agent: str
    game: str
    origin: str
    games: int


class Snapshot(Answer):
    id: int
    created_at: str
    reason: str
    origin: str
    games: int
    learned_values: int
    passed: bool | None
    canary: dict[str, Any] | None


class Snapshots(Answer):
    agent: str
    game: str
    snapshots: list[Snapshot]


class Quarantined(Answer):
    match: str | None
    learned_at: str
    quarantined_at: str | None
    why: str | None


class Quarantine(Answer):
    agent: str
    game: str
    games: list[Quarantined]


class Window(Answer):
    games: int
    win: int
    draw: int
    loss: int


class LiveCurve(Answer):
    games: int
    window: int
    windows: list[Window]
    next: str | None


class Curve(Answer):
    agent: str
    game: str
    training: Any = Field(description="the shipped agent's training curve, from its file's metadata")
    live: LiveCurve | None


class Box(Answer):
    position: str
    box: str
    beads: list[int | float | None]
    total: int | float
    colours: int


class Inspection(OpenAnswer):
    """What an agent's inspector reads (its own fields beside these two)."""
    agent: str
    game: str


class Boxes(Answer):
    agent: str
    mark: str
    count: int
    boxes: list[Box]
