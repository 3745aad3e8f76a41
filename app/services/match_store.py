"""Where a match is read and written: every other module sees one typed, frozen row (``MatchRow``,
its ``SeatRow``s, its state parsed) and the moves as ``MoveRow``s; the SQL, the cursor statements
of every turn (``app.statements``) and what this process remembers between requests
(``app.services.memory``) stay in here.

A write returns the new row; a move is stored with an optimistic check on the ply
(``UPDATE ... WHERE ply = expected``), so two requests racing for the same turn cannot both
land, whichever process serves them: the loser gets None (and nothing is stored).
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass, fields, replace
from datetime import datetime
from typing import Any, Callable, Mapping, Sequence

from sqlalchemy import bindparam, exists, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from app.db import writing
from app.models import Base, Match, Move, Seat, now
from app.services.errors import Conflict, NotFound, clip
from app.services.match_moves import MoveRow, Played
from app.services.memory import MEMORY
from app.statements import Statement
from engine import get_game

MATCH_ID = re.compile("[0-9a-f]{32}")
"""The form of every match id (``uuid4().hex``): any other names no match, and is never looked up."""
LOG_TAIL = 60
"""The moves a view shows (and a process remembers) of a match's log."""


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    kind: str  # human|agent
    name: str
    agent: str | None
    level: int | None
    token_hash: str | None
    score: float | None
    won: bool | None
    invite: str | None  # a friend's seat: open|taken
    client: str | None  # hash of the joiner's address
    invite_hash: str | None = None  # a friend's seat: its invite token's digest (joining only)


@dataclass(slots=True)
class MatchRow:
    """A match as stored (``app.models.Match``), with its seats in order and its state parsed.
    Never changed once made: a write returns a new row (``_with``). Slotted, not frozen: a frozen
    dataclass sets each of its 22 fields through ``object.__setattr__``, which made building one
    about four times slower (every request builds one)."""
    id: str
    game: str
    options: dict[str, Any]
    seed: int  # secret: never in a response, page or log
    seed_chosen: bool
    ply: int
    status: str  # waiting|active|finished
    ai_only: bool
    delay_ms: int
    paused: bool
    steps: int
    last_move_at: float
    rematch_of: str | None
    client: str | None
    control_hash: str | None
    learning: dict[str, Any] | None
    hints: bool
    ending: dict[str, Any] | None
    created_at: datetime
    finished_at: datetime | None
    seats: tuple[SeatRow, ...]
    state: Any  # the game's state at ``ply``


Results = Mapping[int, tuple[float | None, bool | None]]
"""A finished match's score and win by seat."""

_MATCHES, _SEATS_TABLE, _MOVES = (Base.metadata.tables[name] for name in ("matches", "seats", "moves"))
_MATCH_COLUMNS = [_MATCHES.c[f.name] for f in fields(MatchRow) if f.name not in ("seats", "state")]
_SEAT_COLUMNS = [_SEATS_TABLE.c[f.name] for f in fields(SeatRow)]
_MOVE_COLUMNS = (Move.ply, Move.seat, Move.action, Move.label, Move.explanation)

# The statements of every turn run on the driver's cursor (app.statements: SQLAlchemy's own
# execution cost several times the query itself).
# A match's row without its state, which the process usually remembers.
_ROW = Statement(select(*_MATCH_COLUMNS).where(Match.id == bindparam("id")))
_ROW_WITH_STATE = Statement(select(*_MATCH_COLUMNS, Match.state).where(Match.id == bindparam("id")))
_SEATS = Statement(select(*_SEAT_COLUMNS).where(Seat.match_id == bindparam("id")).order_by(Seat.seat))
_TAIL = Statement(select(*_MOVE_COLUMNS).where(Move.match_id == bindparam("id"))
                  .order_by(Move.ply.desc()).limit(bindparam("limit")))
_AFTER = Statement(select(*_MOVE_COLUMNS).where(Move.match_id == bindparam("id"), Move.ply > bindparam("after"))
                   .order_by(Move.ply))
_ADVANCE = Statement(
    update(_MATCHES)
    .where(Match.id == bindparam("match"), Match.ply == bindparam("expected"), Match.status == "active")
    .values(state=bindparam("new_state", type_=Match.state.type), ply=bindparam("new_ply"),
            last_move_at=bindparam("new_last_move_at"), status=bindparam("new_status"),
            finished_at=bindparam("new_finished_at", type_=Match.finished_at.type), steps=bindparam("new_steps")))
_INSERT_MOVE = Statement(insert(_MOVES))
_SEAT_RESULT = Statement(
    update(_SEATS_TABLE).where(Seat.match_id == bindparam("match"), Seat.seat == bindparam("number"))
    .values(score=bindparam("new_score"), won=bindparam("new_won")))
_LEARNING = Statement(update(_MATCHES).where(Match.id == bindparam("match"))
                      .values(learning=bindparam("new_learning", type_=Match.learning.type)))


_ROW_FIELDS = tuple(f.name for f in fields(MatchRow))


def _with(match: MatchRow, **changes: Any) -> MatchRow:
    """A new row: ``match`` with ``changes`` (``dataclasses.replace`` took about four times longer)."""
    return MatchRow(**{**{name: getattr(match, name) for name in _ROW_FIELDS}, **changes})


def unknown_match(match_id: str) -> NotFound:
    return NotFound(f"no match {clip(match_id)!r}")


# ----- reading -----
def read(session: Session, match_id: str) -> MatchRow:
    """The match now (404 when there is none). Its state and, while it is active, its seats come
    from this process's memory when it has them (one query instead of three)."""
    if not MATCH_ID.fullmatch(match_id):
        raise unknown_match(match_id)
    conn = session.connection()
    row = _ROW.first(conn, id=match_id)
    if row is None:
        raise unknown_match(match_id)
    state = MEMORY.state(match_id, row["ply"])
    if state is None:  # the row again with its state: both from the same moment
        row = _ROW_WITH_STATE.first(conn, id=match_id)
        if row is None:
            raise unknown_match(match_id)
        state = get_game(row["game"]).from_json(row.pop("state"))
        MEMORY.put_state(match_id, row["ply"], state)
    active = row["status"] == "active"
    seats = MEMORY.seats(match_id) if active else None
    if seats is None:
        seats = tuple(SeatRow(**s) for s in _SEATS.rows(conn, id=match_id))
        if active:
            MEMORY.put_seats(match_id, seats)
    return MatchRow(**row, seats=seats, state=state)


def tail(session: Session, match: MatchRow) -> list[Played]:
    """The last ``LOG_TAIL`` moves, oldest first (from this process's memory when it has them all)."""
    remembered = MEMORY.tail(match.id, match.ply, LOG_TAIL)
    if remembered is not None:
        return remembered
    rows = _TAIL.rows(session.connection(), id=match.id, limit=LOG_TAIL)[::-1]
    moves = [Played.of(MoveRow(**m)) for m in rows if m["ply"] < match.ply]  # none made since the read
    MEMORY.put_tail(match.id, moves, match.ply, LOG_TAIL)
    return moves


def moves_after(session: Session, match_id: str, after: int) -> list[MoveRow]:
    """The moves after ply ``after`` (-1: all of them), in order."""
    return [MoveRow(**m) for m in _AFTER.rows(session.connection(), id=match_id, after=after)]


# ----- writing -----
def insert_match(session: Session, match: MatchRow, check: Callable[[], None]) -> None:
    """Store a new match and its seats, after ``check`` (the client's limits: counted and
    stored under this process's write lock, so they are exact in it)."""
    values = {f.name: getattr(match, f.name) for f in fields(MatchRow) if f.name not in ("seats", "state")}
    with writing():
        check()
        session.execute(insert(_MATCHES), [{**values, "state": get_game(match.game).to_json(match.state)}])
        session.execute(insert(_SEATS_TABLE), [{"match_id": match.id, **_seat_values(s)} for s in match.seats])
        session.commit()
    MEMORY.put_state(match.id, match.ply, match.state)
    MEMORY.put_tail(match.id, [], match.ply, LOG_TAIL)


def _seat_values(seat: SeatRow) -> dict[str, Any]:
    return {f.name: getattr(seat, f.name) for f in fields(SeatRow)}


def advance(session: Session, match: MatchRow, made: Sequence[MoveRow], state: Any, results: Results | None,
            within: Callable[[], None] | None = None) -> MatchRow | None:
    """Store moves made one after the other from the match's ply, ``state`` the state after the
    last, in one transaction (``within`` runs in it before the commit); ``results`` when they end
    the match. None when another request moved first (then nothing is stored)."""
    over = results is not None
    new = _with(match, state=state, ply=match.ply + len(made), last_move_at=time.time(),
                  status="finished" if over else match.status, finished_at=now() if over else match.finished_at,
                  steps=max(0, match.steps - len(made)) if match.paused else match.steps,
                  seats=_with_results(match.seats, results))
    created_at = now()
    conn = session.connection()
    with writing():
        done = _ADVANCE.run(conn, match=match.id, expected=match.ply, new_state=get_game(match.game).to_json(state),
                            new_ply=new.ply, new_last_move_at=new.last_move_at, new_status=new.status,
                            new_finished_at=new.finished_at, new_steps=new.steps)
        if not done:
            session.rollback()
            return None
        _INSERT_MOVE.run_many(conn, [{"match_id": match.id, "created_at": created_at, "ply": m.ply, "seat": m.seat,
                                      "action": m.action, "label": m.label, "explanation": m.explanation}
                                     for m in made])
        if results is not None:
            _store_results(conn, match.id, results)
        if within is not None:
            within()
        session.commit()
    MEMORY.put_state(match.id, new.ply, state)
    for m in made:
        MEMORY.add_move(match.id, Played.of(m), LOG_TAIL)
    return new


def finish(session: Session, match: MatchRow, ending: dict[str, Any], results: Results,
           within: Callable[[], None] | None = None) -> MatchRow | None:
    """Finish an active match before its rules end it (``ending`` says how), in one transaction
    (``within`` runs in it before the commit). None when it moved on meanwhile."""
    finished_at = now()
    with writing():
        done = session.connection().execute(
            update(_MATCHES).where(Match.id == match.id, Match.ply == match.ply, Match.status == "active")
            .values(status="finished", finished_at=finished_at, ending=ending)).rowcount
        if not done:
            session.rollback()
            return None
        _store_results(session.connection(), match.id, results)
        if within is not None:
            within()
        session.commit()
    return _with(match, status="finished", finished_at=finished_at, ending=ending,
                   seats=_with_results(match.seats, results))


def _store_results(conn: Connection, match_id: str, results: Results) -> None:
    for number, (score, won) in results.items():
        _SEAT_RESULT.run(conn, match=match_id, number=number, new_score=score, new_won=won)


def _with_results(seats: tuple[SeatRow, ...], results: Results | None) -> tuple[SeatRow, ...]:
    if not results:
        return seats
    return tuple(replace(s, score=results[s.seat][0], won=results[s.seat][1]) if s.seat in results else s
                 for s in seats)


def abandon_stale(session: Session, after_s: int) -> int:
    """Finish as abandoned every match waiting or active with no move for ``after_s`` seconds
    (no score, no winner); returns how many."""
    stale = (Match.status.in_(("active", "waiting")), Match.last_move_at < time.time() - after_s)
    if session.scalar(select(Match.id).where(*stale).limit(1)) is None:
        return 0  # a read, not a write: the list routes call this on every request
    with writing():
        done = session.connection().execute(
            update(_MATCHES).where(*stale)
            .values(status="finished", finished_at=now(), ending={"kind": "abandoned", "after_s": after_s})).rowcount
        session.commit()
    return done


def note_learning(session: Session, match: MatchRow, outcome: dict[str, Any]) -> MatchRow:
    """Store what each live learner made of the finished match (``learning``)."""
    with writing():
        _LEARNING.run(session.connection(), match=match.id, new_learning=outcome)
        session.commit()
    return _with(match, learning=outcome)


def set_controls(session: Session, match: MatchRow, paused: bool, steps: int, delay_ms: int) -> MatchRow:
    """Store an AI-only match's controls: paused, the moves granted while paused, its pause."""
    with writing():
        session.execute(update(_MATCHES).where(Match.id == match.id)
                        .values(paused=paused, steps=steps, delay_ms=delay_ms))
        session.commit()
    return _with(match, paused=paused, steps=steps, delay_ms=delay_ms)


def fill_seats(session: Session, match: MatchRow, changed: Sequence[SeatRow]) -> bool:
    """Store the ``changed`` seats of a waiting match, each only while it is still open (409, and
    nothing stored, when one was taken meanwhile: two people racing for one seat cannot both
    get it, nor the first a token the second overwrote); the match starts (in one conditional
    update, so two friends joining at once cannot both miss it) when no seat is left open. True
    when it started."""
    with writing():
        for s in changed:
            done = session.connection().execute(
                update(_SEATS_TABLE).where(Seat.match_id == match.id, Seat.seat == s.seat, Seat.invite == "open")
                .values(**_seat_values(s))).rowcount
            if not done:
                session.rollback()
                raise Conflict(f"seat {s.seat} is not waiting for anyone: it was taken already")
        session.commit()
        open_seats = select(Seat.seat).where(Seat.match_id == match.id, Seat.invite == "open")
        started = session.connection().execute(
            update(_MATCHES).where(Match.id == match.id, Match.status == "waiting", ~exists(open_seats))
            .values(status="active")).rowcount
        session.commit()
    return bool(started)
