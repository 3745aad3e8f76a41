"""Reading and writing shipped agents in agents/saved/ (plain JSON with metadata, and numpy's
.npz files of named arrays for the networks and tables)."""
from __future__ import annotations

import json
import os
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


def checkpoint_path(out: Path) -> Path:
    """Where a training run writing ``out`` keeps its resumable checkpoint."""
    return out.with_name(out.stem + "-checkpoint.npz")


def write_checkpoint(path: Path, arrays: Mapping[str, np.ndarray], progress: dict) -> None:
    """Named arrays and the run's progress (JSON, under ``progress``) in one .npz, written beside
    and then moved over the old one, so a run stopped while saving keeps the previous checkpoint."""
    tmp = path.with_name(path.stem + ".tmp.npz")
    write_arrays(tmp, {**arrays, "progress": np.array(json.dumps(progress))})
    os.replace(tmp, path)


def read_checkpoint(path: Path) -> tuple[dict[str, np.ndarray], dict]:
    """(the arrays, the progress) of ``write_checkpoint``; a clear exit when there is none."""
    if not path.exists():
        raise SystemExit(f"--resume: no checkpoint at {path}")
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    return arrays, json.loads(str(arrays.pop("progress")))
