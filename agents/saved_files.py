"""Reading and writing shipped agents in agents/saved/ (plain JSON with metadata)."""
from __future__ import annotations

import json
from pathlib import Path

from engine import GameError

SAVED = Path(__file__).parent / "saved"


def saved_path(game: str, name: str) -> Path:
    return SAVED / game / f"{name}.json"


def load_saved(game: str, name: str) -> dict:
    """{"meta": {...}, "values"|...: ...} of a shipped agent; a clear error when absent."""
    path = saved_path(game, name)
    if not path.exists():
        raise GameError(f"no saved agent {path}; train one with `parlour train {game} ...`")
    return json.loads(path.read_text())


def write_saved(path: Path, data: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    return path
