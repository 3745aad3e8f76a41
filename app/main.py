"""The FastAPI application: ``create_app()``; ``app`` for uvicorn (``app.main:app``)."""
from __future__ import annotations

import gc
import logging
from contextlib import asynccontextmanager
from pathlib import Path
from threading import Thread

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from app import problems
from app.db import ROOT, make_engine, migrate, session_factory
from app.edge import RefuseNul, nul_free_schema
from app.limits import READS, WRITES, BodyLimit, Lane, Quota, SecurityHeaders, get_share
from app.routers import agents, docs, games, matches, pages, results
from app.services import live, relay
from app.services.agents import AgentPool
from app.services import thinking
from app.services.coach import Reviewer
from app.services.notifier import NOTIFIER
from app.services.streams import StreamLimits
from app.settings import get_settings
from agents.catalog import playable_games

log = logging.getLogger("parlour")

EXPORTS_PER_CLIENT, EXPORTS_TOTAL = 2, 8
"""Streamed exports open at once from one client address (429 beyond) and in one process (503)."""


def create_app(database_url: str | None = None, preload: bool | None = None) -> FastAPI:
    settings = get_settings()
    url = database_url or settings.database_url
    preload = settings.preload if preload is None else preload

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        migrate(url)
        app.state.engine = make_engine(url, settings.busy_timeout_ms)
        app.state.sessions = session_factory(app.state.engine)
        app.state.pool = AgentPool()
        app.state.streams = StreamLimits(settings.streams_per_client, settings.streams_total)
        app.state.exports = StreamLimits(EXPORTS_PER_CLIENT, EXPORTS_TOTAL, "exports")
        app.state.heavy_reads = Lane()  # the list routes' pages, exports' batches, replays
        app.state.ai_only_moves = Lane()  # the moves of watched AI-only matches
        app.state.reviewer = Reviewer(app.state.sessions)
        app.state.relay = relay.start(url, app.state.sessions, NOTIFIER)
        if preload:
            app.state.pool.preload(playable_games())
            thinking.start()
            Thread(target=live.load_current, args=(app.state.sessions, playable_games()), name="live-tables",
                   daemon=True).start()
        # What start-up made lives as long as the process (the agents' tables and networks,
        # the modules): kept out of the collector's full passes, each of which otherwise walked
        # it all and stopped every request for about 100 ms. And the young generation is
        # collected every 10,000 new objects, not 700: a move makes a few thousand that die
        # young, and under 64 clients the collector's time fell from 5.4% to 2.4% of the CPU.
        gc.collect()
        gc.freeze()
        thresholds = gc.get_threshold()
        gc.set_threshold(10_000, *thresholds[1:])
        yield
        gc.set_threshold(*thresholds)
        gc.unfreeze()
        app.state.relay.close()
        app.state.reviewer.close()
        if preload:
            thinking.stop()
        app.state.engine.dispose()

    app = FastAPI(title="Parlour", version="0.1.0", lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="Play parlour games against trained AIs. Every result is queryable here. "
                              "Every error answer is a Problem; statuses: 400 malformed, 401/403 credentials, "
                              "404 unknown, 409 against the game state, 413 too large, 422 invalid value, "
                              "429 too many.")
    problems.install(app)
    for router in (matches.router, games.router, agents.router, results.router):  # the busiest first: routes are tried in order
        app.include_router(router, responses=problems.problems(422))
    for router in (docs.router, pages.router):
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=Path(ROOT) / "static"), name="static")

    def openapi() -> dict:
        """The API document, saying what RefuseNul refuses (made once, when first asked for)."""
        if app.openapi_schema is None:
            nul_free_schema(FastAPI.openapi(app))
        return app.openapi_schema  # type: ignore[return-value]

    app.openapi = openapi  # type: ignore[method-assign]
    problems.document_quotas(app)
    app.add_middleware(RefuseNul)  # inside BodyLimit: it reads bodies BodyLimit has bounded
    app.add_middleware(Quota, limit=get_share(settings.get_limit, settings.workers), methods=READS, kind="reads")
    app.add_middleware(Quota, limit=get_share(settings.post_limit, settings.workers), methods=WRITES, kind="writes")
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    app.add_middleware(SecurityHeaders)
    return app


app = create_app()
