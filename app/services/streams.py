"""Caps on open streams (event streams, streamed exports): at most ``per_client`` from one client
address (429) and ``total`` in this process (503), both with a Retry-After. Counted in memory,
per process."""
from __future__ import annotations

import threading
from typing import Callable

from app.services.errors import ServiceError

RETRY_AFTER_S = 5


class TooManyStreams(ServiceError):
    status = 429
    retry_after = RETRY_AFTER_S


class ServerBusy(ServiceError):
    status = 503
    retry_after = RETRY_AFTER_S


class StreamLimits:
    def __init__(self, per_client: int, total: int, what: str = "event streams"):
        self.per_client, self.total, self.what = per_client, total, what
        self._open: dict[str, int] = {}
        self._count = 0
        self._lock = threading.Lock()

    def acquire(self, client: str) -> Callable[[], None]:
        """Count one stream for ``client``; returns the function that gives its place back
        (calling it more than once does nothing more). Raises 503 or 429 when full."""
        with self._lock:
            if self._count >= self.total:
                raise ServerBusy(f"this server has {self.total} {self.what} open, its limit; "
                                 f"try again in {RETRY_AFTER_S} s")
            if self._open.get(client, 0) >= self.per_client:
                raise TooManyStreams(f"at most {self.per_client} {self.what} may be open from one address; "
                                     "close one first")
            self._open[client] = self._open.get(client, 0) + 1
            self._count += 1
        released = False

        def release() -> None:
            nonlocal released
            with self._lock:
                if released:
                    return
                released = True
                self._count -= 1
                left = self._open[client] - 1
                if left:
                    self._open[client] = left
                else:
                    del self._open[client]

        return release

    def open_streams(self) -> int:
        with self._lock:
            return self._count
