"""People at the table: their names (not identities: there are no accounts), the display name
of every seat, distinct within a match, and what a page per person shows."""
from __future__ import annotations

from collections import Counter
from datetime import datetime
from functools import lru_cache

from sqlalchemy import and_, bindparam, case, func, select
from sqlalchemy.orm import Session, aliased, defer

from app import paging
from app.models import Match, Rating, Seat
from app.services import ratings

MAX_NAME = 32


def clean_name(name: str) -> str:
    """A person's name: printable text of 1 to 32 characters once trimmed (ValueError otherwise)."""
    name = name.strip()
    if not name:
        raise ValueError("name must have 1 to 32 characters")
    if not name.isprintable():
        raise ValueError("name must be printable text (no control characters)")
    if len(name) > MAX_NAME:
        raise ValueError(f"name is longer than {MAX_NAME} characters")
    return name


def display_names(seats) -> list[str]:
    """Each seat's name, made distinct within the match: names given to several seats get a
    letter each in seat order ("Defensive A", "Defensive B")."""
    counts = Counter(s.name for s in seats)
    seen: Counter = Counter()
    out = []
    for s in seats:
        if counts[s.name] > 1:
            out.append(f"{s.name} {chr(ord('A') + seen[s.name]) if seen[s.name] < 26 else seen[s.name] + 1}")
            seen[s.name] += 1
        else:
            out.append(s.name)
    return out


def record(session: Session, game: str | None = None, name: str | None = None) -> list[dict]:
    """People's record against each level: for each finished match with AIs at the table, a
    person's seat (``name``'s first, or the only person's when ``name`` is None) wins, draws or
    loses against the highest level seated (abandoned matches left out). Counted by the
    database in one query: no match is read into the process."""
    params = {k: v for k, v in (("game", game), ("name", name)) if v}
    return [{"game": r.game, "level": r.level, "agent": r.agent, "win": r.win, "draw": r.draw,
             "loss": r.games - r.win - r.draw}
            for r in session.execute(_record_query(bool(game), bool(name)), params)]


@lru_cache(maxsize=4)
def _record_query(by_game: bool, by_name: bool):
    """``record``'s statement, built once (building it cost more than running it)."""
    person = and_(Seat.kind == "human", Seat.name == bindparam("name")) if by_name else Seat.kind == "human"
    top = aliased(Seat)
    top_agent = (select(top.agent).where(top.match_id == Match.id, top.kind == "agent")
                 .order_by(func.coalesce(top.level, 0).desc(), top.seat).limit(1).scalar_subquery())
    people = func.sum(case((person, 1), else_=0))
    ais = func.sum(case((Seat.kind == "agent", 1), else_=0))
    per_match = (select(Match.id.label("id"), Match.game.label("game"), top_agent.label("agent"),
                        func.max(case((Seat.kind == "agent", func.coalesce(Seat.level, 0)))).label("level"),
                        func.min(case((person, Seat.seat))).label("first"),
                        func.max(case((Seat.won.is_(True), 1), else_=0)).label("decided"))
                 .join(Seat, Seat.match_id == Match.id)
                 .where(Match.status == "finished", func.coalesce(Match.ending["kind"].as_string(), "") != "abandoned")
                 .group_by(Match.id, Match.game)
                 .having(ais >= 1, people >= 1 if by_name else people == 1))
    if by_game:
        per_match = per_match.where(Match.game == bindparam("game"))
    if by_name:
        named = select(Seat.match_id).where(Seat.kind == "human", Seat.name == bindparam("name"))
        per_match = per_match.where(Match.id.in_(named))
    m = per_match.subquery()
    me = aliased(Seat)
    return (select(m.c.game, m.c.level, func.min(m.c.agent).label("agent"), func.count().label("games"),
                   func.sum(case((me.won.is_(True), 1), else_=0)).label("win"),
                   func.sum(case((me.won.is_(True), 0), (m.c.decided == 0, 1), else_=0)).label("draw"))
            .join(me, and_(me.match_id == m.c.id, me.seat == m.c.first))
            .group_by(m.c.game, m.c.level).order_by(m.c.game, m.c.level))


def person(session: Session, name: str, limit: int = 100, cursor: str | None = None) -> dict | None:
    """What the page of the person called ``name`` shows: their matches (newest first, ``limit``
    of them after ``cursor``, and ``next``), their record against each level, and their rating
    in each game with its history. None when no seat ever had that name."""
    ids = select(Seat.match_id).where(Seat.kind == "human", Seat.name == name)
    total = session.scalar(select(func.count()).select_from(Match).where(Match.id.in_(ids)))
    if not total:
        return None
    q = select(Match).options(defer(Match.state)).where(Match.id.in_(ids))
    start = paging.after((Match.created_at, Match.id), cursor, datetime, str, descending=True)
    if start is not None:
        q = q.where(start)
    matches = list(session.scalars(q.order_by(Match.created_at.desc(), Match.id.desc()).limit(limit + 1)))
    more, matches = len(matches) > limit, matches[:limit]
    rows = []
    for m in matches:
        shown = display_names(m.seats)
        mine = [s for s in m.seats if s.kind == "human" and s.name == name]
        rows.append({"id": m.id, "game": m.game, "status": m.status, "created_at": m.created_at.isoformat(),
                     "finished_at": m.finished_at.isoformat() if m.finished_at else None,
                     "seats": [{"display_name": shown[s.seat], "type": s.kind, "level": s.level, "won": s.won,
                                "score": s.score, "me": s in mine} for s in m.seats],
                     "won": any(s.won for s in mine) if m.status == "finished" else None})
    player = f"person:{name}"
    games = {}
    for r in session.scalars(select(Rating).where(Rating.player == player)):
        games[r.game] = {"mu": r.mu, "sigma": r.sigma, "ordinal": ratings.ordinal(r.mu, r.sigma),
                         "games": r.games, "wins": r.wins, "history": ratings.history(session, r.game, player)}
    last = matches[-1] if more else None
    return {"name": name, "player": player, "matches": rows, "total_matches": total,
            "next": None if last is None else paging.encode(last.created_at, last.id),
            "record": record(session, name=name), "ratings": games}
