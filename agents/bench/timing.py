"""The one way benchmarks time work: every row of a bench timed in rounds, interleaved (A, B, C,
A, B, C, ...), each run a fixed amount of CPU time, and each row's best run kept.

Interleaving matters on a shared machine whose speed drifts by a third within a minute: timed
back to back, a row and its peer can land in a fast and a slow minute and their ratio says more
about the machine than about the code. Timed in rounds, every row sees the same spells of speed,
and each one's best run is its figure.

Move times are timed on the server's path (``act`` on a seat's view), in deals played out by
``engine.play_out`` with the timed agent in its seat (``Timed``, ``deals_until``).
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from engine import Game, play_out

Chunk = Callable[[], "int | tuple[int, int]"]
"""Does some work; returns the units it did, or (units, turns)."""


@dataclass
class Result:
    name: str
    unit: str
    per_cpu_second: float
    per_wall_second: float
    work: int  # units done in the best run
    turns_per_unit: float | None = None
    peer: bool = False
    note: str = ""


@dataclass(frozen=True)
class Row:
    """One row of a bench: what to time and how to name it."""

    name: str
    unit: str
    chunk: Chunk
    peer: bool = False
    note: str = ""


def _timed_run(chunk: Chunk, seconds: float) -> tuple[float, float, int, int]:
    """(units per CPU second, units per wall second, units, turns) of one run of ``seconds`` CPU."""
    units = turns = 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    while time.process_time() - cpu0 < seconds:
        done = chunk()
        u, t = done if isinstance(done, tuple) else (done, 0)
        units, turns = units + u, turns + t
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return units / cpu, units / wall, units, turns


def measure_rows(rows: Sequence[Row], seconds: float, repeats: int,
                 progress: Callable[[str], None] | None = None) -> list[Result]:
    """Each row's best of ``repeats`` runs of at least ``seconds`` CPU seconds, the runs made in
    rounds that time every row once (after one warm-up call of each)."""
    for row in rows:
        row.chunk()
    best: list[tuple[float, float, int, int] | None] = [None] * len(rows)
    for round_ in range(repeats):
        for i, row in enumerate(rows):
            if progress is not None:
                progress(f"round {round_ + 1} of {repeats}: {row.name}")
            run = _timed_run(row.chunk, seconds)
            if best[i] is None or run[0] > best[i][0]:  # type: ignore[index]
                best[i] = run
    out = []
    for row, b in zip(rows, best):
        assert b is not None
        out.append(Result(row.name, row.unit, b[0], b[1], b[2], b[3] / b[2] if b[3] else None, row.peer, row.note))
    return out


def measure(name: str, unit: str, chunk: Chunk, seconds: float, repeats: int,
            peer: bool = False, note: str = "") -> Result:
    """One row alone (a figure with no peer to interleave with)."""
    return measure_rows([Row(name, unit, chunk, peer, note)], seconds, repeats)[0]


class Timed:
    """An agent whose ``act`` calls are timed (wall-clock seconds, in ``times``), for a move-time
    figure: the first ``limit`` calls are timed, the later ones only played."""

    def __init__(self, agent: Any, limit: int):
        self.agent, self.limit = agent, limit
        self.name = agent.name
        self.times: list[float] = []

    @property
    def full(self) -> bool:
        return len(self.times) >= self.limit

    def act(self, observation: dict, legal_actions: Sequence, rng: random.Random) -> Any:
        if self.full:
            return self.agent.act(observation, legal_actions, rng)
        start = time.perf_counter()
        action = self.agent.act(observation, legal_actions, rng)
        self.times.append(time.perf_counter() - start)
        return action


def deals_until(done: Callable[[], bool], game: Game, players: int, seats: Sequence, seed: int,
                rng: random.Random) -> None:
    """Play seeded single deals (seeds ``seed``, ``seed + 1``, ...) with ``seats`` (one agent per
    seat, through ``engine.play_out``) until ``done()`` after a deal."""
    deal = 0
    while not done():
        play_out(game, game.new_deal(players, seed + deal), seats, rng)
        deal += 1
