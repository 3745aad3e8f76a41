"""Rack-O deals between deciders in the arena, and an agent's move time on views: the timing
helpers ``parlour bench racko`` and the learned players' figures (``racko_learners``) share."""
from __future__ import annotations

import random
import statistics
from typing import Callable

from agents.bench.timing import Timed, deals_until
from agents.racko.arena import play
from agents.racko.kyle import Kyle
from engine.racko import Racko
from engine.racko import Table as RulesTable

GAME = Racko()


def arena_deals(make: Callable[[], list], n: int, rng: random.Random,
                options: dict | None = None) -> Callable[[], tuple[int, int]]:
    """Deals between the deciders ``make()`` returns (one per seat), in the arena."""
    players = len(make())
    rules = GAME.rules(players, options or {})
    seeds = iter(range(10**9))

    def chunk() -> tuple[int, int]:
        turns = 0
        for _ in range(n):
            table = play(RulesTable.new(players, next(seeds), rules, single=True, log=False), make(), rng)
            turns += table.turn
        return n, turns

    return chunk


def move_times(agent, decisions: int, seed: int) -> dict:
    """Seconds per ``act`` call of ``agent`` (seat 0 of two-player deals against Kyle)."""
    timed = Timed(agent, decisions)
    deals_until(lambda: timed.full, GAME, 2, [timed, Kyle()], seed, random.Random(seed))
    times = sorted(timed.times)
    return {"agent": agent.name, "decisions": len(times),
            "median_us": round(1e6 * statistics.median(times), 1), "max_us": round(1e6 * times[-1], 1)}
