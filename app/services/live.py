"""Live learners: agents whose learned table lives in the database.

Each change a learner makes is an ``Update`` applied in SQL as one statement
(``value = max(floor, value + amount)`` or ``value = value + rate*(target-value)``),
so two games that end at the same moment both count. A process keeps a copy of
the table tagged with the agent's ``version`` and reloads it when the version
moved, so any server process sees every other's learning.
"""
from __future__ import annotations

from dataclasses import dataclass
from threading import Lock

from sqlalchemy import delete, func, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from agents.base import Update
from agents.catalog import AgentSpec, spec
from app.models import LearnedValue, LiveAgent, now
from engine import GameError


def live_key(game: str, agent: str) -> str:
    return f"{game}/{agent}"


def live_spec(game: str, agent: str) -> AgentSpec:
    s = spec(game, agent)
    if s.live is None:
        raise GameError(f"{agent!r} does not learn live; live agents keep their learning in the database")
    return s


def _insert(session: Session):
    return (pg_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert)(LearnedValue)


def ensure(session: Session, game: str, agent: str) -> LiveAgent:
    """The live agent's row; on first use it is created and filled with the beginner table
    (one process claims the fill by moving version 0 -> 1)."""
    key = live_key(game, agent)
    row = session.get(LiveAgent, key)
    if row is not None and row.version > 0:
        return row
    beginner = live_spec(game, agent).live.beginner
    ins = (pg_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert)(LiveAgent)
    session.execute(ins.values(agent=key, version=0, games=0, origin="beginner", reset_at=now())
                    .on_conflict_do_nothing())
    claimed = session.execute(update(LiveAgent).where(LiveAgent.agent == key, LiveAgent.version == 0)
                              .values(version=1)).rowcount
    if claimed:
        _fill(session, key, beginner())
    session.commit()
    row = session.get(LiveAgent, key)
    session.refresh(row)
    return row


def _fill(session: Session, key: str, table: dict[str, float]) -> None:
    session.execute(delete(LearnedValue).where(LearnedValue.agent == key))
    if table:
        session.execute(_insert(session), [{"agent": key, "key": k, "value": float(v)} for k, v in table.items()])


def reset(session: Session, game: str, agent: str, to: str) -> LiveAgent:
    """Start the live agent again from the beginner table or the shipped trained one."""
    s = live_spec(game, agent)
    if to not in ("beginner", "trained"):
        raise GameError("reset to 'beginner' or 'trained'")
    row = ensure(session, game, agent)
    _fill(session, row.agent, s.live.beginner() if to == "beginner" else s.live.trained())
    row.version += 1
    row.games = 0
    row.origin = to
    row.reset_at = now()
    session.commit()
    return row


def apply_updates(session: Session, game: str, agent: str, updates: list[Update]) -> None:
    """Apply a finished game's changes atomically and count the game."""
    key = live_key(game, agent)
    table = LearnedValue.__table__
    for u in updates:
        if u.op == "add":
            new = table.c.value + u.amount
            if u.floor is not None:
                new = func.max(new, u.floor) if session.get_bind().dialect.name == "sqlite" else func.greatest(new, u.floor)
            initial = u.amount if u.floor is None else max(u.floor, u.amount)
        elif u.op == "blend":
            new = table.c.value + u.rate * (u.target - table.c.value)
            initial = u.rate * u.target
        else:
            raise ValueError(f"unknown update {u.op!r}")
        stmt = _insert(session).values(agent=key, key=u.key, value=initial)
        session.execute(stmt.on_conflict_do_update(index_elements=["agent", "key"], set_={"value": new}))
    session.execute(update(LiveAgent).where(LiveAgent.agent == key)
                    .values(version=LiveAgent.version + 1, games=LiveAgent.games + 1))
    session.commit()


@dataclass
class _Cached:
    version: int
    table: dict[str, float]


_cache: dict[str, _Cached] = {}
_cache_lock = Lock()


def table(session: Session, game: str, agent: str) -> dict[str, float]:
    """The current table (a copy cached per process, reloaded when the version moved)."""
    row = ensure(session, game, agent)
    session.refresh(row)
    with _cache_lock:
        cached = _cache.get(row.agent)
        if cached is not None and cached.version == row.version:
            return cached.table
    values = dict(session.execute(
        select(LearnedValue.key, LearnedValue.value).where(LearnedValue.agent == row.agent)).all())
    with _cache_lock:
        _cache[row.agent] = _Cached(row.version, values)
    return values


def make_live_agent(session: Session, game: str, agent: str):
    return live_spec(game, agent).live.from_values(table(session, game, agent))
