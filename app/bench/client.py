"""A small asyncio HTTP/1.1 client for the server benchmark: one keep-alive connection per
simulated client, JSON in and out, loopback only.

It is deliberately thin (no pooling, no redirects, no TLS) so that the time measured is the
server's and not the client library's; every server in a run (the floor and Parlour) is timed
through the same code.
"""
from __future__ import annotations

import asyncio
import json


class HTTPError(RuntimeError):
    def __init__(self, status: int, body: bytes):
        super().__init__(f"HTTP {status}: {body[:200]!r}")
        self.status = status


class Connection:
    """One keep-alive connection to ``127.0.0.1:port``, from ``source`` when given (another
    loopback address, such as 127.0.0.7: the server sees another client)."""

    def __init__(self, port: int, source: str | None = None):
        self.port, self.source = port, source
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.headers: dict[str, str] = {}  # of the last answer

    async def open(self) -> "Connection":
        local = None if self.source is None else (self.source, 0)
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port, local_addr=local)
        return self

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except (ConnectionError, OSError):
                pass
            self.writer = None

    async def _io(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """The connection's two streams, opened first if it is closed."""
        if self.reader is None or self.writer is None:
            await self.open()
        assert self.reader is not None and self.writer is not None
        return self.reader, self.writer

    def _send(self, writer: asyncio.StreamWriter, method: str, path: str, body: bytes, token: str | None,
              extra: str = "") -> None:
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n{extra}"
        if body:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        writer.write(head.encode() + b"\r\n" + body)

    @staticmethod
    async def _head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
        status_line = await reader.readline()
        if not status_line:
            raise ConnectionError("the server closed the connection")
        status = int(status_line.split()[1])
        headers: dict[str, str] = {}
        while True:
            line = await reader.readline()
            if line in (b"\r\n", b"\n", b""):
                return status, headers
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()

    async def request(self, method: str, path: str, body: dict | None = None,
                      token: str | None = None) -> tuple[int, bytes]:
        """(status, body bytes) of one request on this connection."""
        reader, writer = await self._io()
        self._send(writer, method, path, b"" if body is None else json.dumps(body).encode(), token)
        await writer.drain()
        status, headers = await self._head(reader)
        if headers.get("transfer-encoding") == "chunked":
            data = bytearray()
            while True:
                size = int((await reader.readline()).strip(), 16)
                chunk = await reader.readexactly(size + 2)
                if size == 0:
                    break
                data += chunk[:-2]
            payload = bytes(data)
        else:
            payload = await reader.readexactly(int(headers.get("content-length", 0)))
        if headers.get("connection") == "close":
            await self.close()
        self.headers = headers
        return status, payload

    async def json(self, method: str, path: str, body: dict | None = None, token: str | None = None) -> dict:
        status, payload = await self.request(method, path, body, token)
        if not 200 <= status < 300:
            raise HTTPError(status, payload)
        return json.loads(payload)

    async def open_stream(self, path: str) -> int:
        """Start a server-sent-events request and read only its head (the stream stays open)."""
        reader, writer = await self._io()
        self._send(writer, "GET", path, b"", None, "Accept: text/event-stream\r\n")
        await writer.drain()
        status, self.headers = await self._head(reader)
        return status
