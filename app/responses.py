"""Responses the routers share."""
from __future__ import annotations

from fastapi.responses import StreamingResponse


class ReleasingStream(StreamingResponse):
    """A stream that gives back its place under the caps however it ends (even unstarted)."""

    def __init__(self, content, release, **kwargs):
        super().__init__(content, **kwargs)
        self._release = release

    async def __call__(self, scope, receive, send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._release()
