"""Wake-ups across server processes: a move made by one process wakes the event streams of
its match in every other process on the same database, not only in its own.

PostgreSQL: LISTEN/NOTIFY. Each process listens on one channel, on a connection of its own
that a thread waits on, and sends what its notifier is told (after the move's commit) from a
second thread on a second connection, so no request waits for it. A notification names the
process that sent it, which ignores its own: its streams were woken directly.

SQLite has nothing like it. A thread per process reads, every ``WATCH_S``, one row for each
match with a stream open in this process (its ply, status, controls and seats taken, in one
statement for all of them, their ids passed as one JSON array) and wakes the streams of the
matches whose row changed.

Either way a stream's own slow poll (app/services/match_events.py) stays as the last resort.
"""
from __future__ import annotations

import json
import logging
import queue
import secrets
import sqlite3
import threading
from typing import Protocol

from sqlalchemy import bindparam, func, select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from app.models import Match, Seat
from app.services.notifier import Notifier
from app.statements import Statement

log = logging.getLogger("parlour")

CHANNEL = "parlour_wake"
PAYLOAD_BYTES = 7_000
"""A notification carries match ids up to this size (PostgreSQL's limit is 8,000 bytes)."""
LISTEN_TICK_S = 0.25
"""How often the listening thread looks up from its connection (to stop when told)."""
RETRY_S = 1.0
"""After a lost connection, the wait before connecting again."""
WATCH_S = 0.25
"""SQLite: how often the watching thread reads the rows of the matches streamed here."""


class Relay(Protocol):
    """What the lifespan starts and closes; ``start`` picks the kind for the database."""

    def close(self) -> None: ...


def start(url: str, sessions: sessionmaker[Session], notifier: Notifier) -> Relay:
    if url.startswith("sqlite"):
        return SqliteWatch(sessions, notifier)
    return PostgresRelay(url, notifier)


class PostgresRelay:
    def __init__(self, url: str, notifier: Notifier):
        import psycopg

        self._psycopg = psycopg
        self._conninfo = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        self._notifier = notifier
        self._origin = secrets.token_hex(8)
        self._outbox: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._stop = threading.Event()
        # Both connections are made here, so start-up fails loudly when they cannot be, and
        # the first move of another process after start-up already reaches this one.
        listening, sending = self._listening(), self._connect("parlour-notify")
        self._threads = [threading.Thread(target=self._listen, args=(listening,), name="parlour-listen", daemon=True),
                         threading.Thread(target=self._send, args=(sending,), name="parlour-notify", daemon=True)]
        for thread in self._threads:
            thread.start()
        notifier.add_relay(self._outbox.put)

    def close(self) -> None:
        self._notifier.remove_relay(self._outbox.put)
        self._stop.set()
        self._outbox.put(None)
        for thread in self._threads:
            thread.join(5)

    def _connect(self, name: str):
        return self._psycopg.connect(self._conninfo, autocommit=True, application_name=name)

    def _listening(self):
        conn = self._connect("parlour-listen")
        conn.execute(f"LISTEN {CHANNEL}")
        return conn

    def _listen(self, conn) -> None:
        while not self._stop.is_set():
            try:
                if conn is None:
                    conn = self._listening()
                    self._notifier.wake_all()  # whatever was sent while nobody listened
                for note in conn.notifies(timeout=LISTEN_TICK_S):
                    origin, _, keys = note.payload.partition(" ")
                    if origin != self._origin:
                        for key in keys.split():
                            self._notifier.wake(key)
            except self._psycopg.Error as err:
                log.warning("listening for other processes' moves failed (%s); connecting again", err)
                if conn is not None:
                    conn.close()
                conn = None
                self._stop.wait(RETRY_S)
        if conn is not None:
            conn.close()

    def _send(self, conn) -> None:
        stopping = False
        while not stopping:
            keys: set[str] = set()
            key = self._outbox.get()
            while True:  # everything queued meanwhile goes in the same round trip
                if key is None:
                    stopping = True
                else:
                    keys.add(key)
                try:
                    key = self._outbox.get_nowait()
                except queue.Empty:
                    break
            if not keys:
                continue
            try:
                if conn is None:
                    conn = self._connect("parlour-notify")
                conn.execute("SELECT pg_notify(%s, p) FROM unnest(%s::text[]) AS p",
                             (CHANNEL, payloads(self._origin, sorted(keys))))
            except self._psycopg.Error as err:
                log.warning("telling other processes of a move failed (%s); their streams will poll", err)
                if conn is not None:
                    conn.close()
                conn = None
        if conn is not None:
            conn.close()


def payloads(origin: str, keys: list[str]) -> list[str]:
    """``keys`` in as few notifications as fit, each "<origin> <key> <key>..."."""
    out, current = [], origin
    for key in keys:
        if len(current) + 1 + len(key) > PAYLOAD_BYTES:
            out.append(current)
            current = origin
        current += " " + key
    out.append(current)
    return out


class SqliteWatch:
    def __init__(self, sessions: sessionmaker[Session], notifier: Notifier):
        self._sessions, self._notifier = sessions, notifier
        self._seen: dict[str, tuple] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="parlour-watch", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)

    def _watch(self) -> None:
        while not self._stop.wait(WATCH_S):
            keys = self._notifier.keys()
            try:
                rows = self._rows(keys) if keys else {}
            except (SQLAlchemyError, sqlite3.Error) as err:  # the statement runs on the driver's cursor
                log.warning("watching for other processes' moves failed (%s)", err)
                continue
            # A match seen for the first time wakes its streams too: it may have changed
            # between their last read and this one.
            for key, row in rows.items():
                if self._seen.get(key) != row:
                    self._notifier.wake(key)
            self._seen = rows

    def _rows(self, keys: list[str]) -> dict[str, tuple]:
        with self._sessions() as session:
            rows = _WATCHED.rows(session.connection(), ids=json.dumps(keys))
        return {row.pop("id"): tuple(row.values()) for row in rows}


_TAKEN = select(func.count()).where(Seat.match_id == Match.id, Seat.invite == "taken").scalar_subquery()
_IDS = func.json_each(bindparam("ids")).table_valued("value")
_WATCHED = Statement(select(Match.id, Match.ply, Match.status, Match.paused, Match.steps, Match.delay_ms,
                            _TAKEN.label("taken")).where(Match.id.in_(select(_IDS.c.value))))
