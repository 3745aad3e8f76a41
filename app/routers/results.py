"""Results of finished matches (JSON or CSV), the leaderboard, and stored tournaments."""
from __future__ import annotations

import csv
import io
from datetime import datetime
from typing import Annotated, Literal

import orjson
from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response, StreamingResponse

from app import paging
from app.responses import ReleasingStream
from app.deps import GameFilter, HeavyDep, SessionDep, client_address
from app.params import INT32_MAX, Instant, NameInPath
from app.problems import problems
from app.schemas.results import Leaderboard, LevelRecord, Person, RatingHistory, ResultRow, TournamentOut
from app.services import catalog, people, ratings, results as results_service, tournaments as tournaments_service

router = APIRouter(prefix="/api", tags=["results"])

COLUMNS = results_service.COLUMNS

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value):
    """One cell as the CSV writes it: booleans ``true``/``false`` as in the JSON (not Python's
    ``True``), and text no spreadsheet runs as a formula: starting with = + - @ tab or carriage
    return, it gets a leading apostrophe (numbers we wrote ourselves are left as numbers)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA_STARTS) else value


def spreadsheet_safe(row: dict) -> dict:
    """A result row as the CSV writes it (``csv_cell``)."""
    return {k: csv_cell(v) for k, v in row.items()}


def csv_text(rows: list[dict], header: bool) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf)
    if header:
        writer.writerow(COLUMNS)
    writer.writerows([safe[k] for k in COLUMNS] for safe in map(spreadsheet_safe, rows))
    return buf.getvalue()


def csv_name(game: str | None) -> str:
    return f"parlour-results-{game if game and game.isalnum() else 'all'}.csv"


RESULT_ROWS = {"description": "one row per finished match and seat (a page: `Link` names the next)",
               "model": list[ResultRow], "content": {"text/csv": {"schema": {"type": "string"}}}}


@router.get("/results", responses={200: RESULT_ROWS, **problems(404)})
async def results(request: Request, session: SessionDep, heavy: HeavyDep, game: GameFilter,
                  since: Instant | None = None, format: Literal["json", "csv"] = "json",
                  limit: Annotated[int, Query(ge=1, le=1000, description="matches a page")] = 200,
                  cursor: paging.CursorParam = None):
    """One row per finished match and seat, oldest first, ``limit`` matches a page (200 unless
    given, at most 1000); the ``Link`` header (``rel="next"``) names the next page, absent on the
    last. ``ending`` says how a match ended early (``resigned``, ``abandoned``: no winner, no
    points) and is empty otherwise; ``rated`` whether the match counted for the ratings and, if
    not, ``unrated_reason`` why (its seed chosen by its creator, hints, abandoned). Every row at
    once: ``/api/results/export``."""
    rows, after = await heavy.run(results_service.fresh_page, session, game, since, limit, cursor)
    link = paging.next_link(request, after)
    if format == "json":
        return paging.json_answer(rows, link)
    return Response(csv_text(rows, header=True), media_type="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{csv_name(game)}"', **link})


@router.get("/results/export", response_class=StreamingResponse, responses={**problems(404, 429, 503), 200: {
    "description": "every row, streamed", "model": list[ResultRow], "content": {"text/csv": {"schema": {"type": "string"}}}}})
async def export(request: Request, heavy: HeavyDep, game: GameFilter, since: Instant | None = None,
                 format: Literal["json", "csv"] = "csv", cursor: paging.CursorParam = None) -> StreamingResponse:
    """Every row of ``/api/results`` (after ``cursor`` when given) as one CSV file or JSON array,
    streamed as it is read, 500 matches at a time. At most two exports run at once from one
    address (429) and eight in a server process (503)."""
    if cursor is not None:
        paging.decode(cursor, datetime, str)  # 422 before the stream starts
    release = request.app.state.exports.acquire(client_address(request))
    sessions = request.app.state.sessions
    read = iter(results_service.batches(sessions, game, since, cursor))

    async def stream():
        written = 0  # pieces written
        while (rows := await heavy.run(next, read, None)) is not None:
            if format == "csv":
                yield csv_text(rows, header=not written)
            elif rows:
                yield ("," if written else "[") + orjson.dumps(rows).decode()[1:-1]
            else:
                continue
            written += 1
        if format == "json":
            yield "]" if written else "[]"

    media, name = ("text/csv", csv_name(game)) if format == "csv" else ("application/json", csv_name(game)[:-3] + "json")
    return ReleasingStream(stream(), release, media_type=media,
                           headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.get("/leaderboard", response_model=Leaderboard, responses=problems(404))
async def leaderboard(session: SessionDep, heavy: HeavyDep, game: GameFilter,
                      limit: Annotated[int, Query(ge=1, le=1000, description="players a page")] = 200,
                      cursor: paging.CursorParam = None) -> dict:
    """Ratings of every agent and named person (per game: pass ``game``), from every finished
    match and every stored tournament: ``rating`` (1500 + 42 (mu - 25)), ``provisional`` until
    10 rated matches and ``display`` ("1500?"), with mu, sigma, the conservative ``ordinal``
    (mu - 3 sigma), games played and won; settled ratings first, each part best first, ``limit``
    players a page (``next``: the cursor of the next). People are told apart by the name at
    their seat."""
    players, after = await heavy.run(ratings.board, session, game, limit, cursor)
    return {"model": ratings.MODEL_NAME, "players": players, "next": after}


@router.get("/leaderboard/history", response_model=RatingHistory, responses=problems(404))
def leaderboard_history(session: SessionDep, game: Annotated[str, Query(max_length=32)],
                        player: Annotated[str, Query(max_length=200)]) -> dict:
    """One player's rating after each rated match or tournament, oldest first (the last 500).
    ``player`` is a name as the pages show it (a person's name, a level's title) or the
    leaderboard's key (``person:<name>``, ``agent:<id>``); 404 when nobody of that name is
    rated in the game, 422 when a person and a level share it (then give the key)."""
    return ratings.player_history(session, catalog.known_game(game), player)


@router.get("/people-vs-levels", response_model=list[LevelRecord], responses=problems(404))
async def people_vs_levels(session: SessionDep, heavy: HeavyDep, game: GameFilter) -> list[dict]:
    """People's record against each level: wins, draws, losses of the person's seat against
    every level seated (rated matches with one person at the table). One row per game and
    level; the matches are read as the few columns it needs, never their state."""
    return await heavy.run(results_service.levels_record, session, game)


@router.get("/people/{name}", response_model=Person, responses=problems(404, 422))
async def person(name: NameInPath, session: SessionDep, heavy: HeavyDep,
                 limit: Annotated[int, Query(ge=1, le=200, description="matches a page")] = 100,
                 cursor: paging.CursorParam = None) -> dict:
    """A person's page as data: their matches (newest first, ``limit`` a page, ``next``: the
    cursor of the next), their record against each level, and their rating in each game with
    its history. Names are not identities: anyone may play under any name."""
    return await heavy.run(people.person, session, name, limit, cursor)


@router.get("/tournaments", response_model=list[TournamentOut], responses=problems(404))
def tournaments(request: Request, session: SessionDep, game: GameFilter,
                limit: Annotated[int, Query(ge=1, le=500, description="tournaments a page")] = 50,
                cursor: paging.CursorParam = None) -> Response:
    """Stored tournaments, newest first, ``limit`` a page; the ``Link`` header names the next."""
    found, after = tournaments_service.page(session, game, limit, cursor)
    return paging.json_answer(found, paging.next_link(request, after))


@router.get("/tournaments/{tournament_id}", response_model=TournamentOut, responses=problems(404))
def tournament(tournament_id: Annotated[int, Path(ge=1, le=INT32_MAX)], session: SessionDep) -> dict:
    return tournaments_service.one(session, tournament_id)
