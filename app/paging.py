"""Pages of the list routes: ``limit`` (with a default and a maximum) and a keyset cursor.

A cursor is the sort key of the last item a page gave (for example its finished time and id),
written as opaque text (URL-safe base64); the next page starts after it, so a page costs the same however deep
it is and an item added meanwhile neither repeats nor skips one. The answer names the next
page: in its ``next`` field, and as a ``Link: <...>; rel="next"`` header (RFC 8288) on the
routes whose answer is a bare list.
"""
from __future__ import annotations

import base64
import binascii
from datetime import datetime
from typing import Annotated, Any

import orjson
from fastapi import Query, Request
from fastapi.responses import Response
from sqlalchemy import tuple_

from app.services.errors import NotFound

CursorParam = Annotated[str | None, Query(min_length=1, max_length=200, pattern="^[A-Za-z0-9_-]+$",
                                          description="where the page starts: the `next` of the page before "
                                                      "(opaque; one this server did not give is 404)")]


def encode(*key: Any) -> str:
    """A cursor from a sort key (datetimes, text, numbers)."""
    parts = [{"t": v.isoformat()} if isinstance(v, datetime) else v for v in key]
    return base64.urlsafe_b64encode(orjson.dumps(parts)).decode().rstrip("=")


def decode(cursor: str, *kinds: type) -> tuple:
    """The sort key a cursor holds, each part of the kind given. A cursor this server did not
    give names no page: 404 (one the schema refuses, 422, never gets here)."""
    try:
        parts = orjson.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        if not isinstance(parts, list) or len(parts) != len(kinds):
            raise ValueError
        key = []
        for part, kind in zip(parts, kinds):
            if kind is datetime:
                part = datetime.fromisoformat(part["t"])
            elif kind is float and isinstance(part, int) and not isinstance(part, bool):
                part = float(part)
            if not isinstance(part, kind) or isinstance(part, bool):
                raise ValueError
            if isinstance(part, int) and not -2**63 <= part < 2**63 or isinstance(part, str) and "\x00" in part:
                raise ValueError  # no row holds it, and the databases refuse it (a BIGINT, a NUL in text)
            key.append(part)
        return tuple(key)
    except (ValueError, TypeError, KeyError, binascii.Error, orjson.JSONDecodeError):
        raise NotFound("no page at that cursor: it is not one this server gave (pass the `next` of a page "
                       "as it came)") from None


def after(columns: tuple, cursor: str | None, *kinds: type, descending: bool = False):
    """The WHERE clause of the rows after ``cursor`` in the order of ``columns`` (None: no cursor)."""
    if cursor is None:
        return None
    key = decode(cursor, *kinds)
    row, at = tuple_(*columns), tuple_(*key)
    return row < at if descending else row > at


def next_link(request: Request, cursor: str | None) -> dict[str, str]:
    """The ``Link`` header naming the next page (none on the last page)."""
    if cursor is None:
        return {}
    url = request.url.include_query_params(cursor=cursor)
    return {"Link": f'<{url.path}?{url.query}>; rel="next"'}


def json_answer(content: Any, headers: dict[str, str] | None = None) -> Response:
    """A page as JSON, written by orjson (FastAPI's own encoder took most of a large page's time)."""
    return Response(orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS), media_type="application/json",
                    headers=headers)
