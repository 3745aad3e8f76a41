"""People at the table: their names (not identities: there are no accounts), the display name
of every seat, distinct within a match, and what a page per person shows."""
from __future__ import annotations

import re
from collections import Counter
from datetime import datetime
from types import SimpleNamespace

from sqlalchemy import func, select
from sqlalchemy.orm import Session, defer

from app import paging
from app.models import Match, Rating, Seat
from app.services import ratings
from app.services.errors import NotFound, ServiceError

MAX_NAME = 32
UNPRINTABLE = (r"\x00-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f"
               r"\ue000-\uf8ff\ufdd0-\ufdef\ufeff\ufff9-\uffff")
"""What a name may not hold: control characters, invisible and direction-changing format
characters, private-use characters and non-characters (and, outside any schema's reach,
lone surrogates)."""
NAME_PATTERN = (rf"^[^\S{UNPRINTABLE}]*[^\s{UNPRINTABLE}]"
                rf"(?:[^{UNPRINTABLE}]{{0,{MAX_NAME - 2}}}[^\s{UNPRINTABLE}])?[^\S{UNPRINTABLE}]*$")
"""A name as given, for the schema: 1 to 32 characters once the spaces around it are trimmed,
none of them UNPRINTABLE. ``clean_name`` accepts exactly these."""
_UNPRINTABLE = re.compile(rf"[{UNPRINTABLE}\ud800-\udfff]")


def clean_name(name: str) -> str:
    """A person's name, trimmed: printable text of 1 to 32 characters (ValueError otherwise)."""
    if _UNPRINTABLE.search(name):
        raise ValueError("name must be printable text (no control or invisible characters)")
    name = name.strip()
    if not name:
        raise ValueError(f"name must have 1 to {MAX_NAME} characters")
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


def record(matches, name: str | None = None) -> list[dict]:
    """People's record against each level: for each finished match with AIs at the table, a
    person's seat (``name``'s, or the only person's when ``name`` is None) wins, draws or loses
    against every level seated, as the ratings rank them: a seat that won is ahead of one that
    did not, two that both won or both did not are level (a draw). A level seated twice counts
    once, by its best seat. The matches the ratings leave out are left out (abandoned, with
    hints, or with a seed chosen by the creator)."""
    table: dict[tuple, dict] = {}
    for m in matches:
        people = [s for s in m.seats if s.kind == "human" and (name is None or s.name == name)]
        ais = [s for s in m.seats if s.kind == "agent"]
        if not ais or (len(people) != 1 if name is None else not people) or ratings.unrated_reason(m) is not None:
            continue
        me = bool(people[0].won)
        best: dict[tuple, tuple[bool, str]] = {}  # each level (an agent of no level: each agent): won?
        for ai in ais:
            key = (m.game, ai.level or 0, "" if ai.level is not None else ai.agent)
            best[key] = (bool(ai.won) or best.get(key, (False, ""))[0], ai.agent)
        for key, (ai_won, agent) in best.items():
            e = table.setdefault(key, {"game": m.game, "level": key[1], "agent": agent, "win": 0, "draw": 0, "loss": 0})
            e["win" if me and not ai_won else "loss" if ai_won and not me else "draw"] += 1
    return sorted(table.values(), key=lambda e: (e["game"], e["level"], e["agent"]))


def finished_rows(session: Session, game: str | None = None, name: str | None = None) -> list[SimpleNamespace]:
    """The finished matches ``record`` reads (of ``game``; with a person called ``name``), as
    plain rows of the columns it needs, in one query: never a match's state."""
    q = (select(Match.id, Match.game, Match.ending, Match.hints, Match.seed_chosen,
                Seat.kind, Seat.won, Seat.level, Seat.agent, Seat.name)
         .join(Seat, Seat.match_id == Match.id).where(Match.status == "finished"))
    if game:
        q = q.where(Match.game == game)
    if name is not None:
        q = q.where(Match.id.in_(select(Seat.match_id).where(Seat.kind == "human", Seat.name == name)))
    matches: dict[str, SimpleNamespace] = {}
    for r in session.execute(q.order_by(Seat.match_id, Seat.seat)):
        m = matches.get(r.id)
        if m is None:
            m = matches[r.id] = SimpleNamespace(game=r.game, ending=r.ending, hints=r.hints,
                                                seed_chosen=r.seed_chosen, seats=[])
        m.seats.append(SimpleNamespace(kind=r.kind, won=r.won, level=r.level, agent=r.agent, name=r.name))
    return list(matches.values())


def person(session: Session, name: str, limit: int = 100, cursor: str | None = None) -> dict:
    """What the page of the person called ``name`` (as given: ``clean_name``, 422 otherwise)
    shows: their matches (newest first, ``limit`` of them after ``cursor``, and ``next``), their
    record against each level, and their rating in each game with its history. 404 when no seat
    ever had that name."""
    try:
        name = clean_name(name)
    except ValueError as err:
        raise ServiceError(str(err)) from None
    ids = select(Seat.match_id).where(Seat.kind == "human", Seat.name == name)
    total = session.scalar(select(func.count()).select_from(Match).where(Match.id.in_(ids)))
    if not total:
        raise NotFound(f"nobody has played as {name!r} yet")
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
        games[r.game] = {**ratings.shown(r.mu, r.sigma, r.games), "games": r.games, "wins": r.wins,
                         "history": ratings.history(session, r.game, player)}
    last = matches[-1] if more else None
    return {"name": name, "player": player, "matches": rows, "total_matches": total,
            "next": None if last is None else paging.encode(last.created_at, last.id),
            "record": record(finished_rows(session, name=name), name), "ratings": games}
