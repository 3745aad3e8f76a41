"""Answers about finished matches: result rows, the leaderboard, people, tournaments."""
from __future__ import annotations

from typing import Any

from pydantic import Field

from app.schemas.base import Answer, OpenAnswer


class ResultRow(Answer):
    """One finished match and seat (the CSV has the same columns)."""
    match: str
    game: str
    finished_at: str
    seat: int
    type: str
    name: str
    agent: str | None
    level: int | None
    score: float | None
    won: bool | None
    humans: int
    ai_only: bool
    ending: str = Field(description="resigned, abandoned, or empty")
    hints: bool
    rated: bool
    unrated_reason: str | None


class Rated(Answer):
    """The fields every rating carries."""
    rating: int
    provisional: bool
    display: str
    mu: float
    sigma: float
    ordinal: float


class Player(Rated):
    game: str
    player: str = Field(description="person:<name> or agent:<id>")
    kind: str
    id: str
    name: str
    level: int | None
    games: int
    wins: float
    updated_at: str


class Leaderboard(Answer):
    model: str
    players: list[Player]
    next: str | None


class RatingPoint(Answer):
    at: str
    rating: int
    mu: float
    sigma: float
    ordinal: float
    match: str | None
    tournament: int | None


class RatingHistory(Answer):
    game: str
    player: str
    points: list[RatingPoint]


class LevelRecord(Answer):
    game: str
    level: int
    agent: str | None
    win: int
    draw: int
    loss: int


class PersonSeat(Answer):
    display_name: str
    type: str
    level: int | None
    won: bool | None
    score: float | None
    me: bool


class PersonMatch(Answer):
    id: str
    game: str
    status: str
    created_at: str
    finished_at: str | None
    seats: list[PersonSeat]
    won: bool | None


class PersonRating(Rated):
    games: int
    wins: float
    history: list[RatingPoint]


class Person(Answer):
    name: str
    player: str
    matches: list[PersonMatch]
    total_matches: int
    next: str | None
    record: list[LevelRecord]
    ratings: dict[str, PersonRating]


class TournamentOut(OpenAnswer):
    """A stored tournament; the other fields are its stored result (standings, points...)."""
    id: int
    game: str
    players: list[Any]
    games: int
    seed: int
    options: dict[str, Any]
    seconds: float
    created_at: str
    whole_match: bool
    unit: str
