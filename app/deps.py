"""Dependencies for the routers, as ``Annotated`` aliases.

They are ``async def``: each is a few attribute reads, and a plain ``def`` dependency costs a
hop to a worker thread and back.
"""
from __future__ import annotations

from typing import Annotated, AsyncIterator

from fastapi import Depends, Header, Request
from sqlalchemy.orm import Session

from app.services.agents import AgentPool
from app.services.errors import ServiceError


async def get_session(request: Request) -> AsyncIterator[Session]:
    """A session for the request, opened and closed on the event loop: a Session connects
    lazily and closing it only hands its connection back, so neither needs a worker thread
    (a thread per step cost a hop each, and with every worker busy waiting for a connection
    the requests holding connections could not get a thread to give them back)."""
    with request.app.state.sessions() as session:
        yield session


async def get_pool(request: Request) -> AgentPool:
    return request.app.state.pool


async def get_token(authorization: Annotated[str | None, Header()] = None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token:
        raise ServiceError("Authorization must be 'Bearer <token>'")
    return token.strip()


SessionDep = Annotated[Session, Depends(get_session)]
PoolDep = Annotated[AgentPool, Depends(get_pool)]
TokenDep = Annotated[str | None, Depends(get_token)]
