"""Agents: descriptions, strength, learning curves, live learners (reset/copy), what an
agent shows of what it has learned (inspect: MENACE's matchboxes)."""
from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from pydantic import Field

from agents.catalog import spec
from agents.saved_files import load_saved
from agents.spec import InspectQueryError, NothingToInspect
from app import paging
from app.deps import AdminDep, GameFilter, HeavyDep, PoolDep, SessionDep
from app.problems import problems
from app.schemas.games import (AgentDetail, AgentOut, Box, Boxes, Curve, Inspection, LearnerChange, Quarantine, Snapshots,
                               TrainingRun)
from app.params import INT32_MAX, Body
from app.services import catalog, live, results
from app.services.errors import NotFound, ServiceError
from engine import GameError

router = APIRouter(prefix="/api/agents", tags=["agents"])


def known(game: str, agent: str):
    """The agent's spec; 404 for an unknown game or agent."""
    try:
        return spec(catalog.known_game(game), agent)
    except GameError as err:
        raise NotFound(str(err)) from None


def known_live(game: str, agent: str):
    if known(game, agent).live is None:
        raise NotFound(f"{agent} is not a live learner (live learners keep their learning in the database)")


@router.get("", response_model=list[AgentOut], responses=problems(404))
def list_agents(session: SessionDep, game: GameFilter) -> list[dict]:
    return catalog.all_agents(game)


@router.get("/training-runs", tags=["agents"], response_model=list[TrainingRun], responses=problems(404))
def training_runs(game: GameFilter) -> list[dict]:
    """How every shipped agent was trained: command, seed, games, date, time (curves: /curve)."""
    from agents.catalog import agent_specs, playable_games

    runs, seen = [], set()
    for g in [game] if game else playable_games():
        for s in agent_specs(g):
            if not s.saved or (g, s.saved) in seen:
                continue
            seen.add((g, s.saved))
            try:
                meta = load_saved(g, s.saved).get("meta", {})
            except GameError:
                continue
            runs.append({"game": g, "file": s.saved, "agents": [x.id for x in agent_specs(g) if x.saved == s.saved],
                         **{k: v for k, v in meta.items() if k != "curve"}})
    return runs


@router.get("/{game}/{agent}", response_model=AgentDetail, response_model_exclude_unset=True,
            responses=problems(404))
def get_agent(game: str, agent: str, session: SessionDep) -> dict:
    known(game, agent)
    data = catalog.agent_json(game, agent)
    if data["live"]:
        row = live.ensure(session, game, agent)
        data["live_state"] = {"games": row.games, "origin": row.origin, "reset_at": row.reset_at.isoformat()}
    return data


class ResetBody(Body):
    to: Literal["beginner", "trained"] = "beginner"


class RollbackBody(Body):
    snapshot: int = Field(ge=1, le=INT32_MAX, description="a snapshot id from .../snapshots")


ADMIN = problems(400, 401, 403, 404, 409, 413, 422)


@router.post("/{game}/{agent}/reset", dependencies=[AdminDep], response_model=LearnerChange, responses=ADMIN)
def reset_agent(game: str, agent: str, body: ResetBody, session: SessionDep) -> dict:
    """Reset a live learner to its beginner table, or copy the shipped trained one into it
    (administrator only; a snapshot of the table it had is kept first)."""
    known_live(game, agent)
    row = live.reset(session, game, agent, body.to)
    return {"agent": agent, "game": game, "origin": row.origin, "games": row.games}


@router.get("/{game}/{agent}/snapshots", dependencies=[AdminDep], response_model=Snapshots,
            responses=problems(401, 403, 404))
def list_snapshots(game: str, agent: str, session: SessionDep) -> dict:
    """A live learner's snapshots, newest first (administrator only)."""
    known_live(game, agent)
    return {"agent": agent, "game": game,
            "snapshots": [live.snapshot_json(s) for s in live.snapshots(session, game, agent)]}


@router.get("/{game}/{agent}/quarantine", dependencies=[AdminDep], response_model=Quarantine,
            responses=problems(401, 403, 404, 422))
def list_quarantine(game: str, agent: str, session: SessionDep,
                    limit: Annotated[int, Query(ge=1, le=1000)] = 100) -> dict:
    """A live learner's quarantined games, newest first (administrator only): the games it had
    learned since its last good table when its canary failed. They are kept, and never learned
    from again."""
    known_live(game, agent)
    return {"agent": agent, "game": game,
            "games": [live.quarantined_json(g) for g in live.quarantined(session, game, agent, limit)]}


@router.post("/{game}/{agent}/rollback", dependencies=[AdminDep], response_model=LearnerChange, responses=ADMIN)
def rollback_agent(game: str, agent: str, body: RollbackBody, session: SessionDep) -> dict:
    """Give a live learner back the table a snapshot holds (administrator only; a snapshot of
    the current table is kept first)."""
    known_live(game, agent)
    row = live.rollback(session, game, agent, body.snapshot)
    return {"agent": agent, "game": game, "origin": row.origin, "games": row.games}


CURVE_GAMES = 20_000
"""At most this many games a page of a live curve reads (windows × window)."""


@router.get("/{game}/{agent}/curve", response_model=Curve, responses=problems(404))
async def learning_curve(game: str, agent: str, session: SessionDep, heavy: HeavyDep,
                         window: Annotated[int, Query(ge=1, le=10_000)] = 20,
                         limit: Annotated[int, Query(ge=1, le=1000, description="windows a page")] = 100,
                         cursor: paging.CursorParam = None) -> dict:
    """Training curve from the shipped agent's metadata, and for live learners the record
    over real games since their last reset, oldest first, in windows of ``window`` games:
    ``limit`` windows a page (as many as fit in 20,000 games), ``next`` the cursor of the next
    windows, ``games`` counting them all."""
    s = known(game, agent)
    out: dict = {"agent": agent, "game": game, "training": None, "live": None}
    if s.saved:
        try:
            out["training"] = load_saved(game, s.saved).get("meta", {}).get("curve")
        except GameError:
            out["training"] = None
    if s.live is not None:
        def read() -> dict:
            row = live.ensure(session, game, agent)
            windows = min(limit, max(1, CURVE_GAMES // window))
            return results.curve(session, game, agent, row.reset_at, window, windows, cursor)

        out["live"] = await heavy.run(read)
    return out


def _inspect(session, pool, game: str, agent: str, query: dict[str, str]) -> dict[str, Any]:
    inspector = known(game, agent).inspect
    if inspector is None:
        raise NotFound(f"{agent} offers nothing to inspect")
    unknown = sorted(set(query) - set(inspector.params))
    if unknown:
        reads = ", ".join(inspector.params) or "no parameters"
        raise ServiceError(f"{agent}'s inspector reads {reads}, not {', '.join(unknown)}", field=f"query.{unknown[0]}")
    try:
        data = inspector.read(pool.get(session, game, agent), query)
    except InspectQueryError as err:
        raise ServiceError(str(err)) from None
    except NothingToInspect as err:
        raise NotFound(str(err)) from None
    return data


@router.get("/{game}/{agent}/inspect", response_model=Inspection, responses=problems(404, 422))
def inspect(game: str, agent: str, request: Request, session: SessionDep, pool: PoolDep) -> dict[str, Any]:
    """What an agent shows of what it has learned, for the query parameters its inspector reads
    (``inspect`` in the agent's description names them): MENACE's matchboxes, Harel's values.
    404 for an agent that offers nothing to inspect, or a query naming nothing it holds."""
    return {"agent": agent, "game": game, **_inspect(session, pool, game, agent, dict(request.query_params))}


@router.get("/{game}/{agent}/boxes", response_model=Boxes | Box, responses=problems(404, 422))
def boxes(game: str, agent: str, session: SessionDep, pool: PoolDep,
          position: Annotated[str | None, Query(max_length=32)] = None,
          mark: Literal["X", "O"] = "X") -> dict[str, Any]:
    """MENACE's matchboxes (the ``inspect`` route under its first name): all its boxes (as X or
    as O), or the box of one position (any orientation): bead counts per cell of that
    position, ``null`` on taken cells."""
    if position is None:
        return {"agent": agent, **_inspect(session, pool, game, agent, {"mark": mark})}
    return _inspect(session, pool, game, agent, {"mark": mark, "position": position})
