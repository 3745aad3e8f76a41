"""Live learners: agents whose learned table lives in the database.

A learner's table is its *origin* (the beginner or the trained table, built by the
code from shipped files, never copied into the database) overlaid with the rows of
``learned_values`` that learning changed. Resetting is therefore one small step:
drop the overlay and name the new origin, whatever the table's size (Harel's
trained table has ~593,000 values; none of them is written).

Each change a learner makes is an ``Update`` applied in SQL as one statement
(``value = max(floor, value + amount)`` or ``value = value + rate*(target-value)``;
a key without a row starts from its origin value), so two games that end at the
same moment both count. Every change first bumps the learner's row
(``UPDATE live_agents ...``), which serialises it with resets and rollbacks in any
database. A process keeps a copy of the table tagged with the agent's ``version``
and reloads the overlay when the version moved, so any server process sees every
other's learning.

Snapshots (origin + overlay, compressed) are kept before every reset and rollback
and every ``PARLOUR_SNAPSHOT_EVERY`` learned games. A finished game is learned from
only while its client has had fewer than ``PARLOUR_LEARN_LIMIT`` games learned by
this learner in the last hour.
"""
from __future__ import annotations

import json
import zlib
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass
from datetime import timedelta
from functools import lru_cache
from threading import Lock

from sqlalchemy import Float, bindparam, delete, func, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from agents.base import Update
from agents.catalog import spec
from agents.spec import AgentSpec
from app.models import LearnedValue, LearnEvent, LiveAgent, LiveSnapshot, now
from app.services.errors import Conflict, NotFound
from app.settings import get_settings
from engine import GameError

ORIGINS = ("beginner", "trained")


def live_key(game: str, agent: str) -> str:
    return f"{game}/{agent}"


def live_spec(game: str, agent: str) -> AgentSpec:
    s = spec(game, agent)
    if s.live is None:
        raise Conflict(f"{agent} does not learn live; live agents keep their learning in the database")
    return s


@lru_cache(maxsize=16)
def origin_table(game: str, agent: str, origin: str) -> dict[str, float]:
    """The shipped table a learner starts from (built once per process; never mutated)."""
    live = live_spec(game, agent).live
    return dict((live.beginner if origin == "beginner" else live.trained)())


def _dialect(session: Session) -> str:
    return session.get_bind().dialect.name


def _insert(session: Session, model):
    return (pg_insert if _dialect(session) == "postgresql" else sqlite_insert)(model)


def ensure(session: Session, game: str, agent: str) -> LiveAgent:
    """The live agent's row, created on first use (starting from the beginner table)."""
    live_spec(game, agent)
    key = live_key(game, agent)
    row = session.get(LiveAgent, key)
    if row is None:
        session.execute(_insert(session, LiveAgent).values(agent=key, version=1, games=0, origin="beginner",
                                                           reset_at=now()).on_conflict_do_nothing())
        session.commit()
        row = session.get(LiveAgent, key)
    return row


def _lock(session: Session, key: str) -> LiveAgent:
    """Bump the learner's version first thing in a transaction: the row lock (PostgreSQL) or the
    write lock (SQLite) orders this change after any other in flight. Returns the fresh row."""
    session.execute(update(LiveAgent).where(LiveAgent.agent == key).values(version=LiveAgent.version + 1)
                    .execution_options(synchronize_session=False))
    row = session.get(LiveAgent, key)
    session.refresh(row)
    return row


def _overlay(session: Session, key: str) -> dict[str, float]:
    return dict(session.execute(select(LearnedValue.key, LearnedValue.value).where(LearnedValue.agent == key)).all())


def _snapshot(session: Session, row: LiveAgent, reason: str) -> LiveSnapshot:
    overlay = _overlay(session, row.agent)
    snap = LiveSnapshot(agent=row.agent, origin=row.origin, games=row.games, reset_at=row.reset_at, reason=reason,
                        values=len(overlay), created_at=now(),
                        overlay=zlib.compress(json.dumps(overlay, separators=(",", ":")).encode(), 6))
    session.add(snap)
    session.flush()
    keep = max(1, get_settings().snapshot_keep)
    old = session.scalars(select(LiveSnapshot.id).where(LiveSnapshot.agent == row.agent)
                          .order_by(LiveSnapshot.id.desc()).offset(keep)).all()
    if old:
        session.execute(delete(LiveSnapshot).where(LiveSnapshot.id.in_(old)))
    return snap


def _put_overlay(session: Session, key: str, overlay: dict[str, float]) -> None:
    session.execute(delete(LearnedValue).where(LearnedValue.agent == key))
    if overlay:
        session.execute(_insert(session, LearnedValue), [{"agent": key, "key": k, "value": float(v)}
                                                         for k, v in overlay.items()])


def reset(session: Session, game: str, agent: str, to: str) -> LiveAgent:
    """Start the live agent again from the beginner table or the shipped trained one
    (a snapshot of the table it had is kept first)."""
    if to not in ORIGINS:
        raise GameError("reset to 'beginner' or 'trained'")
    row = _lock(session, ensure(session, game, agent).agent)
    _snapshot(session, row, "before reset")
    session.execute(delete(LearnedValue).where(LearnedValue.agent == row.agent))
    row.games, row.origin, row.reset_at = 0, to, now()
    session.commit()
    return row


def snapshot(session: Session, game: str, agent: str, reason: str = "by hand") -> LiveSnapshot:
    row = _lock(session, ensure(session, game, agent).agent)
    snap = _snapshot(session, row, reason)
    session.commit()
    return snap


def snapshots(session: Session, game: str, agent: str) -> list[LiveSnapshot]:
    key = ensure(session, game, agent).agent
    return list(session.scalars(select(LiveSnapshot).where(LiveSnapshot.agent == key)
                                .order_by(LiveSnapshot.id.desc())))


def rollback(session: Session, game: str, agent: str, snapshot_id: int) -> LiveAgent:
    """Restore the table a snapshot holds (a snapshot of the current one is kept first)."""
    key = ensure(session, game, agent).agent
    snap = session.get(LiveSnapshot, snapshot_id)
    if snap is None or snap.agent != key:
        raise NotFound(f"{agent} has no snapshot {snapshot_id}")
    row = _lock(session, key)
    _snapshot(session, row, "before rollback")
    _put_overlay(session, key, json.loads(zlib.decompress(snap.overlay)))
    row.games, row.origin, row.reset_at = snap.games, snap.origin, snap.reset_at
    session.commit()
    return row


def snapshot_json(s: LiveSnapshot) -> dict:
    return {"id": s.id, "created_at": s.created_at.isoformat(), "reason": s.reason, "origin": s.origin,
            "games": s.games, "learned_values": s.values}


def learned_recently(session: Session, key: str, client: str) -> int:
    since = now() - timedelta(hours=1)
    return session.scalar(select(func.count()).select_from(LearnEvent).where(
        LearnEvent.agent == key, LearnEvent.client == client, LearnEvent.at >= since)) or 0


def _upserts(session: Session) -> dict[str, object]:
    """The three statements that apply an ``Update`` to one learned value (a key without a row
    starts from ``initial``, its origin value with the change applied), built once per dialect."""
    dialect = _dialect(session)
    if dialect not in _UPSERTS:
        value = LearnedValue.__table__.c.value
        higher = func.max if dialect == "sqlite" else func.greatest
        stmt = (pg_insert if dialect == "postgresql" else sqlite_insert)(LearnedValue).values(
            agent=bindparam("agent"), key=bindparam("key"), value=bindparam("initial"))
        amount, floor = bindparam("amount", type_=Float), bindparam("floor", type_=Float)
        rate, target = bindparam("rate", type_=Float), bindparam("target", type_=Float)
        _UPSERTS[dialect] = {
            op: stmt.on_conflict_do_update(index_elements=["agent", "key"], set_={"value": new})
            for op, new in (("add", value + amount), ("add_floor", higher(value + amount, floor)),
                            ("blend", value + rate * (target - value)))}
    return _UPSERTS[dialect]


_UPSERTS: dict[str, dict[str, object]] = {}


def _changed(u: Update, value: float) -> float:
    """What an update makes of a value: the same arithmetic, in the same order, as its SQL."""
    if u.op == "add":
        return value + u.amount if u.floor is None else max(value + u.amount, u.floor)
    if u.op == "blend":
        return value + u.rate * (u.target - value)
    raise ValueError(f"unknown update {u.op!r}")


def apply_updates(session: Session, game: str, agent: str, updates: list[Update],
                  clients: list[str] | None = None) -> str | None:
    """Apply a finished game's changes atomically and count the game. With ``clients`` (the
    hashed addresses of the people at the table) the learning limit applies to each: the game is
    learned from only if every one is under it, and then counts for every one. Returns why the
    game was not learned from, or None. This process's copy of the table is brought up to date
    too when it was current."""
    key = ensure(session, game, agent).agent
    row = _lock(session, key)
    settings = get_settings()
    clients = clients or []
    if settings.learn_limit > 0:
        if any(learned_recently(session, key, c) >= settings.learn_limit for c in clients):
            session.rollback()
            who = "its client" if len(clients) == 1 else "one of its players' clients"
            return (f"{who} had {settings.learn_limit} games learned by this agent in the last hour "
                    "(PARLOUR_LEARN_LIMIT)")
    base = origin_table(game, agent, row.origin)
    statements = _upserts(session)
    conn = session.connection()
    for u in updates:
        op = "add_floor" if u.op == "add" and u.floor is not None else u.op
        if op not in statements:
            raise ValueError(f"unknown update {u.op!r}")
        conn.execute(statements[op], {"agent": key, "key": u.key, "initial": _changed(u, base.get(u.key, 0.0)),
                                      "amount": u.amount, "floor": u.floor, "rate": u.rate, "target": u.target})
    row.games += 1
    for client in clients:
        session.add(LearnEvent(agent=key, client=client, at=now()))
    if settings.snapshot_every > 0 and row.games % settings.snapshot_every == 0:
        session.flush()
        _snapshot(session, row, f"after {row.games} games")
    session.commit()
    _advance(session, key, row.version, row.origin, base, updates)
    return None


def _advance(session: Session, key: str, version: int, origin: str, base: Mapping[str, float],
             updates: list[Update]) -> None:
    """After this process committed ``updates`` as ``version``: if its copy of the table was the
    version just before, it becomes ``version`` with the same changes (no reload of the overlay)."""
    where = _where(session, key)
    with _cache_lock:
        cached = _cache.get(where)
        if cached is None or cached.version != version - 1 or cached.origin != origin:
            return
        own = dict(cached.table._own)
        for u in updates:
            own[u.key] = _changed(u, own.get(u.key, base.get(u.key, 0.0)))
        _cache[where] = _Cached(version, origin, LayeredTable(base, own))


class LayeredTable(MutableMapping):
    """A learner's table as a mapping: its own values over the (shared, never changed) origin
    table. Built in time proportional to the overlay, not to the table (Harel's trained origin
    holds ~593,000 values); writes go to the learner's own layer."""

    def __init__(self, origin: Mapping[str, float], overlay: dict[str, float]):
        self._origin, self._own = origin, dict(overlay)
        self._len = len(origin) + sum(1 for k in self._own if k not in origin)

    def __getitem__(self, key):
        try:
            return self._own[key]
        except KeyError:
            return self._origin[key]

    def get(self, key, default=None):
        own = self._own.get(key, _MISSING)
        return self._origin.get(key, default) if own is _MISSING else own

    def __contains__(self, key):
        return key in self._own or key in self._origin

    def __setitem__(self, key, value):
        if key not in self:
            self._len += 1
        self._own[key] = value

    def __delitem__(self, key):
        raise TypeError("a learner's values are changed, never removed")

    def __iter__(self):
        yield from self._origin
        yield from (k for k in self._own if k not in self._origin)

    def __len__(self):
        return self._len

    def copy(self) -> "LayeredTable":
        return LayeredTable(self._origin, self._own)


_MISSING = object()


@dataclass
class _Cached:
    version: int
    origin: str
    table: LayeredTable


_cache: dict[tuple[str, str], _Cached] = {}
"""A copy of each learner's table per database (URL) and learner."""
_cache_lock = Lock()
_VERSION = select(LiveAgent.version, LiveAgent.origin).where(LiveAgent.agent == bindparam("key"))


def _where(session: Session, key: str) -> tuple[str, str]:
    return str(session.get_bind().url), key


def table(session: Session, game: str, agent: str) -> LayeredTable:
    """The current table (cached per process, rebuilt when the version moved). Shared: never
    change it (``make_live_agent(own_copy=True)`` gives a learner its own layer)."""
    live_spec(game, agent)
    key = live_key(game, agent)
    row = session.connection().execute(_VERSION, {"key": key}).one_or_none()
    if row is None:
        ensure(session, game, agent)
        row = session.connection().execute(_VERSION, {"key": key}).one()
    where = _where(session, key)
    with _cache_lock:
        cached = _cache.get(where)
        if cached is not None and cached.version == row.version:
            return cached.table
    values = LayeredTable(origin_table(game, agent, row.origin), _overlay(session, key))
    with _cache_lock:
        _cache[where] = _Cached(row.version, row.origin, values)
    return values


def make_live_agent(session: Session, game: str, agent: str, own_copy: bool = False):
    """The learner built from its current table; ``own_copy`` for one that will learn (learning
    may change the table it was given)."""
    values = table(session, game, agent)
    return live_spec(game, agent).live.from_values(values.copy() if own_copy else values)
