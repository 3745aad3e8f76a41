"""Text with a NUL character is refused at the edge, for every route: 422 before any route runs.

No value of Parlour holds a NUL (U+0000), and PostgreSQL cannot even compare one with a text
column (it answered 500 to a NUL in a match id or a filter). One pure ASGI middleware looks at
the path, the query string and a request's body: a NUL there, raw or percent-encoded in the
path and query, or escaped as ``\\u0000`` inside a JSON string, is a Problem (or an error page)
naming where it was. Bodies are read whole first; BodyLimit, outside this, bounds them.
"""
from __future__ import annotations

import json
import re
from urllib.parse import parse_qsl

from starlette.requests import Request

from app import problems

NUL_ESCAPE = re.compile(rb"(?<!\\)(?:\\\\)*\\u0000")
"""``\\u0000`` opening an escape in JSON text (after an even run of backslashes, which escape
each other)."""
BODILESS = frozenset({"GET", "HEAD", "OPTIONS"})


def _where_in_json(value, at: str) -> str | None:
    """The path of the first string (key or value) holding a NUL in a parsed JSON value."""
    if isinstance(value, str):
        return at if "\x00" in value else None
    if isinstance(value, dict):
        for key, item in value.items():
            if "\x00" in key:
                return f"{at} (a key)"
            found = _where_in_json(item, f"{at}.{key}")
            if found:
                return found
    if isinstance(value, list):
        for i, item in enumerate(value):
            found = _where_in_json(item, f"{at}.{i}")
            if found:
                return found
    return None


def _where_in_query(query: bytes) -> str | None:
    if b"%00" not in query and b"\x00" not in query:
        return None
    for key, value in parse_qsl(query.decode("latin-1"), keep_blank_values=True):
        if "\x00" in key:
            break
        if "\x00" in value:
            return f"query.{key}"
    return "query"


class RefuseNul:
    """422 for a NUL in the path, the query or a JSON body, whatever the route."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        where = "path" if "\x00" in scope["path"] else _where_in_query(scope.get("query_string", b""))
        if where is None and scope["method"] not in BODILESS:
            messages, more = [], True
            while more:
                message = await receive()
                messages.append(message)
                more = message["type"] == "http.request" and message.get("more_body", False)
            body = b"".join(m.get("body", b"") for m in messages)
            if NUL_ESCAPE.search(body):
                try:
                    where = _where_in_json(json.loads(body), "body")
                except ValueError:
                    pass  # not JSON: the route answers 400
            receive = _replay(messages, receive)
        if where is None:
            return await self.app(scope, receive, send)
        answer = problems.answer(Request(scope), 422, f"{where}: text must be printable: it holds a NUL "
                                                      "character (U+0000)", field=where.split(" ")[0])
        await answer(scope, receive, send)


NUL_FREE = "^[^\\x00]*$"


def nul_free_schema(openapi: dict) -> dict:
    """The API document saying what RefuseNul does: every free-text string a request may carry
    (in a path, a query or a body, without a pattern, format or list of values of its own) gets
    the pattern NUL_FREE. Changes ``openapi`` in place (once) and returns it."""
    components = openapi.get("components", {}).get("schemas", {})
    seen: set[str] = set()

    def walk(node) -> None:
        if isinstance(node, list):
            for item in node:
                walk(item)
        if not isinstance(node, dict):
            return
        ref = node.get("$ref", "")
        if ref.startswith("#/components/schemas/") and ref not in seen:
            seen.add(ref)
            walk(components.get(ref.rsplit("/", 1)[1]))
        if node.get("type") == "string" and not {"enum", "const", "pattern", "format"} & set(node):
            node["pattern"] = NUL_FREE
        for key, value in node.items():
            if key not in ("examples", "example", "default", "enum", "const"):
                walk(value)

    for operations in openapi.get("paths", {}).values():
        for operation in operations.values():
            walk([p["schema"] for p in operation.get("parameters", []) if p.get("in") in ("path", "query")])
            walk(operation.get("requestBody", {}))
    return openapi


def _replay(messages: list, receive):
    """A ``receive`` giving back the messages read, then the client's own."""
    pending = list(messages)

    async def replay():
        return pending.pop(0) if pending else await receive()

    return replay
