"""Matches: create, view per seat, moves, live events (SSE), AI-only control, replay, rematch."""
from __future__ import annotations

from typing import Annotated, Any, Literal

import orjson
from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response, StreamingResponse
from pydantic import ConfigDict, Field, WithJsonSchema, model_validator

from app import paging
from app.responses import ReleasingStream
from app.deps import (Authorization, ClientDep, GameFilter, HeavyDep, PoolDep, SessionDep, TokenDep, bearer,
                      client_address, open_session)
from app.match_schema import match_rules, seat_rules
from app.params import JSON_SAFE_MAX, Body, Instant, MatchId, Name
from app.problems import problems
from app.services import coach, invites, match_events, match_lifecycle, match_turns, match_views
from app.schemas.matches import Analysis, Controls, Created, Hint, Joined, MatchPage, MatchView, MoveAnswer, Replay
from app.services.match_list import MatchFilter, list_matches as list_page

router = APIRouter(prefix="/api/matches", tags=["matches"])

MAX_PLY = 1_000_000
EVENT_STREAM = {"description": "server-sent events: move, seats, held, end (each data line is JSON)",
                "content": {"text/event-stream": {"schema": {"type": "string"}}}}


class SeatIn(Body):
    model_config = ConfigDict(json_schema_extra=seat_rules)

    type: Literal["human", "agent", "friend"] = Field(description="a person (the creator), an AI, or a friend "
                                                      "invited by a link (the match waits until they join)")
    name: Name | None = Field(None, description="shown at the table; printable text, 1 to 32 characters (not an identity: there are no accounts)")
    level: int | None = Field(None, ge=1, le=100, description="an agent seat's level (or give agent)")
    agent: str | None = Field(None, max_length=64, description="an agent seat's agent id (or give level)")

    @model_validator(mode="after")
    def _one_of_level_or_agent(self):
        given = (self.level is not None) + (self.agent is not None)
        if self.type == "agent" and given != 1:
            raise ValueError("an agent seat names exactly one of 'level' or 'agent'")
        if self.type != "agent" and given:
            raise ValueError(f"a {self.type} seat has no 'level' or 'agent'")
        return self


class MatchIn(Body):
    """A new match; the schema lists, game by game, the seats, levels, agents and options it takes."""

    model_config = ConfigDict(json_schema_extra=match_rules)

    game: str = Field(max_length=32, description="a game Parlour offers (an unknown game is 404)")
    seats: list[SeatIn] = Field(min_length=1, max_length=10)
    options: dict = Field(default_factory=dict)
    seed: int | None = Field(None, ge=0, le=JSON_SAFE_MAX,
                             description="replay a deal: the same seed deals the same hands. Leave it out for a "
                                         "rated match: a match whose creator chose its seed is neither rated "
                                         "nor learned from (its view says so: rated, unrated_reason)")
    delay_ms: int = Field(700, ge=0, le=60_000, description="pause between moves of an AI-only match when watched")
    hints: bool = Field(False, description="the coach may be asked during play (GET .../hint, .../analysis); "
                                           "the match is marked in the results and left out of the ratings")


class MoveIn(Body):
    action: str = Field(min_length=1, max_length=128)
    ply: int | None = Field(None, ge=0, le=MAX_PLY,
                            description="the ply you saw, a JSON integer (or leave it out); a stale one is refused "
                                        "with 409")


class JoinIn(Body):
    name: Name = Field(description="the joiner's name: printable text, 1 to 32 characters")


SEAT_NUMBER = "^[0-9]$"


class StartIn(Body):
    levels: Annotated[dict[Annotated[str, Field(pattern=SEAT_NUMBER)], Annotated[int, Field(ge=1, le=100)]],
                      Field(max_length=10, description="the level of the AI to seat in each empty friend's seat, "
                                                       "by seat number"),
                      WithJsonSchema({"type": "object", "propertyNames": {"pattern": SEAT_NUMBER}, "maxProperties": 10,
                                      "additionalProperties": {"type": "integer", "minimum": 1, "maximum": 100}})]


class ControlIn(Body):
    action: Literal["pause", "resume", "step", "speed"]
    delay_ms: int | None = Field(None, ge=0, le=60_000)


class RematchIn(Body):
    swap: bool = Field(False, description="rotate the seats (swap sides in a two-player game)")


def hot_json(content: dict[str, Any]) -> Response:
    """An answer holding a table's view, made JSON by orjson at once: FastAPI's own way validates
    a returned dict and then works out every value's type as it writes, about 4x slower on a
    table's view, and cannot write the moves a process remembers already written
    (``match_moves.Played``). Its route declares the answer's model for the schema."""
    return Response(orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS), media_type="application/json")


@router.post("", status_code=201, response_model=Created, response_model_exclude_unset=True,
             responses=problems(400, 404, 413, 422, 429))
async def create(body: MatchIn, session: SessionDep, pool: PoolDep, client: ClientDep) -> dict[str, Any]:
    """Create a match. Human seats get a secret token each (send it as ``Authorization: Bearer``);
    an AI-only match gets a ``control_token`` for pausing, stepping and its speed. Friends' seats
    get an invite link each (``invites``), not a token: the link's token is good only for joining
    (``POST /join``, which gives the joiner the seat's own token). The match is ``waiting`` until
    every friend has joined or the creator starts it (``POST /start``).

    429 beyond ``PARLOUR_CREATE_LIMIT`` new matches a minute from one address, or, for an
    AI-only match, beyond ``PARLOUR_AI_ONLY_RUNNING`` AI-only matches running at once from it.
    An AI-only match pauses at least ``PARLOUR_AI_ONLY_MIN_DELAY_MS`` between moves: a smaller
    ``delay_ms`` is raised to it (the answer's view says the delay it got)."""
    seats = [match_lifecycle.SeatRequest(s.type, s.name, s.level, s.agent) for s in body.seats]
    return await match_lifecycle.create(session, pool, body.game, seats, body.options, body.seed, body.delay_ms,
                                        client, body.hints)


@router.get("", response_model=MatchPage, responses=problems(404, 422))
async def list_matches(session: SessionDep, heavy: HeavyDep, game: GameFilter,
                       agent: Annotated[str | None, Query(max_length=64)] = None,
                       level: Annotated[int | None, Query(ge=1, le=100)] = None,
                       status: Literal["waiting", "active", "finished"] | None = None,
                       since: Instant | None = None, until: Instant | None = None,
                       page: Annotated[int, Query(ge=1, le=100_000)] = 1,
                       per_page: Annotated[int, Query(ge=1, le=200)] = 20,
                       cursor: paging.CursorParam = None) -> dict[str, Any]:
    """Matches, newest first, filtered, ``per_page`` at a time: ``next`` is the cursor of the
    next page (pass it as ``cursor``: it costs the same however deep; ``page`` counts from the
    start). Matches with no move for ``PARLOUR_ABANDON_AFTER_S`` are finished as abandoned
    first (``ending``). ``rated``: whether the match counts (or will) for the ratings; if not,
    ``unrated_reason`` says why."""
    where = MatchFilter(game, agent, level, status, since, until)
    return await heavy.run(list_page, session, where, page, per_page, cursor)


@router.get("/{match_id}", response_model=MatchView, responses=problems(401, 403, 404))
async def view(match_id: MatchId, request: Request, authorization: Authorization = None) -> Response:
    """The spectator's view, or with a seat's token that seat's view and its legal actions.
    ``rated`` and ``unrated_reason``: whether the match counts for the ratings, and if not why
    (its creator chose the seed, hints, abandoned); ``learning``, once it is over, what each live
    learner made of it."""
    # Read-only and short (three indexed reads; SQLite in WAL mode never waits for a writer
    # to read): done on the event loop, which saves two thread hops.
    token = bearer(authorization)
    with open_session(request) as session:
        return hot_json(match_views.seat_view(session, match_id, token))


@router.post("/{match_id}/moves", response_model=MoveAnswer, responses=problems(400, 401, 403, 404, 409, 413, 422))
async def move(match_id: MatchId, body: MoveIn, request: Request, authorization: Authorization = None) -> Response:
    """Play a move for your seat; AI seats reply. Returns your new view, with ``moves`` holding
    only the moves made by this request (``GET`` the match for the last ones before them), and
    ``made``: the same moves, each with your view after it."""
    token = bearer(authorization)
    with open_session(request) as session:
        return hot_json(await match_turns.move(session, request.app.state.pool, match_id, token, body.action,
                                               body.ply))


@router.post("/{match_id}/resign", response_model=MatchView, responses=problems(401, 403, 404, 409))
async def resign(match_id: MatchId, session: SessionDep, pool: PoolDep, token: TokenDep) -> Response:
    """Concede for your seat (any time, your turn or not): the match ends, every other seat
    wins. Needs the seat's token (401 without, 403 with another's); 409 once the match is over."""
    return hot_json(await run_in_threadpool(match_lifecycle.resign, session, pool, match_id, token))


@router.post("/{match_id}/join", response_model=Joined, responses=problems(400, 401, 403, 404, 409, 413, 422))
async def join(match_id: MatchId, body: JoinIn, session: SessionDep, pool: PoolDep, token: TokenDep,
               client: ClientDep) -> Response:
    """Take a friend's seat with the token of its invite link, under a name; the match starts when
    every friend's seat is taken. Returns the seat's view and, under ``token``, the seat's new
    token: from then on the invite's token is refused (403) everywhere, as any wrong token is."""
    return hot_json(await run_in_threadpool(invites.join, session, pool, match_id, token, body.name, client))


@router.post("/{match_id}/start", response_model=MatchView, responses=problems(400, 401, 403, 404, 409, 413, 422))
async def start(match_id: MatchId, body: StartIn, session: SessionDep, pool: PoolDep, token: TokenDep) -> Response:
    """The creator starts a waiting match at once, with an AI of the given level in each friend's
    seat nobody has taken. Returns the creator's view."""
    levels = {int(number): level for number, level in body.levels.items()}
    return hot_json(await run_in_threadpool(invites.start, session, pool, match_id, token, levels))


@router.post("/{match_id}/control", response_model=Controls, responses=problems(400, 401, 403, 404, 409, 413, 422, 429))
def control(match_id: MatchId, body: ControlIn, session: SessionDep, token: TokenDep) -> dict[str, Any]:
    """Pause, resume, step or change the speed of a watched AI-only match: needs the
    ``control_token`` its creation returned (anyone may watch). A delay below
    ``PARLOUR_AI_ONLY_MIN_DELAY_MS`` is raised to it; resuming is refused (429) while its creator
    runs ``PARLOUR_AI_ONLY_RUNNING`` other AI-only matches."""
    return match_lifecycle.control(session, match_id, token, body.action, body.delay_ms)


@router.post("/{match_id}/rematch", status_code=201, response_model=Created, response_model_exclude_unset=True,
             responses=problems(400, 401, 403, 404, 413, 422, 429))
def rematch(match_id: MatchId, session: SessionDep, pool: PoolDep, token: TokenDep, client: ClientDep,
            body: RematchIn | None = None) -> dict[str, Any]:
    """A new match with the same seats (rotated with ``swap``; no body: not rotated); the caller
    must hold a seat's token unless the match was AI-only. The other people at the table get
    friends' seats (with invite links, under their names). Returns the new id, the caller's token
    and the invites; each invite's token is good only for joining, as at creation."""
    return match_lifecycle.rematch(session, pool, match_id, token, client, body is not None and body.swap)


@router.get("/{match_id}/replay", response_model=Replay, responses=problems(401, 403, 404))
async def replay(match_id: MatchId, session: SessionDep, token: TokenDep, heavy: HeavyDep) -> dict[str, Any]:
    """Every move with the acting AI's explanation and the view after it (rebuilt from the
    start: its cost grows with the match, so it queues with the other heavy reads)."""
    return await heavy.run(match_views.replay, session, match_id, token)


@router.get("/{match_id}/analysis", response_model=Analysis, responses={**problems(401, 403, 404, 409),
                                               202: {"description": "still running: status, done of total"}})
def analysis(match_id: MatchId, request: Request, response: Response, session: SessionDep,
             token: TokenDep) -> dict[str, Any]:
    """The coach's review of your seat's moves (send the seat's token): one entry per move,
    ``{"ply", "action", "best", "value", "best_value", "loss", "mistake"}`` in the game's ``unit``
    (higher values are better; the loss is what the move made gave away against the best), and a
    one-line ``summary``. Computed once in the background and stored: while it runs the answer is
    202 with ``status`` "running" and ``done`` of ``total``. 409 while the match is being played,
    unless it was created with hints."""
    out = coach.analysis(session, request.app.state.reviewer, match_id, token)
    if out["status"] == "running":
        response.status_code = 202
    return out


@router.get("/{match_id}/hint", response_model=Hint, responses=problems(401, 403, 404, 409))
def hint(match_id: MatchId, request: Request, session: SessionDep, token: TokenDep) -> dict[str, Any]:
    """In a match created with hints, the coach's value of every legal move of your current
    decision (in the game's ``unit``) and the move it prefers. 409 when it is not your turn."""
    return coach.hint(session, request.app.state.reviewer, match_id, token)


@router.get("/{match_id}/events", response_class=StreamingResponse,
            responses={200: EVENT_STREAM, **problems(401, 403, 404, 422, 429, 503)})
async def events(match_id: MatchId, request: Request, token: TokenDep,
                 after: Annotated[int, Query(ge=-1, le=MAX_PLY)] = -1) -> StreamingResponse:
    """Server-sent events: ``move`` (with the viewer's new view) for every move as it happens,
    ``seats`` (the viewer's view) when a friend joins or a waiting match starts, ``end`` when
    the match is over. AI-only matches advance here at their ``delay_ms``; one nobody watched
    for a while waits while its creator runs ``PARLOUR_AI_ONLY_RUNNING`` others (``held``, with
    the reason in ``detail``; ``held`` again with ``detail`` null when it goes on).

    A stream sleeps until a move of its match wakes it (or, for an AI-only match, until its
    next move is due), whichever server process made the move (app/services/relay.py); a slow
    database poll with backoff is the last resort. Streams are capped per client (429) and per
    server (503)."""
    state = request.app.state
    stream = await match_events.open_stream(state.sessions, state.pool, state.ai_only_moves, match_id, token, after)
    release = state.streams.acquire(client_address(request))
    return ReleasingStream(stream, release, media_type="text/event-stream",
                           headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
