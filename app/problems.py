"""One shape for every error answer, and how each exception becomes one.

Every 4xx from ``/api/...`` is a JSON ``Problem``: ``detail`` (what is wrong, in words, naming
the field), and where useful ``field`` and, for illegal moves, ``action`` and ``reason``.
Pages (anything outside ``/api`` and the API documents) answer errors as an HTML page in the
site's style. Status codes follow one rule (docs/security.md, "The ground rules"): 400 malformed request,
401/403 credentials (missing or malformed / wrong), 404 unknown resource, 409 against the state
of a game or learner, 413 too large, 422 invalid value, 429 too many requests.

No message repeats more than 100 characters of anyone's input: long runs are clipped here, in
one place, whatever raised the error.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException
from starlette.routing import Match

from app.db import ROOT
from app.services.errors import ServiceError
from engine import GameError, IllegalActionError

MAX_ECHO = 100


class Problem(BaseModel):
    """An error answer (every 4xx)."""

    detail: str = Field(description="what is wrong, in words")
    field: str | None = Field(None, description="the request field at fault, as body.seats.0.level")
    action: str | None = Field(None, description="an illegal move's action id (409)")
    reason: str | None = Field(None, description="why that move is illegal (409)")


MEANING = {400: "malformed request (not JSON, not an object)", 401: "credentials missing or malformed",
           403: "credentials wrong or not enough", 404: "unknown resource", 409: "against the state of the game "
           "or learner", 413: "request body too large", 422: "invalid value", 429: "too many requests (see "
           "Retry-After)", 503: "server busy (see Retry-After)"}


def problems(*codes: int) -> dict:
    """OpenAPI ``responses`` for the error statuses an operation can answer."""
    return {code: {"model": Problem, "description": MEANING[code]} for code in codes}


def clip(text: str) -> str:
    """Cut every run of more than MAX_ECHO characters without a space (an echoed value) and the
    message as a whole, so no answer repeats much of its input."""
    text = re.sub(r"\S{%d,}" % (MAX_ECHO + 1), lambda m: m.group(0)[:MAX_ECHO] + "…", text)
    return text if len(text) <= 4 * MAX_ECHO else text[:4 * MAX_ECHO] + "…"


def is_api(request: Request) -> bool:
    path = request.url.path
    return path.startswith("/api/") or path == "/api" or path in ("/openapi.json",)


templates = Jinja2Templates(directory=Path(ROOT) / "templates")


def answer(request: Request, status: int, detail: str, headers: dict | None = None, **extra) -> Response:
    detail = clip(detail)
    if is_api(request):
        body = {"detail": detail, **{k: clip(str(v)) for k, v in extra.items() if v is not None}}
        return JSONResponse(body, status_code=status, headers=headers)
    from app.services import catalog

    return templates.TemplateResponse(request, "error.html", {"games": catalog.all_games(), "page": "error",
                                                              "status": status, "detail": detail},
                                      status_code=status, headers=headers)


def is_json(content_type: str | None) -> bool:
    """Does a Content-Type header say JSON (application/json or application/...+json)?"""
    kind = (content_type or "").split(";")[0].strip().lower()
    return kind == "application/json" or (kind.startswith("application/") and kind.endswith("+json"))


def _field(loc) -> str:
    return ".".join(str(p) for p in loc)


def _validation(request: Request, err: RequestValidationError):
    errors = err.errors()
    first: dict[str, Any] = errors[0] if errors else {"loc": (), "msg": "invalid request", "type": ""}
    if first.get("type") == "json_invalid":
        doc, pos = err.body if isinstance(err.body, str) else "", first["loc"][-1]
        if isinstance(pos, int) and doc:
            line = doc.count("\n", 0, pos) + 1
            column = pos - (doc.rfind("\n", 0, pos) + 1) + 1
            where = f" (line {line}, column {column})"
        else:
            where = ""
        why = first.get("ctx", {}).get("error", "")
        return answer(request, 400, f"body is not valid JSON{where}: {why}".rstrip(": "), field="body")
    if tuple(first.get("loc", ())) == ("body",) and first.get("type") in ("dict_type", "model_attributes_type"):
        sent = request.headers.get("content-type")
        if not is_json(sent):  # FastAPI reads a body as JSON only when its Content-Type says it is JSON
            said = f"said {sent!r}" if sent else "had no Content-Type"
            return answer(request, 400, "the body must be JSON sent with the header 'Content-Type: application/json' "
                                        f"(this request {said})", field="body")
        return answer(request, 400, "body must be a JSON object", field="body")
    parts = []
    for e in errors[:5]:
        field = _field(e.get("loc", ()))
        msg = e.get("msg", "invalid").removeprefix("Value error, ")
        if e.get("type") == "missing":
            msg = "is required"
        parts.append(f"{field}: {msg}" if field else msg)
    more = f" (and {len(errors) - 5} more)" if len(errors) > 5 else ""
    return answer(request, 422, "; ".join(parts) + more, field=_field(first.get("loc", ())) or None)


def install(app: FastAPI) -> None:
    """Register the handlers that turn every error into a Problem (or an HTML page)."""

    @app.exception_handler(ServiceError)
    async def service_error(request: Request, err: ServiceError):
        retry = getattr(err, "retry_after", None)
        return answer(request, err.status, str(err), headers={"Retry-After": str(retry)} if retry else None,
                      field=err.field)

    @app.exception_handler(IllegalActionError)
    async def illegal(request: Request, err: IllegalActionError):
        return answer(request, 409, str(err), action=err.action, reason=err.reason)

    @app.exception_handler(GameError)
    async def game_error(request: Request, err: GameError):
        return answer(request, 422, str(err))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, err: RequestValidationError):
        return _validation(request, err)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, err: HTTPException):
        if err.status_code < 400 or err.status_code in (204, 304):
            return JSONResponse(None, status_code=err.status_code, headers=err.headers)
        detail = err.detail if isinstance(err.detail, str) else "error"
        headers = dict(err.headers or {})
        if err.status_code == 404:
            detail = f"nothing at {request.url.path}" if detail == "Not Found" else detail
        if err.status_code == 405:
            allowed = ", ".join(allowed_methods(request))
            detail, headers["Allow"] = f"{request.method} is not allowed here; allowed: {allowed}", allowed
        return answer(request, err.status_code, detail, headers=headers or None)


METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")


def allowed_methods(request: Request) -> list[str]:
    """Every method some route takes at this path (Starlette's 405 names only the first route's)."""
    routes = request.app.router.routes
    return [m for m in METHODS if any(r.matches({**request.scope, "method": m})[0] == Match.FULL for r in routes)]


def document_quotas(app: FastAPI) -> None:
    """Every operation may answer 429 (the quotas of reads and of writes, ``app.limits.Quota``):
    said in the OpenAPI document, once it is made."""
    make = app.openapi

    def openapi() -> dict:
        if app.openapi_schema is None:
            schema = make()
            for operations in schema.get("paths", {}).values():
                for method in ("get", "post", "put", "patch", "delete"):
                    operation = operations.get(method)
                    if operation is None:
                        continue
                    operation.setdefault("responses", {}).setdefault("429", {
                        "description": MEANING[429],
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Problem"}}},
                    })
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
