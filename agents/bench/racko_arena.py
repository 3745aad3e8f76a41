"""Rack-O deals between deciders in the arena, and an agent's move time on views: the timing
helpers ``parlour bench racko`` and the learned players' figures (``racko_learners``) share."""
from __future__ import annotations

import random
import statistics
import time
from typing import Callable

from agents.base import explain
from agents.racko.arena import play
from agents.racko.kyle import Kyle
from engine import get_game
from engine.racko import Table as RulesTable

GAME = get_game("racko")


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
    """Seconds per ``act`` call of ``agent`` (seat 0 of two-player deals against Kyle), and per
    ``act`` with the explanation of the same decision (what the server computes for an AI's move)."""
    other = Kyle()
    rng = random.Random(seed)
    times: list[float] = []
    served: list[float] = []
    deal = 0
    while len(times) < decisions:
        state = GAME.new_deal(2, seed + deal)
        deal += 1
        while not GAME.is_over(state) and len(times) < decisions:
            seat = GAME.current_player(state)
            legal = GAME.legal_actions(state)
            view = GAME.observe(state, seat)
            if seat == 0:
                start = time.perf_counter()
                action = agent.act(view, legal, rng)
                times.append(time.perf_counter() - start)
                explain(agent, view, legal)
                served.append(time.perf_counter() - start)
            else:
                action = other.act(view, legal, rng)
            state = GAME.apply(state, action)
    times.sort()
    return {"agent": agent.name, "decisions": len(times),
            "median_us": round(1e6 * statistics.median(times), 1), "max_us": round(1e6 * times[-1], 1),
            "served_median_us": round(1e6 * statistics.median(served), 1)}
