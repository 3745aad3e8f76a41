"""What every answer model shares."""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Answer(BaseModel):
    """An answer with exactly these fields: a key a model does not name fails its validation
    (and the fuzz test's schema check) instead of slipping out undescribed."""

    model_config = ConfigDict(extra="forbid")


class OpenAnswer(BaseModel):
    """An answer with these fields and others that come from elsewhere as they are (a game's
    description from the engine, a training run's metadata, a tournament's stored result)."""

    model_config = ConfigDict(extra="allow")
