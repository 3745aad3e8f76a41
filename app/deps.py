"""Dependencies for the routers, as ``Annotated`` aliases."""
from __future__ import annotations

from typing import Annotated, Iterator

from fastapi import Depends, Header, Request
from sqlalchemy.orm import Session

from app.services.agents import AgentPool
from app.services.errors import ServiceError


def get_session(request: Request) -> Iterator[Session]:
    with request.app.state.sessions() as session:
        yield session


def get_pool(request: Request) -> AgentPool:
    return request.app.state.pool


def get_token(authorization: Annotated[str | None, Header()] = None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token:
        raise ServiceError("Authorization must be 'Bearer <token>'")
    return token.strip()


SessionDep = Annotated[Session, Depends(get_session)]
PoolDep = Annotated[AgentPool, Depends(get_pool)]
TokenDep = Annotated[str | None, Depends(get_token)]
