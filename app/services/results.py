"""Results of finished matches, a page at a time (one row per match and seat), and a live
learner's record over real games in windows, a page of windows at a time.

Pages are keyset pages (``app.paging``): in finished order, after the last match a page gave.
Only the columns a row shows are read (never a match's state), in two indexed queries a page.
"""
from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from typing import Iterator

from sqlalchemy import bindparam, exists, func, select
from sqlalchemy.orm import Session, aliased, sessionmaker

from app import paging
from app.models import Match, Seat
from app.services import people
from app.services.match_endings import abandon_stale
from app.services.match_views import rated_json

COLUMNS = ["match", "game", "finished_at", "seat", "type", "name", "agent", "level", "score", "won",
           "humans", "ai_only", "ending", "hints", "rated", "unrated_reason"]
EXPORT_BATCH = 500
"""Matches a streamed export reads at a time, each batch in a short read of its own."""

_MATCH = (Match.id, Match.game, Match.finished_at, Match.ai_only, Match.ending, Match.hints, Match.seed_chosen)
_SEAT = (Seat.match_id, Seat.seat, Seat.kind, Seat.name, Seat.agent, Seat.level, Seat.score, Seat.won)


def page(session: Session, game: str | None, since: datetime | None, limit: int,
         cursor: str | None) -> tuple[list[dict], str | None]:
    """The rows of up to ``limit`` finished matches after ``cursor`` (oldest first), and the
    cursor of the next page (None: this is the last)."""
    q = select(*_MATCH).where(Match.status == "finished")
    if game:
        q = q.where(Match.game == game)
    if since:
        q = q.where(Match.finished_at >= since)
    start = paging.after((Match.finished_at, Match.id), cursor, datetime, str)
    if start is not None:
        q = q.where(start)
    matches = session.execute(q.order_by(Match.finished_at, Match.id).limit(limit + 1)).all()
    more, matches = len(matches) > limit, matches[:limit]
    seats: dict[str, list] = {m.id: [] for m in matches}
    if matches:
        for s in session.execute(select(*_SEAT).where(Seat.match_id.in_(list(seats))).order_by(Seat.seat)):
            seats[s.match_id].append(s)
    rows = []
    for m in matches:
        humans = sum(1 for s in seats[m.id] if s.kind == "human")
        finished_at, ending, rated = m.finished_at.isoformat(), (m.ending or {}).get("kind", ""), rated_json(m)
        for s in seats[m.id]:
            rows.append({"match": m.id, "game": m.game, "finished_at": finished_at, "seat": s.seat, "type": s.kind,
                         "name": s.name, "agent": s.agent, "level": s.level, "score": s.score, "won": s.won,
                         "humans": humans, "ai_only": m.ai_only, "ending": ending, "hints": m.hints, **rated})
    last = matches[-1] if more else None
    return rows, None if last is None else paging.encode(last.finished_at, last.id)


def fresh_page(session: Session, game: str | None, since: datetime | None, limit: int,
               cursor: str | None) -> tuple[list[dict], str | None]:
    """``page``, after finishing as abandoned the matches nobody moved in for
    ``PARLOUR_ABANDON_AFTER_S`` (so that they are in it)."""
    abandon_stale(session)
    return page(session, game, since, limit, cursor)


def levels_record(session: Session, game: str | None) -> list[dict]:
    """People's record against each level (``people.record``) in ``game`` (None: every game),
    after finishing the stale matches as ``fresh_page`` does."""
    abandon_stale(session)
    return people.record(people.finished_rows(session, game))


def batches(sessions: sessionmaker, game: str | None, since: datetime | None,
            cursor: str | None = None) -> Iterator[list[dict]]:
    """Every row after ``cursor``, ``EXPORT_BATCH`` matches at a time (the export): a generator
    whose every step is one short read."""
    while True:
        with sessions() as session:
            rows, cursor = page(session, game, since, EXPORT_BATCH, cursor)
        yield rows
        if cursor is None:
            return


def curve(session: Session, game: str, agent: str, reset_at: datetime, window: int, limit: int,
          cursor: str | None) -> dict:
    """A learner's results (win, draw, loss: one per seat it held) over finished matches since
    ``reset_at``, oldest first, in windows of ``window``: up to ``limit`` windows after ``cursor``,
    with ``games`` counting them all and ``next`` the cursor of the next windows."""
    params = {"game": game, "agent": agent, "reset_at": reset_at}
    base = _curve_query()
    games = session.scalar(select(func.count()).select_from(base.subquery()), params)
    q = base
    start = paging.after((Match.finished_at, Match.id, Seat.seat), cursor, datetime, str, int)
    if start is not None:
        q = q.where(start)
    rows = session.execute(q.order_by(Match.finished_at, Match.id, Seat.seat).limit(window * limit + 1), params).all()
    more, rows = len(rows) > window * limit, rows[:window * limit]
    outcomes = ["win" if r.won else "loss" if r.decided else "draw" for r in rows]
    windows = []
    for i in range(0, len(outcomes), window):
        chunk = outcomes[i:i + window]
        windows.append({"games": len(chunk), **{k: chunk.count(k) for k in ("win", "draw", "loss")}})
    last = rows[-1] if more else None
    return {"games": games, "window": window, "windows": windows,
            "next": None if last is None else paging.encode(last.finished_at, last.id, last.seat)}


@lru_cache(maxsize=1)
def _curve_query():
    """``curve``'s rows: a learner's seats in finished matches, with whether anyone won."""
    other = aliased(Seat)
    anyone_won = exists().where(other.match_id == Match.id, other.won.is_(True))
    return (select(Match.finished_at, Match.id, Seat.seat, Seat.won, anyone_won.label("decided"))
            .join(Seat, Seat.match_id == Match.id)
            .where(Match.game == bindparam("game"), Match.status == "finished",
                   Match.finished_at >= bindparam("reset_at", type_=Match.finished_at.type),
                   Seat.agent == bindparam("agent")))
