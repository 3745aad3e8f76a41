"""The FastAPI application: ``create_app()``; ``app`` for uvicorn (``app.main:app``)."""
from __future__ import annotations

import logging
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from app.db import ROOT, make_engine, migrate, session_factory
from app.routers import agents, games, matches, pages, results
from app.services.agents import AgentPool
from app.services.errors import ServiceError
from app.services.streams import StreamLimits
from app.settings import get_settings
from agents.catalog import playable_games
from engine import GameError, IllegalActionError

log = logging.getLogger("parlour")


def create_app(database_url: str | None = None, preload: bool = True) -> FastAPI:
    settings = get_settings()
    url = database_url or settings.database_url

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        migrate(url)
        app.state.engine = make_engine(url, settings.busy_timeout_ms)
        app.state.sessions = session_factory(app.state.engine)
        app.state.pool = AgentPool()
        app.state.streams = StreamLimits(settings.streams_per_client, settings.streams_total)
        if preload:
            app.state.pool.preload(playable_games())
        yield
        app.state.engine.dispose()

    app = FastAPI(title="Parlour", version="0.1.0", lifespan=lifespan,
                  description="Play parlour games against trained AIs. Every result is queryable here.")

    @app.exception_handler(ServiceError)
    async def service_error(_request: Request, err: ServiceError):
        retry = getattr(err, "retry_after", None)
        return JSONResponse({"detail": str(err)}, status_code=err.status,
                            headers={"Retry-After": str(retry)} if retry else None)

    @app.exception_handler(IllegalActionError)
    async def illegal(_request: Request, err: IllegalActionError):
        return JSONResponse({"detail": str(err), "action": err.action, "reason": err.reason}, status_code=409)

    @app.exception_handler(GameError)
    async def game_error(_request: Request, err: GameError):
        return JSONResponse({"detail": str(err)}, status_code=400)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, err: RequestValidationError):
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'] if p != 'body')}: {e['msg']}"
                             for e in err.errors())
        return JSONResponse({"detail": f"invalid request: {problems}"}, status_code=422)

    for router in (games.router, agents.router, matches.router, results.router, pages.router):
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=Path(ROOT) / "static"), name="static")
    return app


app = create_app()
