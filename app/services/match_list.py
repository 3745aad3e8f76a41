"""The list of matches (``GET /api/matches``): newest first, filtered, a page at a time. Only the
columns a row shows are read, never a match's state."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, defer

from app import paging
from app.models import Match, Seat
from app.services.match_endings import abandon_stale
from app.services.match_views import rated_json, seats_json


@dataclass(frozen=True)
class MatchFilter:
    game: str | None = None
    agent: str | None = None
    level: int | None = None
    status: str | None = None
    since: datetime | None = None
    until: datetime | None = None


def list_matches(session: Session, where: MatchFilter, page: int, per_page: int, cursor: str | None) -> dict[str, Any]:
    """A page of the matches ``where`` selects: ``per_page`` after ``cursor`` (``next``: the
    cursor of the next page), or without one, page ``page`` counted from the start. Matches with
    no move for ``PARLOUR_ABANDON_AFTER_S`` are finished as abandoned first."""
    q = select(Match)
    if where.game:
        q = q.where(Match.game == where.game)
    if where.agent:
        q = q.where(Match.seats.any(Seat.agent == where.agent))
    if where.level is not None:
        q = q.where(Match.seats.any(Seat.level == where.level))
    if where.status:
        q = q.where(Match.status == where.status)
    if where.since:
        q = q.where(Match.created_at >= where.since)
    if where.until:
        q = q.where(Match.created_at <= where.until)
    start = paging.after((Match.created_at, Match.id), cursor, datetime, str, descending=True)
    abandon_stale(session)
    total = session.scalar(select(func.count()).select_from(q.subquery()))
    rows = q.options(defer(Match.state)).order_by(Match.created_at.desc(), Match.id.desc())
    rows = rows.where(start) if start is not None else rows.offset((page - 1) * per_page)
    found = list(session.scalars(rows.limit(per_page + 1)))
    more, found = len(found) > per_page, found[:per_page]
    return {"total": total, "page": page, "per_page": per_page,
            "next": paging.encode(found[-1].created_at, found[-1].id) if more else None, "matches": [
                {"id": m.id, "game": m.game, "status": m.status, "ending": m.ending, "ply": m.ply,
                 "ai_only": m.ai_only, "hints": m.hints, **rated_json(m),
                 "created_at": m.created_at.isoformat(),
                 "finished_at": m.finished_at.isoformat() if m.finished_at else None,
                 "seats": seats_json(m.seats)} for m in found]}
