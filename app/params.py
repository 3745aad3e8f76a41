"""What an id, a filter, a name or an instant may be, stated once for the schema and the server.

Each type here is both the check at the edge (422 beyond it, before any query) and what
/openapi.json says of the value, so that the one cannot accept what the other refuses:

- a match id has the one format ids are made in (``MATCH_ID``); any other answers 404 without a
  query, as an unknown id does;
- the other ids are whole numbers an ``Integer`` column holds (32 bits on PostgreSQL);
- a person's name is ``NAME_PATTERN`` (``app.services.people``);
- an instant is an RFC 3339 date-time with its offset (``2024-05-01T12:00:00Z``), as the
  schema's ``format: date-time`` says: no bare numbers, no dates without a time;
- a request body (``Body``) is JSON as the schema reads it, with no field the schema does not list.
NUL characters are refused for every route in one place before this (``app.edge``).
"""
from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated

from fastapi import Path
from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema, model_validator

from app.services.match_store import MATCH_ID
from app.services.people import MAX_NAME, NAME_PATTERN, clean_name


def _whole_numbers(value):
    """JSON's numbers as JSON Schema reads them: 8.0 is the integer 8 (and stays 8.5 if it is not)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _whole_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_whole_numbers(v) for v in value]
    return value


class Body(BaseModel):
    """What every request body is made of: JSON's own types as the schema names them (no "1" for
    1, no 0 for false; 8.0 is 8) and no field the schema does not list (no text goes unchecked)."""

    model_config = ConfigDict(strict=True, extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _json_numbers(cls, data):
        return _whole_numbers(data)


INT32_MAX = 2 ** 31 - 1
"""The largest value of an ``Integer`` column on PostgreSQL (ids, snapshots, tournaments)."""
JSON_SAFE_MAX = 2 ** 53 - 1
"""The largest whole number every JSON reader holds exactly (readers with doubles, JavaScript's
among them, round beyond it: a bound of 2**62 in the schema let 2**62 + 94 pass as valid)."""

MatchId = Annotated[str, Path(description="the match's id (32 hexadecimal digits; any other is unknown: 404)",
                              json_schema_extra={"pattern": f"^{MATCH_ID.pattern}$"})]

NAME_SCHEMA = {"type": "string", "maxLength": 256, "pattern": NAME_PATTERN}
Name = Annotated[str, Field(max_length=256), AfterValidator(clean_name),
                 WithJsonSchema({**NAME_SCHEMA, "description": f"printable text, 1 to {MAX_NAME} characters "
                                                               "once the spaces around it are trimmed"})]
"""A person's name in a body, trimmed (``clean_name``)."""
NameInPath = Annotated[str, Path(max_length=256, json_schema_extra={"pattern": NAME_PATTERN})]
"""A person's name in a path (the route trims it with ``clean_name``: 422 when it is not one)."""

RFC3339 = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})")


def rfc3339(value: object) -> object:
    if not isinstance(value, str) or not RFC3339.fullmatch(value):
        raise ValueError("must be an RFC 3339 date-time with its offset, such as 2024-05-01T12:00:00Z")
    return value


Instant = Annotated[datetime, BeforeValidator(rfc3339)]
"""An RFC 3339 date-time (the schema's ``format: date-time``)."""
