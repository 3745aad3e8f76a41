"""What the game benchmarks share besides timing: the machine line, peer libraries, and the
random playout of an OpenSpiel game through its Python API (the peer figure)."""
from __future__ import annotations

import platform
import random
from importlib import metadata
from typing import Callable

import numpy as np


def machine() -> dict:
    return {"python": platform.python_version(), "numpy": np.__version__, "platform": platform.platform(),
            "processor": platform.processor() or platform.machine()}


def machine_line() -> str:
    """The machine as one dim line of a rich console."""
    return "[dim]" + ", ".join(f"{k} {v}" for k, v in machine().items()) + "[/dim]"


def peer(name: str, package: str, module: str) -> tuple[str | None, str]:
    """(version, "") when ``module`` imports, else (None, a line saying why; rich markup escaped)."""
    try:
        __import__(module)
        return metadata.version(package), ""
    except (ImportError, metadata.PackageNotFoundError) as err:
        return None, (f"peer unavailable: {name} ({package}) could not be imported ({err}); "
                      "install the bench extra: .venv/bin/pip install -e '.\\[bench]'")


def openspiel_random_deals(game_name: str, params: dict, n: int, rng: random.Random,
                           first: int | None = None) -> Callable[[], tuple[int, int]]:
    """A chunk of ``n`` random playouts of an OpenSpiel game (chance outcomes drawn uniformly from
    their list, ``first`` applied at the opening chance node when given); returns (deals, moves)."""
    import pyspiel

    game = pyspiel.load_game(game_name, params)

    def chunk() -> tuple[int, int]:
        moves = 0
        for _ in range(n):
            state = game.new_initial_state()
            if first is not None:
                state.apply_action(first)
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                    continue
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                moves += 1
        return n, moves

    return chunk
