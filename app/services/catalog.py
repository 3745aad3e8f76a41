"""What the API and pages say about games, levels and agents (with measured strength)."""
from __future__ import annotations

import json
from functools import lru_cache

from agents.catalog import agent_specs, levels, playable_games, spec
from agents.saved_files import SAVED
from app.services.errors import NotFound
from engine import get_game


def known_game(name: str) -> str:
    """``name``, when it names a game Parlour offers. One rule wherever a game is named (a path,
    a query filter, a body): an unknown game is 404, with the list of games."""
    if name not in playable_games():
        raise NotFound(f"no game {name[:32]!r}; games: {', '.join(playable_games())}")
    return name


@lru_cache(maxsize=None)
def _calibration_file(game: str, mtime: float) -> dict:
    return json.loads((SAVED / "calibration" / f"{game}.json").read_text())


def calibration(game: str) -> dict | None:
    """The stored calibration of a game's levels (written by `parlour calibrate`), or None."""
    path = SAVED / "calibration" / f"{game}.json"
    return _calibration_file(game, path.stat().st_mtime) if path.exists() else None


def strength(game: str, agent_id: str) -> dict | None:
    data = calibration(game)
    return None if data is None else data["agents"].get(agent_id)


def agent_json(game: str, agent_id: str) -> dict:
    s = spec(game, agent_id)
    ids = levels(game)
    return {"id": s.id, "game": game, "title": s.title, "description": s.description,
            "live": s.live is not None, "level": ids.index(s.id) + 1 if s.id in ids else None,
            "strength": strength(game, s.id),
            "inspect": None if s.inspect is None else {"params": list(s.inspect.params), "about": s.inspect.about}}


def game_json(name: str) -> dict:
    game = get_game(name)
    data = game.describe()
    cal = calibration(name)
    data["levels"] = [{"level": i + 1, **agent_json(name, a)} for i, a in enumerate(levels(name))]
    data["calibration"] = None if cal is None else {k: v for k, v in cal.items() if k != "agents"}
    data["hidden_information"] = game.type.hidden_information
    return data


def all_games() -> list[dict]:
    return [game_json(g) for g in playable_games()]


def all_agents(game: str | None) -> list[dict]:
    games = [game] if game else playable_games()
    return [agent_json(g, s.id) for g in games for s in agent_specs(g)]
