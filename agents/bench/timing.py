"""The one way benchmarks time work: best of several runs, each of a fixed amount of CPU time."""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable


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


def measure(name: str, unit: str, chunk: Callable[[], int | tuple[int, int]], seconds: float, repeats: int,
            peer: bool = False, note: str = "") -> Result:
    """Run ``chunk`` (which returns the units it did, or (units, turns)) until ``seconds`` of CPU
    time have passed; the best of ``repeats`` such runs, after one warm-up call."""
    chunk()
    best: tuple[float, float, int, int] | None = None
    for _ in range(repeats):
        units = turns = 0
        cpu0, wall0 = time.process_time(), time.perf_counter()
        while time.process_time() - cpu0 < seconds:
            done = chunk()
            u, t = done if isinstance(done, tuple) else (done, 0)
            units, turns = units + u, turns + t
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        if best is None or units / cpu > best[0]:
            best = (units / cpu, units / wall, units, turns)
    assert best is not None
    return Result(name, unit, best[0], best[1], best[2], best[3] / best[2] if best[3] else None, peer, note)
