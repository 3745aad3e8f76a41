"""Games: rules summary, options with defaults, levels with measured strength."""
from fastapi import APIRouter

from app.problems import problems
from app.services import catalog
from app.services.errors import NotFound
from agents.catalog import playable_games

router = APIRouter(prefix="/api/games", tags=["games"])


@router.get("")
def list_games() -> list[dict]:
    return catalog.all_games()


@router.get("/{game}", responses=problems(404))
def get_game(game: str) -> dict:
    if game not in playable_games():
        raise NotFound(f"no game {game[:32]!r}; games: {', '.join(playable_games())}")
    return catalog.game_json(game)
