"""Matches: create, view per seat, moves, live events (SSE), AI-only control, replay, rematch."""
from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

import orjson
from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response, StreamingResponse
from pydantic import ConfigDict, Field, WithJsonSchema, model_validator
from sqlalchemy import func, select
from sqlalchemy.orm import defer

from app import paging
from app.responses import ReleasingStream
from app.deps import (Authorization, ClientDep, GameFilter, HeavyDep, PoolDep, SessionDep, TokenDep, bearer,
                      client_address, open_session)
from app.match_schema import match_rules, seat_rules
from app.params import JSON_SAFE_MAX, Body, Instant, MatchId, Name
from app.problems import problems
from app.models import Match, Seat
from app.services import coach, invites, matches as svc
from app.services.notifier import NOTIFIER
from app.services.errors import Unauthorized

router = APIRouter(prefix="/api/matches", tags=["matches"])

MAX_PLY = 1_000_000


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


def hot_json(content: dict) -> Response:
    """An answer holding a table's view, made JSON by orjson at once: FastAPI's own way validates
    a returned dict and then works out every value's type as it writes, about 4x slower on a
    table's view, and cannot write the moves a process remembers already written
    (``svc.Played``)."""
    return Response(orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS), media_type="application/json")


def event_json(content: dict) -> str:
    """An event stream's data line: the same JSON as ``hot_json``."""
    return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS).decode()


def created(match, secrets: dict) -> dict:
    """The new match's id and secrets: each person's token, and for each friend's seat the path of
    its invite link (the token rides in the fragment, which browsers never send to a server)."""
    control = secrets.pop("control", None)
    invites = {str(s.seat): f"/play/{match.id}#join={s.seat}.{secrets[s.seat]}" for s in match.seats if s.invite}
    return {"id": match.id, "status": match.status, "tokens": {str(k): v for k, v in secrets.items()},
            **({"invites": invites} if invites else {}), **({"control_token": control} if control else {})}


@router.post("", status_code=201, responses=problems(400, 404, 413, 422, 429))
async def create(body: MatchIn, session: SessionDep, pool: PoolDep, client: ClientDep) -> dict:
    """Create a match. Human seats get a secret token each (send it as ``Authorization: Bearer``);
    an AI-only match gets a ``control_token`` for pausing, stepping and its speed. Friends' seats
    get a token too, and an invite link each (``invites``): the match is ``waiting`` until every
    friend has joined (``POST /join``) or the creator starts it (``POST /start``).

    429 beyond ``PARLOUR_CREATE_LIMIT`` new matches a minute from one address, or, for an
    AI-only match, beyond ``PARLOUR_AI_ONLY_RUNNING`` AI-only matches running at once from it.
    An AI-only match pauses at least ``PARLOUR_AI_ONLY_MIN_DELAY_MS`` between moves: a smaller
    ``delay_ms`` is raised to it (the answer's view says the delay it got)."""
    seats = [svc.SeatRequest(s.type, s.name, s.level, s.agent) for s in body.seats]
    args = (session, pool, body.game, seats, body.options, body.seed, body.delay_ms)
    if svc.creates_at_once(session, body.game, seats):  # on the event loop, as a move is (see move)
        match, secrets = svc.create_match(*args, client=client, hints=body.hints)
    else:
        match, secrets = await run_in_threadpool(svc.create_match, *args, client=client, hints=body.hints)
    return created(match, secrets)


@router.get("", responses=problems(404, 422))
async def list_matches(request: Request, session: SessionDep, heavy: HeavyDep, game: GameFilter,
                       agent: Annotated[str | None, Query(max_length=64)] = None,
                       level: Annotated[int | None, Query(ge=1, le=100)] = None,
                       status: Literal["waiting", "active", "finished"] | None = None,
                       since: Instant | None = None, until: Instant | None = None,
                       page: Annotated[int, Query(ge=1, le=100_000)] = 1,
                       per_page: Annotated[int, Query(ge=1, le=200)] = 20,
                       cursor: paging.CursorParam = None) -> dict:
    """Matches, newest first, filtered, ``per_page`` at a time: ``next`` is the cursor of the
    next page (pass it as ``cursor``: it costs the same however deep; ``page`` counts from the
    start). Matches with no move for ``PARLOUR_ABANDON_AFTER_S`` are finished as abandoned
    first (``ending``). ``rated``: whether the match counts (or will) for the ratings; if not,
    ``unrated_reason`` says why."""
    q = select(Match)
    if game:
        q = q.where(Match.game == game)
    if agent:
        q = q.where(Match.seats.any(Seat.agent == agent))
    if level is not None:
        q = q.where(Match.seats.any(Seat.level == level))
    if status:
        q = q.where(Match.status == status)
    if since:
        q = q.where(Match.created_at >= since)
    if until:
        q = q.where(Match.created_at <= until)
    start = paging.after((Match.created_at, Match.id), cursor, datetime, str, descending=True)

    def read() -> dict:
        svc.abandon_stale(session)
        total = session.scalar(select(func.count()).select_from(q.subquery()))
        rows = q.options(defer(Match.state)).order_by(Match.created_at.desc(), Match.id.desc())
        rows = rows.where(start) if start is not None else rows.offset((page - 1) * per_page)
        found = list(session.scalars(rows.limit(per_page + 1)))
        more, found = len(found) > per_page, found[:per_page]
        return {"total": total, "page": page, "per_page": per_page,
                "next": paging.encode(found[-1].created_at, found[-1].id) if more else None, "matches": [
                    {"id": m.id, "game": m.game, "status": m.status, "ending": m.ending, "ply": m.ply,
                     "ai_only": m.ai_only, "hints": m.hints, **svc.rated_json(m),
                     "created_at": m.created_at.isoformat(),
                     "finished_at": m.finished_at.isoformat() if m.finished_at else None,
                     "seats": svc.seats_json(m.seats)} for m in found]}

    return await heavy.run(read)


@router.get("/{match_id}", response_model=dict, responses=problems(401, 403, 404))
async def view(match_id: MatchId, request: Request, authorization: Authorization = None) -> Response:
    """The spectator's view, or with a seat's token that seat's view and its legal actions.
    ``rated`` and ``unrated_reason``: whether the match counts for the ratings, and if not why
    (its creator chose the seed, hints, abandoned); ``learning``, once it is over, what each live
    learner made of it."""
    # Read-only and short (three indexed reads; SQLite in WAL mode never waits for a writer
    # to read): done on the event loop, which saves two thread hops.
    token = bearer(authorization)
    with open_session(request) as session:
        match = svc.read_match(session, match_id)
        return hot_json(svc.match_view(session, match, svc.seat_of(match, token)))


@router.post("/{match_id}/moves", response_model=dict, responses=problems(400, 401, 403, 404, 409, 413, 422))
async def move(match_id: MatchId, body: MoveIn, request: Request, authorization: Authorization = None) -> Response:
    """Play a move for your seat; AI seats reply. Returns your new view, with ``moves`` holding
    only the moves made by this request (``GET`` the match for the last ones before them), and
    ``made``: the same moves, each with your view after it."""
    token, pool = bearer(authorization), request.app.state.pool
    with open_session(request) as session:
        match = svc.read_match(session, match_id)

        def play() -> Response:
            seat = svc.seat_of(match, token)
            if seat is None:
                raise Unauthorized("moves need the seat's token: Authorization: Bearer <token>")
            game = svc.get_game(match.game)
            made = svc.play_human(session, pool, match, seat, body.action, body.ply)
            moves = svc.moves_json(game, match, [m for m, _ in made], seat)
            return hot_json({**svc.match_view(session, match, seat, view=made[-1][1], since=made[0][0].ply),
                             "made": [{**m, "view": v} for m, (_, v) in zip(moves, made)]})

        # Replies that take about a millisecond are made on the event loop: under load a hop to
        # one of 40 worker threads doubled a move's CPU (thread switches, the GIL passed back and
        # forth) and let the moves overtake each other. A seat that searches thinks in a thread, and
        # so does a live learner whose table this process has not built yet (Harel's takes seconds).
        if svc.replies_at_once(session, match):
            return play()
        return await run_in_threadpool(play)


@router.post("/{match_id}/resign", response_model=dict, responses=problems(401, 403, 404, 409))
async def resign(match_id: MatchId, session: SessionDep, pool: PoolDep, token: TokenDep) -> Response:
    """Concede for your seat (any time, your turn or not): the match ends, every other seat
    wins. Needs the seat's token (401 without, 403 with another's); 409 once the match is over."""
    def run() -> dict:
        match = svc.get_match(session, match_id)
        seat = svc.seat_of(match, token)
        if seat is None:
            raise Unauthorized("resigning needs the seat's token: Authorization: Bearer <token>")
        svc.resign(session, pool, match, seat)
        return svc.match_view(session, match, seat)

    return hot_json(await run_in_threadpool(run))


@router.post("/{match_id}/join", response_model=dict, responses=problems(400, 401, 403, 404, 409, 413, 422))
async def join(match_id: MatchId, body: JoinIn, session: SessionDep, pool: PoolDep, token: TokenDep,
               client: ClientDep) -> Response:
    """Take a friend's seat with the token of its invite link, under a name; the match starts when
    every friend's seat is taken. Returns the seat's view."""
    def run() -> dict:
        match = svc.get_match(session, match_id)
        seat = svc.seat_of(match, token)
        if seat is None:
            raise Unauthorized("joining needs the invite's token: Authorization: Bearer <token>")
        invites.join(session, pool, match, seat, body.name, client)
        return svc.match_view(session, svc.read_match(session, match_id), seat)

    return hot_json(await run_in_threadpool(run))


@router.post("/{match_id}/start", response_model=dict, responses=problems(400, 401, 403, 404, 409, 413, 422))
async def start(match_id: MatchId, body: StartIn, session: SessionDep, pool: PoolDep, token: TokenDep) -> Response:
    """The creator starts a waiting match at once, with an AI of the given level in each friend's
    seat nobody has taken. Returns the creator's view."""
    def run() -> dict:
        match = svc.get_match(session, match_id)
        seat = svc.seat_of(match, token)
        if seat is None:
            raise Unauthorized("starting needs the creator's token: Authorization: Bearer <token>")
        invites.start(session, pool, match, seat, {int(number): level for number, level in body.levels.items()})
        return svc.match_view(session, svc.read_match(session, match_id), seat)

    return hot_json(await run_in_threadpool(run))


@router.post("/{match_id}/control", responses=problems(400, 401, 403, 404, 409, 413, 422, 429))
def control(match_id: MatchId, body: ControlIn, session: SessionDep, token: TokenDep) -> dict:
    """Pause, resume, step or change the speed of a watched AI-only match: needs the
    ``control_token`` its creation returned (anyone may watch). A delay below
    ``PARLOUR_AI_ONLY_MIN_DELAY_MS`` is raised to it; resuming is refused (429) while its creator
    runs ``PARLOUR_AI_ONLY_RUNNING`` other AI-only matches."""
    match = svc.control(session, svc.get_match(session, match_id), token, body.action, body.delay_ms)
    return {"paused": match.paused, "steps": match.steps, "delay_ms": match.delay_ms}


@router.post("/{match_id}/rematch", status_code=201, responses=problems(400, 401, 403, 404, 413, 422, 429))
def rematch(match_id: MatchId, session: SessionDep, pool: PoolDep, token: TokenDep, client: ClientDep,
            body: RematchIn | None = None) -> dict:
    """A new match with the same seats (rotated with ``swap``; no body: not rotated); the caller
    must hold a seat's token unless the match was AI-only. The other people at the table get
    friends' seats (with invite links, under their names). Returns the new id, tokens and invites."""
    old = svc.get_match(session, match_id)
    caller = svc.seat_of(old, token)
    if not old.ai_only and caller is None:
        raise Unauthorized("a rematch needs the token of a seat of this match")
    # at a table of several people, the others are invited again (their links go to the caller)
    seats = [svc.SeatRequest("friend" if s.kind == "human" and caller is not None and s.seat != caller else s.kind,
                             s.name, s.level, s.agent) for s in old.seats]
    if body is not None and body.swap:
        seats = seats[1:] + seats[:1]
    match, secrets = svc.create_match(session, pool, old.game, seats, old.options, None, old.delay_ms,
                                      rematch_of=old.id, client=client, hints=old.hints)
    return created(match, secrets)


@router.get("/{match_id}/replay", responses=problems(401, 403, 404))
async def replay(match_id: MatchId, session: SessionDep, token: TokenDep, heavy: HeavyDep) -> dict:
    """Every move with the acting AI's explanation and the view after it (rebuilt from the
    start: its cost grows with the match, so it queues with the other heavy reads)."""
    def read() -> dict:
        match = svc.get_match(session, match_id)
        return svc.replay(session, match, svc.seat_of(match, token))

    return await heavy.run(read)


@router.get("/{match_id}/analysis", responses={**problems(401, 403, 404, 409),
                                               202: {"description": "still running: status, done of total"}})
def analysis(match_id: MatchId, request: Request, response: Response, session: SessionDep, token: TokenDep) -> dict:
    """The coach's review of your seat's moves (send the seat's token): one entry per move,
    ``{"ply", "action", "best", "value", "best_value", "loss", "mistake"}`` in the game's ``unit``
    (higher values are better; the loss is what the move made gave away against the best), and a
    one-line ``summary``. Computed once in the background and stored: while it runs the answer is
    202 with ``status`` "running" and ``done`` of ``total``. 409 while the match is being played,
    unless it was created with hints."""
    match = svc.get_match(session, match_id)
    out = coach.analysis(session, request.app.state.reviewer, match, svc.seat_of(match, token))
    if out["status"] == "running":
        response.status_code = 202
    return out


@router.get("/{match_id}/hint", responses=problems(401, 403, 404, 409))
def hint(match_id: MatchId, request: Request, session: SessionDep, token: TokenDep) -> dict:
    """In a match created with hints, the coach's value of every legal move of your current
    decision (in the game's ``unit``) and the move it prefers. 409 when it is not your turn."""
    match = svc.get_match(session, match_id)
    return coach.hint(request.app.state.reviewer, match, svc.seat_of(match, token))


@router.get("/{match_id}/events", responses=problems(401, 403, 404, 422, 429, 503))
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
    sessions, pool = request.app.state.sessions, request.app.state.pool

    def check() -> tuple[int | None, bool]:
        with sessions() as session:
            match = svc.get_match(session, match_id)
            return svc.seat_of(match, token), match.ai_only

    seat, ai_only = await run_in_threadpool(check)
    release = request.app.state.streams.acquire(client_address(request))
    # An AI-only match's polls make its moves: they queue in one lane per process, so however
    # many are watched, the other requests compete with one such thread.
    run = request.app.state.ai_only_moves.run if ai_only else run_in_threadpool
    held: list[str | None] = [None]  # why the match may not move now (its creator's budget)

    def poll(last: int, seen: tuple | None) -> tuple[list[dict], dict | None, tuple, bool, float | None]:
        """New moves after ``last`` (making the next move of an AI-only match if it is due), the
        viewer's view when the seats or the status changed since ``seen`` (a friend joined, the
        match started), the new ``seen``, whether the match is over, and the seconds until its
        next move is due (None: not AI-only, or held back)."""
        with sessions() as session:
            match = svc.read_match(session, match_id)
            due = svc.due(match)
            held[0] = svc.resuming_held(session, match) if due else None
            if due and held[0] is None:
                try:
                    svc.ai_move(session, pool, match)
                except svc.Conflict:
                    session.rollback()  # another watcher moved first
                    match = svc.read_match(session, match_id)
            game = svc.get_game(match.game)
            new = svc.moves_after(session, match_id, last)
            out = []
            if new:
                view = svc.match_view(session, match, seat)
                out = [{"move": m} for m in svc.moves_json(game, match, new, seat)]
                out[-1]["match"] = view
            now_seen = (match.status, tuple((x.kind, x.name, x.invite) for x in match.seats))
            changed = now_seen != seen and (seen is not None or match.status == "waiting")
            seats = {"match": out[-1]["match"] if out else svc.match_view(session, match, seat)} if changed else None
            return out, seats, now_seen, match.status == "finished", None if held[0] else svc.due_in(match)

    async def stream():
        last, seen = after, None
        fallback = FALLBACK_POLL_S[0]
        sub = NOTIFIER.subscribe(match_id)
        told = None
        try:
            yield "retry: 2000\n\n"
            while True:
                sub.arm()
                items, seats, seen, over, due_in = await run(poll, last, seen)
                if held[0] != told:
                    told = held[0]
                    yield f"event: held\ndata: {event_json({'detail': told})}\n\n"
                if seats:
                    yield f"event: seats\ndata: {event_json(seats)}\n\n"
                for item in items:
                    last = item["move"]["ply"]
                    yield f"event: move\ndata: {event_json(item)}\n\n"
                if over:
                    yield "event: end\ndata: {}\n\n"
                    return
                if due_in is not None and due_in <= fallback:
                    await sub.wait(due_in)  # the next AI move is due: no thread held meanwhile
                    continue
                if await sub.wait(fallback):
                    fallback = FALLBACK_POLL_S[0]
                else:
                    fallback = min(2 * fallback, FALLBACK_POLL_S[1])
                    yield ": waiting\n\n"  # a comment line: finds closed connections
        finally:
            sub.close()

    return ReleasingStream(stream(), release, media_type="text/event-stream",
                       headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


FALLBACK_POLL_S = (1.0, 10.0)
"""A stream not woken re-reads the database after 1 s, then 2, 4, 8, 10, 10... (in case a
wake-up from another process was lost); any wake-up starts the backoff again."""
