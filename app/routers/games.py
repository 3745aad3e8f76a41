"""Games: rules summary, options with defaults, levels with measured strength, a fair game."""
from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from app.deps import SessionDep
from app.problems import problems
from app.schemas.games import GameOut
from app.routers.matches import SeatIn
from app.services import catalog, ladder
from app.services.people import NAME_PATTERN

router = APIRouter(prefix="/api/games", tags=["games"])


class FairGame(BaseModel):
    """A fair game for one person: POST ``{"game": ..., "seats": seats}`` to /api/matches."""

    seats: list[SeatIn] = Field(description="the seats of the match to create, in the shape /api/matches takes: "
                                            "the person first, then an AI of the chosen level in every other seat")
    why: str = Field(description="why this level, in plain words")
    level: int = Field(description="the level chosen (1 is the easiest)")


@router.get("", response_model=list[GameOut])
def list_games() -> list[dict]:
    return catalog.all_games()


@router.get("/{game}", response_model=GameOut, responses=problems(404))
def get_game(game: str) -> dict:
    return catalog.game_json(catalog.known_game(game))


@router.get("/{game}/fair", response_model=FairGame, response_model_exclude_none=True, responses=problems(404))
def fair_game(game: str, session: SessionDep,
              player: Annotated[str | None, Query(max_length=256, json_schema_extra={"pattern": NAME_PATTERN},
                                                  description="your name, as you play under it "
                                                  "(without it: a newcomer)")] = None) -> dict:
    """The AI level to play for a fair game: after each finished match one step up the ladder
    of levels (a win) or down (a loss); before any, the level whose rating is nearest yours in
    this game; a newcomer starts in the middle. ``why`` says which, in words."""
    return ladder.fair(session, catalog.known_game(game), player)
