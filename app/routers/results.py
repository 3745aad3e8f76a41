"""Results of finished matches (JSON or CSV), the leaderboard, and stored tournaments."""
from __future__ import annotations

import csv
import io
from datetime import datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query
from fastapi.responses import Response
from sqlalchemy import select

from app.deps import GameFilter, SessionDep
from app.models import Match, Tournament
from app.params import INT32_MAX, Instant, NameInPath
from app.problems import problems
from app.services import catalog, people, ratings
from app.services.matches import abandon_stale, rated_json
from app.services.errors import NotFound, ServiceError

router = APIRouter(prefix="/api", tags=["results"])

COLUMNS = ["match", "game", "finished_at", "seat", "type", "name", "agent", "level", "score", "won",
           "humans", "ai_only", "ending", "hints", "rated", "unrated_reason"]


def result_rows(session, game: str | None, since: datetime | None = None, limit: int = 100_000) -> list[dict]:
    abandon_stale(session)
    q = select(Match).where(Match.status == "finished")
    if game:
        q = q.where(Match.game == game)
    if since:
        q = q.where(Match.finished_at >= since)
    rows = []
    for m in session.scalars(q.order_by(Match.finished_at).limit(limit)):
        humans = sum(1 for s in m.seats if s.kind == "human")
        rated = rated_json(m)
        for s in m.seats:
            rows.append({"match": m.id, "game": m.game, "finished_at": m.finished_at.isoformat(),
                         "seat": s.seat, "type": s.kind, "name": s.name, "agent": s.agent, "level": s.level,
                         "score": s.score, "won": s.won, "humans": humans, "ai_only": m.ai_only,
                         "ending": (m.ending or {}).get("kind", ""),
                         "hints": m.hints, **rated})
    return rows


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


@router.get("/results", responses={200: {"description": "one row per finished match and seat", "content": {
    "application/json": {}, "text/csv": {"schema": {"type": "string"}}}}, **problems(404)})
def results(session: SessionDep, game: GameFilter, since: Instant | None = None,
            format: Literal["json", "csv"] = "json"):
    """One row per finished match and seat; ``ending`` says how a match ended early
    (``resigned``, ``abandoned``: no winner, no points) and is empty otherwise; ``rated`` whether
    the match counted for the ratings and, if not, ``unrated_reason`` why (its seed chosen by its
    creator, hints, abandoned)."""
    rows = result_rows(session, game, since)
    if format == "json":
        return rows
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=COLUMNS)
    writer.writeheader()
    writer.writerows(spreadsheet_safe(r) for r in rows)
    return Response(buf.getvalue(), media_type="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="parlour-results-{game if game and game.isalnum() else "all"}.csv"'})


@router.get("/leaderboard", responses=problems(404))
def leaderboard(session: SessionDep, game: GameFilter) -> dict:
    """Ratings of every agent and named person (per game: pass ``game``), from every finished
    match and every stored tournament: ``rating`` (1500 + 42 (mu - 25)), ``provisional`` until
    10 rated matches and ``display`` ("1500?"), with mu, sigma, the conservative ``ordinal``
    (mu - 3 sigma), games played and won; settled ratings first, each part best first. People
    are told apart by the name at their seat."""
    return {"model": ratings.MODEL_NAME, "players": ratings.board(session, game)}


@router.get("/leaderboard/history", responses=problems(404))
def leaderboard_history(session: SessionDep, game: Annotated[str, Query(max_length=32)],
                        player: Annotated[str, Query(max_length=200)]) -> dict:
    """One player's rating after each rated match or tournament, oldest first (the last 500).
    ``player`` is a name as the pages show it (a person's name, a level's title) or the
    leaderboard's key (``person:<name>``, ``agent:<id>``); 404 when nobody of that name is
    rated in the game, 422 when a person and a level share it (then give the key)."""
    key = ratings.resolve_player(session, catalog.known_game(game), player)
    return {"game": game, "player": key, "points": ratings.history(session, game, key)}


@router.get("/people-vs-levels", responses=problems(404))
def people_vs_levels(session: SessionDep, game: GameFilter) -> list[dict]:
    """People's record against each level: wins, draws, losses of the person's seat against
    every level seated (rated matches with one person at the table)."""
    abandon_stale(session)
    q = select(Match).where(Match.status == "finished")
    if game:
        q = q.where(Match.game == game)
    return people.record(session.scalars(q))


@router.get("/people/{name}", responses=problems(404, 422))
def person(name: NameInPath, session: SessionDep) -> dict:
    """A person's page as data: their matches (newest first, the last 100), their record against
    each level, and their rating in each game with its history. Names are not identities:
    anyone may play under any name."""
    try:
        name = people.clean_name(name)
    except ValueError as err:
        raise ServiceError(str(err)) from None
    found = people.person(session, name)
    if found is None:
        raise NotFound(f"nobody has played as {name!r} yet")
    return found


@router.get("/tournaments", responses=problems(404))
def tournaments(session: SessionDep, game: GameFilter, limit: Annotated[int, Query(ge=1, le=500)] = 50) -> list[dict]:
    q = select(Tournament)
    if game:
        q = q.where(Tournament.game == game)
    return [tournament_json(t) for t in session.scalars(q.order_by(Tournament.created_at.desc()).limit(limit))]


@router.get("/tournaments/{tournament_id}", responses=problems(404))
def tournament(tournament_id: Annotated[int, Path(ge=1, le=INT32_MAX)], session: SessionDep) -> dict:
    t = session.get(Tournament, tournament_id)
    if t is None:
        raise NotFound(f"no tournament {tournament_id}")
    return tournament_json(t)


def tournament_json(t: Tournament) -> dict:
    """A stored tournament with the unit its figures count: whole matches or single deals
    (rows stored before the unit was recorded were all single deals)."""
    whole = bool(t.result.get("whole_match", False))
    unit = t.result.get("unit") or ("whole matches" if whole else "single deals")
    return {"id": t.id, "game": t.game, "players": t.players, "games": t.games, "seed": t.seed,
            "options": t.options, "seconds": t.seconds, "created_at": t.created_at.isoformat(), **t.result,
            "whole_match": whole, "unit": unit}
