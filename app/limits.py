"""What keeps one client from costing everyone: the body size limit (413 before parsing), the
per-client quotas of reads (GET) and of writes (POST ...) (429 + Retry-After), the lanes heavy work
queues in, and the security headers every response carries. Pure ASGI middleware, so streamed
responses pass through untouched. (The limits on creating matches and on running AI-only matches
are counted in the database: ``app.services.quotas``.)

The quotas are counted in memory, per process, in fixed one-minute windows per client address:
each process allows its share of ``PARLOUR_GET_LIMIT`` (``PARLOUR_POST_LIMIT``), the limit divided by ``PARLOUR_WORKERS``,
so however a client's requests spread over the processes it never gets more than the limit, and
counting costs no database round trip on the busiest requests. The price: a client whose
connections all land on one process gets only that share, hence a generous default.
"""
from __future__ import annotations

import asyncio
import json
import math
import time
from collections import OrderedDict
from threading import Lock
from typing import Any, Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from app import problems
from app.deps import client_address

SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
     b"worker-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
     b"frame-ancestors 'none'"),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
]


class SecurityHeaders:
    """Adds SECURITY_HEADERS to every HTTP response."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = list(message.get("headers", [])) + [
                    (k, v) for k, v in SECURITY_HEADERS if k not in names]
            await send(message)

        await self.app(scope, receive, send_with_headers)


DRAIN_BYTES = 8 * 1024 * 1024
"""A refused body up to this size is read and dropped before answering 413; a larger one is
answered at once and the connection closed."""


class BodyTooLarge(Exception):
    pass


class BodyLimit:
    """Refuses request bodies over ``limit`` bytes with 413, from Content-Length when given and
    while reading otherwise, before anything parses them."""

    def __init__(self, app, limit: int):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or self.limit <= 0:
            return await self.app(scope, receive, send)
        length = dict(scope.get("headers", [])).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            if length.isdigit() and int(length) <= DRAIN_BYTES:
                await self._drain(receive)  # so the client, still sending, reads the answer
            return await self._refuse(send)
        seen = 0
        too_large = False
        refused = False

        async def counting_receive():
            nonlocal seen, too_large
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    too_large = True
                    raise BodyTooLarge
            return message

        async def guarded_send(message):
            # Whatever the app makes of a body cut short, the answer is 413.
            nonlocal refused
            if too_large:
                if not refused:
                    refused = True
                    await self._refuse(send)
                return
            await send(message)

        try:
            await self.app(scope, counting_receive, guarded_send)
        except BodyTooLarge:
            if not refused:
                await self._refuse(send)

    @staticmethod
    async def _drain(receive):
        """Read a refused body to its end and drop it (never parsed, never kept)."""
        while True:
            message = await receive()
            if message["type"] != "http.request" or not message.get("more_body", False):
                return

    async def _refuse(self, send):
        body = json.dumps({"detail": f"request body is larger than {self.limit} bytes"}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})


class RateLimiter:
    """At most ``limit`` events per client in each ``window`` seconds (fixed windows)."""

    def __init__(self, window: float = 60.0, max_clients: int = 10_000):
        self.window, self.max_clients = window, max_clients
        self._counts: OrderedDict[str, tuple[float, int]] = OrderedDict()
        self._lock = Lock()

    def hit(self, client: str, limit: int) -> float:
        """Count one event; 0 if allowed, else the seconds until the client may try again."""
        now = time.monotonic()
        with self._lock:
            start, count = self._counts.pop(client, (now, 0))
            if now - start >= self.window:
                start, count = now, 0
            if count >= limit:
                self._counts[client] = (start, count)
                return start + self.window - now
            self._counts[client] = (start, count + 1)
            while len(self._counts) > self.max_clients:
                self._counts.popitem(last=False)
            return 0.0


READS = ("GET", "HEAD")
WRITES = ("POST", "PUT", "PATCH", "DELETE")


class Quota:
    """At most ``limit`` requests of the ``methods`` (``READS`` or ``WRITES``: ``kind`` names them)
    a minute from one client address in this process (0: no limit), answered 429 with Retry-After
    beyond; ``/static`` files are not counted. Writes have a quota of their own since session 21:
    a probe's one client made 3,535 moves in 30 s, its match growing the database by 2 GB an hour."""

    def __init__(self, app, limit: int, methods: tuple[str, ...], kind: str):
        self.app, self.limit, self.methods, self.kind = app, limit, methods, kind
        self.counts = RateLimiter()

    async def __call__(self, scope, receive, send):
        if (self.limit <= 0 or scope["type"] != "http" or scope["method"] not in self.methods
                or scope["path"].startswith("/static/")):
            return await self.app(scope, receive, send)
        request = Request(scope)
        wait = self.counts.hit(client_address(request), self.limit)
        if wait <= 0:
            return await self.app(scope, receive, send)
        seconds = math.ceil(wait)
        answer = problems.answer(request, 429, f"too many requests from one address (at most {self.limit} "
                                 f"{self.kind} a minute here); try again in {seconds} s", {"Retry-After": str(seconds)})
        await answer(scope, receive, send)


def get_share(limit: int, workers: int) -> int:
    """This process's share of a per-client limit of ``limit`` over ``workers`` processes."""
    return 0 if limit <= 0 else max(1, limit // max(1, workers))


class Lane:
    """Heavy work of one kind, at most ``width`` jobs at once in this process, each in a worker
    thread; the others wait their turn (first come, first served) holding no thread. A job in a
    thread shares the interpreter with the event loop; however many clients ask at once, the
    requests that are quick (a view, a move) compete with ``width`` such threads, not hundreds."""

    def __init__(self, width: int = 1):
        self.width = width
        self._slots: asyncio.Semaphore | None = None

    async def run(self, work: Callable[..., Any], *args: Any) -> Any:
        if self._slots is None:  # made on the event loop that uses it
            self._slots = asyncio.Semaphore(self.width)
        async with self._slots:
            return await run_in_threadpool(work, *args)
