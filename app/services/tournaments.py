"""Stored tournaments (``parlour tournament`` stores them), newest first, a page at a time."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app import paging
from app.models import Tournament
from app.services.errors import NotFound


def page(session: Session, game: str | None, limit: int, cursor: str | None) -> tuple[list[dict[str, Any]], str | None]:
    """Up to ``limit`` tournaments after ``cursor``, and the cursor of the next page (None: the last)."""
    q = select(Tournament)
    if game:
        q = q.where(Tournament.game == game)
    start = paging.after((Tournament.created_at, Tournament.id), cursor, datetime, int, descending=True)
    if start is not None:
        q = q.where(start)
    found = list(session.scalars(q.order_by(Tournament.created_at.desc(), Tournament.id.desc()).limit(limit + 1)))
    more, found = len(found) > limit, found[:limit]
    after = paging.encode(found[-1].created_at, found[-1].id) if more else None
    return [tournament_json(t) for t in found], after


def one(session: Session, tournament_id: int) -> dict[str, Any]:
    t = session.get(Tournament, tournament_id)
    if t is None:
        raise NotFound(f"no tournament {tournament_id}")
    return tournament_json(t)


def tournament_json(t: Tournament) -> dict[str, Any]:
    """A stored tournament with the unit its figures count: whole matches or single deals
    (rows stored before the unit was recorded were all single deals)."""
    whole = bool(t.result.get("whole_match", False))
    unit = t.result.get("unit") or ("whole matches" if whole else "single deals")
    return {"id": t.id, "game": t.game, "players": t.players, "games": t.games, "seed": t.seed,
            "options": t.options, "seconds": t.seconds, "created_at": t.created_at.isoformat(), **t.result,
            "whole_match": whole, "unit": unit}
