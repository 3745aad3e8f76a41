"""HTML pages (Jinja2). They carry no secrets: the browser keeps a seat's token itself."""
from __future__ import annotations

from pathlib import Path

from typing import Annotated

from fastapi import APIRouter, Path as PathParam, Request
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.templating import Jinja2Templates

from agents.catalog import spec
from agents.saved_files import saved_path
from app.db import ROOT
from app.deps import SessionDep
from app.services import catalog
from app.services import match_store
from app.services.errors import NotFound, ServiceError
from app.services.people import clean_name
from app.settings import get_settings
from engine import GameError

router = APIRouter(include_in_schema=False)
templates = Jinja2Templates(directory=Path(ROOT) / "templates")


def render(request: Request, name: str, **context) -> HTMLResponse:
    return templates.TemplateResponse(request, name, {"games": catalog.all_games(), **context})


@router.get("/", response_class=HTMLResponse)
def lobby(request: Request):
    return render(request, "lobby.html", page="lobby")


@router.get("/play/{match_id}", response_class=HTMLResponse)
def table(request: Request, match_id: Annotated[str, PathParam(max_length=64)], session: SessionDep):
    match = match_store.read(session, match_id)
    return render(request, "table.html", page="play", match_id=match.id, game=catalog.game_json(match.game))


@router.get("/watch", response_class=HTMLResponse)
def watch(request: Request):
    return render(request, "watch.html", page="watch", min_delay_ms=get_settings().ai_only_min_delay_ms)


@router.get("/results", response_class=HTMLResponse)
def results(request: Request):
    return render(request, "results.html", page="results")


@router.get("/leaderboard", response_class=HTMLResponse)
def leaderboard(request: Request, game: str | None = None):
    names = [g["name"] for g in catalog.all_games()]
    return render(request, "leaderboard.html", page="leaderboard", game=game if game in names else names[0])


@router.get("/rules/{game}", response_class=HTMLResponse)
def rules(request: Request, game: Annotated[str, PathParam(max_length=32)]):
    if game not in [g["name"] for g in catalog.all_games()]:
        raise NotFound(f"no rules page for {game!r}")
    return render(request, "rules.html", page="rules", game=catalog.game_json(game))


@router.get("/people/{name}", response_class=HTMLResponse)
def person_page(request: Request, name: Annotated[str, PathParam(max_length=256)]):
    try:
        name = clean_name(name)
    except ValueError as err:
        raise ServiceError(str(err)) from None
    return render(request, "person.html", page="people", person=name)


@router.get("/agents/{game}/{agent}", response_class=HTMLResponse)
def agent_page(request: Request, game: str, agent: str):
    try:
        s = spec(game, agent)
    except GameError as err:
        raise NotFound(str(err)) from None
    # the header's MENACE link is the live MENACE's page: it is "current" there, not on every agent's page
    page = "menace" if (game, agent) == ("tictactoe", "menace-live") else "agents"
    return render(request, "agent.html", page=page, game=catalog.game_json(game),
                  agent=catalog.agent_json(game, agent), picture=_picture(game, s.saved) is not None)


def _picture(game: str, saved: str | None) -> Path | None:
    """The picture a trainer drew beside a shipped agent's weights (``<saved>.svg``), if any."""
    path = saved_path(game, saved).with_suffix(".svg") if saved else None
    return path if path is not None and path.exists() else None


@router.get("/agents/{game}/{agent}/training.svg")
def training_picture(game: str, agent: str) -> FileResponse:
    """The picture its trainer drew of an agent's training (beside its shipped weights), for the
    agent's page when the curve is not one the page charts itself."""
    try:
        path = _picture(game, spec(game, agent).saved)
    except GameError as err:
        raise NotFound(str(err)) from None
    if path is None:
        raise NotFound(f"{agent} has no picture of its training")
    return FileResponse(path, media_type="image/svg+xml", headers={"Cache-Control": "public, max-age=3600"})
