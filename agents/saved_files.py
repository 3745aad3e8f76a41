"""Reading and writing shipped agents in agents/saved/ (plain JSON with metadata, and numpy's
.npz files of named arrays for the networks and tables)."""
from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

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


def write_arrays(path: Path, arrays: Mapping[str, np.ndarray], compressed: bool = False) -> Path:
    """Named arrays as an .npz file (numpy's ``savez``: ``load`` gives them back by name)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    named: dict[str, Any] = dict(arrays)  # savez's stubs take ``**`` values for its allow_pickle flag too
    (np.savez_compressed if compressed else np.savez)(path, **named)
    return path
