"""Dependencies for the routers, as ``Annotated`` aliases: database session, agent pool, a seat's
bearer token, the administrator's token, the client's address, and the lane heavy reads queue in.

They are ``async def``: each is a few attribute reads, and a plain ``def`` dependency costs a
hop to a worker thread and back. The two routes taken on every turn (a view, a move) call
``open_session`` and ``bearer`` themselves instead: FastAPI's solving of these dependencies
cost them about 45 µs a request, a session's generator most of it.
"""
from __future__ import annotations

import hashlib
import hmac
from typing import TYPE_CHECKING, Annotated, AsyncIterator

from fastapi import Depends, Header, Query, Request
from sqlalchemy.orm import Session

from app.addresses import client_of, trusted_networks
from app.services.agents import AgentPool
from app.services.catalog import known_game
from app.services.errors import Forbidden, Unauthorized
from app.settings import get_settings

if TYPE_CHECKING:
    from app.limits import Lane


def open_session(request: Request) -> Session:
    """A session for the request (use it in a ``with``), opened and closed on the event loop: a
    Session connects lazily and closing it only hands its connection back, so neither needs a
    worker thread (a thread per step cost a hop each, and with every worker busy waiting for a
    connection the requests holding connections could not get a thread to give them back)."""
    return request.app.state.sessions()


async def get_session(request: Request) -> AsyncIterator[Session]:
    with open_session(request) as session:
        yield session


async def get_pool(request: Request) -> AgentPool:
    return request.app.state.pool


async def get_heavy_reads(request: Request) -> Lane:
    """The lane of the reads whose cost grows with the data (``app.limits.Lane``)."""
    return request.app.state.heavy_reads


Authorization = Annotated[str | None, Header()]
"""The Authorization header, read by ``bearer``."""


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header; None without the header."""
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("the Authorization header must be 'Bearer <token>'")
    return token.strip()


async def get_token(authorization: Authorization = None) -> str | None:
    return bearer(authorization)


async def require_admin(token: Annotated[str | None, Depends(get_token)]) -> None:
    """What every player shares changes only with ``PARLOUR_ADMIN_TOKEN`` (compared in constant time)."""
    expected = get_settings().admin_token
    if not expected:
        raise Forbidden("no administrator token is configured on this server (PARLOUR_ADMIN_TOKEN); "
                        "use 'parlour live' on the server instead")
    if token is None:
        raise Unauthorized("this needs the administrator's token: Authorization: Bearer <token>")
    if not hmac.compare_digest(token.encode(), expected.encode()):
        raise Forbidden("that is not the administrator's token")


def client_address(request: Request) -> str:
    """The address the server sees; when that is one of PARLOUR_TRUSTED_PROXIES, the client
    they forwarded in X-Forwarded-For (``app.addresses``)."""
    networks = trusted_networks(get_settings().trusted_proxies)
    forwarded = request.headers.getlist("x-forwarded-for") if networks else []
    return client_of(request.client.host if request.client else None, forwarded, networks)


async def client_key(request: Request) -> str:
    """The client's address as stored with a match (hashed: addresses are never kept or served)."""
    return hashlib.sha256(f"parlour-client:{client_address(request)}".encode()).hexdigest()[:32]


async def game_filter(game: Annotated[str | None, Query(max_length=32, description="only this game "
                                                      "(an unknown game is 404)")] = None) -> str | None:
    """A ``game`` query filter: None, or a game Parlour offers (404 otherwise)."""
    return None if game is None else known_game(game)


SessionDep = Annotated[Session, Depends(get_session)]
GameFilter = Annotated[str | None, Depends(game_filter)]
PoolDep = Annotated[AgentPool, Depends(get_pool)]
HeavyDep = Annotated["Lane", Depends(get_heavy_reads)]
TokenDep = Annotated[str | None, Depends(get_token)]
AdminDep = Depends(require_admin)
ClientDep = Annotated[str, Depends(client_key)]
