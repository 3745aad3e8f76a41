"""The database: engine, sessions and migrations (Alembic, run at start-up).

JSON columns are read and written with orjson. The connection pool holds at least as many
connections as there are worker threads, so a request never waits for a connection that
another request can only give back once it gets a thread. ``writing()`` serialises this
process's write transactions: SQLite lets one writer in at a time and makes the others poll
with sleeps of up to 100 ms, so queueing them on a lock here is much faster under load.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Iterator

import orjson

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from app.settings import get_settings

ROOT = Path(__file__).resolve().parent.parent
WORKER_THREADS = 40
"""anyio's default number of worker threads, which run the routes that are plain functions."""

_write_lock = threading.Lock()


@contextmanager
def writing() -> Iterator[None]:
    """Hold this process's write lock for one write transaction (commit inside the block)."""
    with _write_lock:
        yield


def _json_dumps(value) -> str:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def make_engine(url: str, busy_timeout_ms: int = 10_000) -> Engine:
    common = dict(json_serializer=_json_dumps, json_deserializer=orjson.loads,
                  pool_size=10, max_overflow=WORKER_THREADS)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": busy_timeout_ms / 1000},
                               **common)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection, _record):
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True, **common)


@lru_cache
def get_engine(url: str) -> Engine:
    """One engine per URL for the commands (the app makes its own in its lifespan)."""
    return make_engine(url, get_settings().busy_timeout_ms)


def session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)


def migrate(url: str) -> None:
    """Bring the database at ``url`` to the newest schema (``alembic upgrade head``)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.set_main_option("sqlalchemy.url", url)
    command.upgrade(config, "head")
