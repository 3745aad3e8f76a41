"""Answers about matches: a new match's secrets, a seat's view, the list, the replay, the coach."""
from __future__ import annotations

from typing import Any

from pydantic import Field

from app.schemas.base import Answer

Number = int | float


class Created(Answer):
    id: str
    status: str = Field(description="active, or waiting for invited friends")
    tokens: dict[str, str] = Field(description="the token of each person's seat that is not a friend's, by seat number")
    invites: dict[str, str] | None = Field(None, description="each friend's seat's invite link (path and fragment "
                                                              "#join=SEAT.TOKEN), by seat number; only when there "
                                                              "are friends' seats. Its token is good only for joining")
    control_token: str | None = Field(None, description="an AI-only match's control token; only then")


class SeatOut(Answer):
    seat: int
    type: str = Field(description="human or agent")
    name: str
    display_name: str = Field(description="the name, made distinct within the match")
    agent: str | None
    level: int | None
    score: float | None
    won: bool | None
    invite: str | None = Field(description="a friend's seat: open or taken")


class LegalAction(Answer):
    id: str
    label: str


class MoveOut(Answer):
    ply: int
    seat: int
    action: str
    label: str
    explanation: dict[str, Any] | None = Field(description="an AI's reasoning, as this viewer may see it")


class MadeMove(MoveOut):
    view: dict[str, Any] = Field(description="the seat's view after the move")


class Result(Answer):
    scores: list[Number]
    winners: list[int]
    ending: dict[str, Any] | None = Field(description="how a match ended early (resigned, abandoned)")


class MatchView(Answer):
    """What a seat (or a spectator) sees of a match."""
    id: str
    game: str
    status: str
    ply: int
    hints: bool
    seat: int | None
    to_move: int | None
    ai_only: bool
    options: dict[str, Any]
    delay_ms: int
    paused: bool
    created_at: str
    rematch_of: str | None
    seats: list[SeatOut]
    view: dict[str, Any]
    legal_actions: list[LegalAction]
    can_resign: bool
    moves: list[MoveOut]
    last_explanation: dict[str, Any] | None
    result: Result | None
    rated: bool
    unrated_reason: str | None
    learning: dict[str, Any] | None


class Joined(MatchView):
    token: str = Field(description="the seat's own token from now on (the invite's token no longer works)")


class MoveAnswer(MatchView):
    made: list[MadeMove] = Field(description="the moves made by this request, each with the seat's view after it")


class Listed(Answer):
    id: str
    game: str
    status: str
    ending: dict[str, Any] | None
    ply: int
    ai_only: bool
    hints: bool
    rated: bool
    unrated_reason: str | None
    created_at: str
    finished_at: str | None
    seats: list[SeatOut]


class MatchPage(Answer):
    total: int
    page: int
    per_page: int
    next: str | None
    matches: list[Listed]


class Controls(Answer):
    paused: bool
    steps: int
    delay_ms: int


class Replay(Answer):
    id: str
    game: str
    status: str
    hints: bool
    seats: list[SeatOut]
    start: dict[str, Any]
    moves: list[MadeMove]


class Review(Answer):
    ply: int
    action: str
    best: str | None
    value: float | None
    best_value: float | None
    loss: float | None
    mistake: bool
    label: str | None
    best_label: str | None


class Analysis(Answer):
    status: str = Field(description="done, or running")
    done: int
    total: int
    game: str
    seat: int
    agent: str
    agent_title: str
    unit: str
    threshold: float
    hints: bool
    entries: list[Review]
    summary: str | None


class Hint(Answer):
    ply: int
    agent: str
    agent_title: str
    unit: str
    best: str | None
    values: dict[str, float]
    labels: dict[str, str]
