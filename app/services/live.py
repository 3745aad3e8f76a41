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

What one client can do to a learner is bounded (``docs/security.md``, "Learners that
heal"): each box (a key's part before its last ``:``: a MENACE matchbox, a Harel or
Baltar state) learns from at most ``PARLOUR_LEARN_BOX_LIMIT`` games of one client since
the last reset; and a box that learning would leave holding less than ``LiveSpec.refill``
in all gets its origin values back instead (a MENACE matchbox never empties). Every learned
game is recorded (``learned_games``); ``app.services.canary`` checks the learner's
strength and takes back, to its last good table, what it learned since.

Origin tables are built once per process and kept. Building one can take seconds
(Harel's trained table), so it never happens on the event loop: ``ready`` tells the
routes whether a learner's table is at hand, and where it is not they run in a worker
thread; on the event loop ``origin_table`` refuses with ``Loading`` instead of building.
"""
from __future__ import annotations

import asyncio
import json
import zlib
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass
from datetime import timedelta
from threading import Lock, Thread

from sqlalchemy import Float, bindparam, delete, func, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session
from sqlalchemy.sql import Executable

from agents.base import Update
from agents.catalog import spec
from agents.spec import AgentSpec, LiveSpec
from app.models import LearnedGame, LearnedValue, LearnEvent, LearnWeight, LiveAgent, LiveSnapshot, now
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


def live_of(game: str, agent: str) -> LiveSpec:
    """How the live learner is built, checked, kept (``Conflict`` for an agent that is not one)."""
    live = live_spec(game, agent).live
    assert live is not None  # live_spec refuses the others
    return live


class Loading(Conflict):
    """A learner's origin table is not built in this process yet and this is the event loop,
    where it is never built (only when a reset or rollback lands during the very request)."""

    def __init__(self) -> None:
        super().__init__("this learner's table was just reset and is being loaded; try again in a moment")


_origins: dict[tuple[str, str, str], dict[str, float]] = {}
"""The origin tables built in this process, by (game, agent, origin); never dropped or changed."""
_origins_lock = Lock()


def _on_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def origin_table(game: str, agent: str, origin: str) -> dict[str, float]:
    """The shipped table a learner starts from (built once per process; never mutated). On the
    event loop one not built yet is started in a thread and ``Loading`` raised."""
    found = _origins.get((game, agent, origin))
    if found is not None:
        return found
    if _on_event_loop():
        warm(game, agent, origin)
        raise Loading()
    with _origins_lock:
        found = _origins.get((game, agent, origin))
        if found is None:
            live = live_of(game, agent)
            found = _origins[(game, agent, origin)] = (live.beginner if origin == "beginner" else live.trained)()
    return found


def warm(game: str, agent: str, origin: str) -> None:
    """Start building an origin table in a thread of its own, unless it is built."""
    if (game, agent, origin) not in _origins:
        Thread(target=origin_table, args=(game, agent, origin), name="live-origin", daemon=True).start()


def ready(session: Session, game: str, agent: str) -> bool:
    """Is the learner's current origin table built in this process (so using it costs no build)?"""
    row = session.connection().execute(_VERSION, {"key": live_key(game, agent)}).one_or_none()
    return (game, agent, row.origin if row is not None else "beginner") in _origins


def load_current(sessions, games: list[str]) -> None:
    """Build the current origin table of every live learner of ``games`` (at start-up, in a
    thread: until it is done, the requests that need one run in worker threads)."""
    from agents.catalog import agent_specs

    with sessions() as session:
        for game in games:
            for s in agent_specs(game):
                if s.live is not None:
                    origin_table(game, s.id, ensure(session, game, s.id).origin)


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
        row = session.get_one(LiveAgent, key)
    return row


def _lock(session: Session, key: str) -> LiveAgent:
    """Bump the learner's version first thing in a transaction: the row lock (PostgreSQL) or the
    write lock (SQLite) orders this change after any other in flight. Returns the fresh row."""
    session.execute(update(LiveAgent).where(LiveAgent.agent == key).values(version=LiveAgent.version + 1)
                    .execution_options(synchronize_session=False))
    row = session.get_one(LiveAgent, key)
    session.refresh(row)
    return row


def _overlay(session: Session, key: str) -> dict[str, float]:
    return dict(session.execute(select(LearnedValue.key, LearnedValue.value).where(LearnedValue.agent == key)).all())


@dataclass(frozen=True)
class Content:
    """A learner's table at one moment, read under its lock: what a snapshot holds, and the
    restores count and newest learned game then (``last_game``, 0 for none)."""

    origin: str
    games: int
    reset_at: object
    restores: int
    overlay: dict[str, float]
    last_game: int


def read_content(session: Session, key: str) -> Content:
    """The learner's table now, read under its lock (released again: nothing is written)."""
    row = _lock(session, key)
    content = Content(row.origin, row.games, row.reset_at, row.restores, _overlay(session, key),
                      _last_game(session, key))
    session.rollback()
    return content


def _last_game(session: Session, key: str) -> int:
    return session.scalar(select(func.max(LearnedGame.id)).where(LearnedGame.agent == key)) or 0


def _snapshot(session: Session, row: LiveAgent, reason: str, content: Content | None = None,
              passed: bool | None = None, canary: dict | None = None) -> LiveSnapshot:
    """Keep a snapshot of the learner's table now (or of ``content``, read earlier), with the
    canary's verdict when it checked it; the oldest beyond ``PARLOUR_SNAPSHOT_KEEP`` go, except
    the learner's last good one."""
    overlay = content.overlay if content is not None else _overlay(session, row.agent)
    source = content if content is not None else row
    snap = LiveSnapshot(agent=row.agent, origin=source.origin, games=source.games, reset_at=source.reset_at,
                        reason=reason, values=len(overlay), created_at=now(), passed=passed, canary=canary,
                        overlay=zlib.compress(json.dumps(overlay, separators=(",", ":")).encode(), 6))
    session.add(snap)
    session.flush()
    keep = max(1, get_settings().snapshot_keep)
    old = session.scalars(select(LiveSnapshot.id).where(LiveSnapshot.agent == row.agent)
                          .order_by(LiveSnapshot.id.desc()).offset(keep)).all()
    old = [i for i in old if i != row.good_snapshot]
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
    session.execute(delete(LearnWeight).where(LearnWeight.agent == row.agent))
    row.games, row.origin, row.reset_at = 0, to, now()
    _new_line(session, row, None)
    session.commit()
    warm(game, agent, to)  # so the next game need not wait for it
    return row


def _new_line(session: Session, row: LiveAgent, good: int | None) -> None:
    """After a reset or rollback: the table now is the last good one (the origin when ``good``
    is None, else that snapshot), and only games learned from now on are on top of it."""
    row.good_snapshot, row.good_game, row.restores = good, _last_game(session, row.agent), row.restores + 1


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
    row.good_snapshot = snap.id  # spared by the pruning of the snapshot kept now
    _snapshot(session, row, "before rollback")
    restore(session, row, snap)
    _new_line(session, row, snap.id)
    session.commit()
    warm(game, agent, row.origin)
    return row


def restore(session: Session, row: LiveAgent, snap: LiveSnapshot | None) -> None:
    """Give the (locked) learner the table ``snap`` holds, or its bare origin when None."""
    if snap is None:
        session.execute(delete(LearnedValue).where(LearnedValue.agent == row.agent))
        row.games = 0
        return
    _put_overlay(session, row.agent, json.loads(zlib.decompress(snap.overlay)))
    row.games, row.origin, row.reset_at = snap.games, snap.origin, snap.reset_at


def snapshot_json(s: LiveSnapshot) -> dict:
    return {"id": s.id, "created_at": s.created_at.isoformat(), "reason": s.reason, "origin": s.origin,
            "games": s.games, "learned_values": s.values, "passed": s.passed, "canary": s.canary}


def settle(session: Session, content: Content, key: str, passed: bool, report: dict, why: str) -> LiveSnapshot | None:
    """Keep what the canary found for the table ``content`` held. Passed: that table is kept as a
    snapshot marked passed, the learner's last good one. Failed: the table now is kept marked failed,
    the learner gets its last good table back, and every game learned since is quarantined with
    ``why``. None, and nothing written, when a reset or rollback came in between (the table is gone)."""
    row = _lock(session, key)
    if row.restores != content.restores:
        session.rollback()
        return None
    if passed:
        snap = _snapshot(session, row, f"canary passed at {content.games} games", content, True, report)
        row.good_snapshot, row.good_game = snap.id, content.last_game
    else:
        snap = _snapshot(session, row, f"canary failed at {content.games} games", None, False, report)
        restore(session, row, session.get(LiveSnapshot, row.good_snapshot) if row.good_snapshot else None)
        session.execute(update(LearnedGame).where(LearnedGame.agent == key, LearnedGame.id > row.good_game,
                                                  LearnedGame.quarantined_at.is_(None))
                        .values(quarantined_at=now(), quarantine=why[:200]).execution_options(synchronize_session=False))
        row.good_game, row.restores = _last_game(session, key), row.restores + 1
    session.commit()
    return snap


def quarantined(session: Session, game: str, agent: str, limit: int = 100) -> list[LearnedGame]:
    """The learner's quarantined games, newest first (at most ``limit``)."""
    key = ensure(session, game, agent).agent
    return list(session.scalars(select(LearnedGame).where(LearnedGame.agent == key,
                                                          LearnedGame.quarantined_at.is_not(None))
                                .order_by(LearnedGame.id.desc()).limit(limit)))


def quarantined_json(g: LearnedGame) -> dict:
    return {"match": g.match_id, "learned_at": g.at.isoformat(),
            "quarantined_at": g.quarantined_at.isoformat() if g.quarantined_at else None, "why": g.quarantine}


def learned_recently(session: Session, key: str, client: str) -> int:
    since = now() - timedelta(hours=1)
    return session.scalar(select(func.count()).select_from(LearnEvent).where(
        LearnEvent.agent == key, LearnEvent.client == client, LearnEvent.at >= since)) or 0


def _upserts(session: Session) -> dict[str, Executable]:
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


_UPSERTS: dict[str, dict[str, Executable]] = {}


def _changed(u: Update, value: float) -> float:
    """What an update makes of a value: the same arithmetic, in the same order, as its SQL."""
    if u.op == "add":
        return value + u.amount if u.floor is None else max(value + u.amount, u.floor)
    if u.op == "blend":
        return value + u.rate * (u.target - value)
    raise ValueError(f"unknown update {u.op!r}")


@dataclass(frozen=True)
class Learned:
    """What became of a finished game for one learner: ``learned`` or not (``reason``); the
    learner's learned games after it; the boxes its client(s) could teach no more (``held_back``)."""

    learned: bool
    reason: str | None = None
    games: int = 0
    held_back: int = 0


def box_of(key: str) -> str:
    """The box a learned value belongs to: a MENACE matchbox, a Harel or Baltar state."""
    return key.rpartition(":")[0]


_boxes: dict[tuple[str, str, str], dict[str, list[str]]] = {}
"""Per origin table (of a learner with a refill rule): each box's keys, its colours."""


def _box_keys(game: str, agent: str, origin: str, base: Mapping[str, float]) -> dict[str, list[str]]:
    found = _boxes.get((game, agent, origin))
    if found is None:
        found = {}
        for k in base:
            found.setdefault(box_of(k), []).append(k)
        _boxes[(game, agent, origin)] = found
    return found


def _refilled(session: Session, key: str, updates: list[Update], base: Mapping[str, float], refill: float,
              colours: dict[str, list[str]]) -> list[Update]:
    """``updates`` with the learner's refill rule: an ``add`` that would leave its box (the values
    of the box's keys) holding less than ``refill`` in all gives the box back its origin values
    instead. Read under the learner's lock: the values now of the boxes changed."""
    boxes = {box_of(u.key) for u in updates if u.op == "add"} & colours.keys()
    if not boxes:
        return updates
    keys = [k for b in boxes for k in colours[b]]
    values = {k: base.get(k, 0.0) for k in keys}
    values.update(session.execute(select(LearnedValue.key, LearnedValue.value).where(
        LearnedValue.agent == key, LearnedValue.key.in_(keys))).all())
    out = []
    for u in updates:
        box = box_of(u.key)
        if u.op != "add" or box not in boxes:
            out.append(u)
            continue
        after = _changed(u, values[u.key])
        if sum(values[k] for k in colours[box]) - values[u.key] + after >= refill:
            values[u.key] = after
            out.append(u)
            continue
        for k in colours[box]:  # the box would empty: it forgets what it learned instead
            if values[k] != base[k]:
                out.append(Update(k, "add", base[k] - values[k]))
                values[k] = base[k]
    return out


def _held_back(session: Session, key: str, clients: list[str], boxes: set[str], limit: int) -> set[str]:
    """The boxes where one of ``clients`` already taught ``limit`` games."""
    if not clients or not boxes or limit <= 0:
        return set()
    return set(session.scalars(select(LearnWeight.box).distinct().where(
        LearnWeight.agent == key, LearnWeight.client.in_(clients), LearnWeight.box.in_(boxes),
        LearnWeight.games >= limit)))


def _weigh(session: Session, key: str, clients: list[str], boxes: set[str]) -> None:
    """One more game of each client in each box."""
    if not clients or not boxes:
        return
    games = LearnWeight.__table__.c.games
    stmt = _insert(session, LearnWeight).values(agent=bindparam("a"), client=bindparam("c"), box=bindparam("b"),
                                                games=1)
    stmt = stmt.on_conflict_do_update(index_elements=["agent", "client", "box"], set_={"games": games + 1})
    session.connection().execute(stmt, [{"a": key, "c": c, "b": b} for c in clients for b in sorted(boxes)])


def apply_updates(session: Session, game: str, agent: str, updates: list[Update],
                  clients: list[str] | None = None, match_id: str | None = None) -> Learned:
    """Apply a finished game's changes atomically and count the game. With ``clients`` (the
    hashed addresses of the people at the table) the limits apply to each: the game is learned
    from only if every one is under the learning limit, and then counts for every one; a box
    where one of them has taught ``PARLOUR_LEARN_BOX_LIMIT`` games keeps its values (the game is
    not learned from when that leaves nothing). A box that would empty is refilled. The
    game is recorded (``learned_games``, with ``match_id``). This process's copy of the table
    is brought up to date too when it was current."""
    key = ensure(session, game, agent).agent
    row = _lock(session, key)
    settings = get_settings()
    clients = clients or []
    if settings.learn_limit > 0:
        if any(learned_recently(session, key, c) >= settings.learn_limit for c in clients):
            session.rollback()
            who = "its client" if len(clients) == 1 else "one of its players' clients"
            return Learned(False, f"{who} had {settings.learn_limit} games learned by this agent in the last hour "
                                  "(PARLOUR_LEARN_LIMIT)")
    boxes = {box_of(u.key) for u in updates}
    held = _held_back(session, key, clients, boxes, settings.learn_box_limit)
    if held and held == boxes:
        session.rollback()
        return Learned(False, f"every position of this game has learned from {settings.learn_box_limit} games of "
                              "this client already (PARLOUR_LEARN_BOX_LIMIT)", held_back=len(held))
    try:
        base = origin_table(game, agent, row.origin)
    except Loading:
        session.rollback()
        raise
    refill = live_of(game, agent).refill
    updates = [u for u in updates if box_of(u.key) not in held]
    if refill > 0:
        updates = _refilled(session, key, updates, base, refill, _box_keys(game, agent, row.origin, base))
    statements = _upserts(session)
    conn = session.connection()
    for u in updates:
        op = "add_floor" if u.op == "add" and u.floor is not None else u.op
        if op not in statements:
            raise ValueError(f"unknown update {u.op!r}")
        conn.execute(statements[op], {"agent": key, "key": u.key, "initial": _changed(u, base.get(u.key, 0.0)),
                                      "amount": u.amount, "floor": u.floor, "rate": u.rate, "target": u.target})
    _weigh(session, key, clients, boxes - held)
    row.games += 1
    for client in clients:
        session.add(LearnEvent(agent=key, client=client, at=now()))
    session.add(LearnedGame(agent=key, match_id=match_id, at=now()))
    if settings.snapshot_every > 0 and row.games % settings.snapshot_every == 0:
        session.flush()
        _snapshot(session, row, f"after {row.games} games")
    session.commit()
    _advance(session, key, row.version, row.origin, base, updates)
    note = (f"{len(held)} of its {len(boxes)} positions had learned from {settings.learn_box_limit} games of this "
            "client already and kept their values (PARLOUR_LEARN_BOX_LIMIT)") if held else None
    return Learned(True, note, row.games, len(held))


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
    return str(session.get_bind().engine.url), key


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
    return live_of(game, agent).from_values(values.copy() if own_copy else values)
