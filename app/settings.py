"""Settings from the environment (prefix PARLOUR_), in one place."""
from __future__ import annotations

import os
from functools import lru_cache

from pydantic import field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from app.addresses import trusted_networks


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="PARLOUR_")

    database_url: str = "sqlite:///parlour.db"
    """SQLAlchemy URL; SQLite (WAL, busy timeout) by default, PostgreSQL for several processes."""
    busy_timeout_ms: int = 10_000
    preload: bool = True
    """Load every shipped agent at start-up (so no first move waits for it)."""
    default_delay_ms: int = 700
    """Pause between moves of AI-only matches watched live."""
    streams_per_client: int = 32
    """Event streams one client address may hold open at once (more: 429)."""
    streams_total: int = 512
    """Event streams one server process holds open at once (more: 503)."""

    admin_token: str | None = None
    """Bearer token for what all players share (resetting, snapshots and rollback of live learners).
    Unset: those endpoints answer 403 and ``parlour live`` does the job locally."""
    learn_limit: int = 60
    """Games a live learner learns from one client address per hour (0: no limit)."""
    learn_box_limit: int = 10
    """Games of one client address a live learner learns from in any one box (a MENACE matchbox,
    a Harel or Baltar state) since its last reset; its later games teach the other boxes only
    (0: no limit)."""
    canary_every: int = 25
    """After every this many learned games a live learner's strength is measured against fixed
    references, off the event loop; below the floor it is rolled back to its last good table and
    the games since are quarantined (0: never)."""
    snapshot_every: int = 50
    """A live learner keeps a snapshot every this many learned games (0: only before resets)."""
    snapshot_keep: int = 50
    """Snapshots kept per learner (the oldest go first)."""
    trusted_proxies: str = ""
    """Behind reverse proxies: their addresses or CIDR networks, comma-separated. X-Forwarded-For
    is read only from them, walked from the right past them (``app.addresses``); empty: never."""
    trust_forwarded: bool = False
    """No longer read (it trusted X-Forwarded-For from anyone): set true, the server refuses to start."""

    @field_validator("trusted_proxies")
    @classmethod
    def _proxies(cls, value: str) -> str:
        trusted_networks(value)
        return value

    @field_validator("trust_forwarded")
    @classmethod
    def _no_trust_forwarded(cls, value: bool) -> bool:
        if value:
            raise ValueError("PARLOUR_TRUST_FORWARDED is no longer read: it let any client choose its address "
                             "with X-Forwarded-For. Set PARLOUR_TRUSTED_PROXIES to your proxies' addresses "
                             "(e.g. 127.0.0.1) and remove PARLOUR_TRUST_FORWARDED")
        return value
    max_body_bytes: int = 65_536
    """Request bodies above this size are refused with 413 before they are parsed."""
    abandon_after_s: int = 86_400
    """A match with no move for this many seconds is finished as abandoned (0: never)."""
    create_limit: int = 30
    """Matches (with people or AI-only) one client may create per minute (0: no limit), counted in
    the database: the same limit whatever the number of server processes."""
    get_limit: int = 600
    """GET requests one client may make per minute (0: no limit; /static is not counted). Each
    process allows its share, this divided by ``workers``."""
    post_limit: int = 1200
    """Requests that write (POST, PUT, PATCH, DELETE) one client may make per minute (0: no
    limit), shared between the processes as ``get_limit`` is."""
    workers: int = 1
    """Server processes sharing the load (``parlour serve --workers N`` sets it)."""
    ai_only_min_delay_ms: int = 100
    """The shortest pause between two moves of an AI-only match, whatever its ``delay_ms`` (0: none)."""
    ai_only_running: int = 4
    """AI-only matches one client may have running at once (0: no limit), counted in the database."""


def get_settings() -> Settings:
    """The settings for the environment as it is now: a changed environment is always seen,
    but they are read (which costs a millisecond or more) only when a PARLOUR_ variable changed."""
    return _settings(tuple((k, os.environ[k]) for k in os.environ if k[:8].upper() == "PARLOUR_"))


@lru_cache(maxsize=8)
def _settings(_environment: tuple) -> Settings:
    return Settings()
