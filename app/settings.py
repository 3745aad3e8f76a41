"""Settings from the environment (prefix PARLOUR_), in one place."""
from __future__ import annotations

from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="PARLOUR_")

    database_url: str = "sqlite:///parlour.db"
    """SQLAlchemy URL; SQLite (WAL, busy timeout) by default, PostgreSQL for several processes."""
    busy_timeout_ms: int = 10_000
    default_delay_ms: int = 700
    """Pause between moves of AI-only matches watched live."""
    streams_per_client: int = 32
    """Event streams one client address may hold open at once (more: 429)."""
    streams_total: int = 512
    """Event streams one server process holds open at once (more: 503)."""


def get_settings() -> Settings:
    """Read afresh each time (cheap), so a changed environment is always seen."""
    return Settings()
