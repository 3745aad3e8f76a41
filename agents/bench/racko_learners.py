"""The learned Rack-O players' figures for ``parlour bench racko``: Diablo's deals per
second against Kyle (arena, 10 slots), Diablo's, Lookahead's and the Deep Monte-Carlo player's move times (``act`` on a
view), Diablo's training rate (self-play deals per second, one process, no JAX
update) and Baltar's (training deals against Random per second, 5 slots)."""
from __future__ import annotations

import random
from typing import Callable

from agents.bench.timing import Result, measure


def figures(seconds: float, repeats: int, decisions: int,
            progress: Callable[[str], None]) -> tuple[list[Result], list[dict]]:
    from agents.bench.racko_arena import GAME, arena_deals, move_times
    from agents.racko.shipped import diablo_nets
    from agents.racko.arena import KyleDecider, RandomDecider, play_deal
    from agents.racko.baltar import Learner, QTables
    from agents.racko.diablo import Diablo, DiabloDecider
    from agents.racko.lookahead import Lookahead
    from agents.training.racko_diablo import selfplay

    rng = random.Random(2)
    nets = diablo_nets("diablo")
    results = []
    progress("Diablo vs Kyle")
    results.append(measure("2p Diablo vs Kyle", "deals/s",
                           arena_deals(lambda: [DiabloDecider(nets), KyleDecider()], 4, rng), seconds, repeats,
                           note="agents.racko.arena, 10 slots"))
    progress("Diablo training rate")
    rules = GAME.rules(2, {})
    seeds = iter(range(10**9))

    def train_chunk() -> tuple[int, int]:
        deals = selfplay(nets[10], rules, 2, [next(seeds) for _ in range(8)])
        return len(deals), sum(sum(d[3]) for d in deals)

    results.append(measure("Diablo self-play training deals", "deals/s", train_chunk, seconds, repeats,
                           note="10 slots, 8 side by side, one process (the JAX step excluded)"))
    progress("Baltar training rate")
    rules5 = GAME.rules(2, {"rack_size": 5})
    learner = Learner(QTables(5))

    def baltar_chunk() -> tuple[int, int]:
        turns = 0
        for _ in range(20):
            t = play_deal(rules5, next(seeds), [learner, RandomDecider()], rng)
            learner.finish(None if t.winner < 0 else t.winner == 0)
            turns += t.turn
        return 20, turns

    results.append(measure("Baltar training deals vs Random", "deals/s", baltar_chunk, seconds, repeats,
                           note="5 slots, least-tried exploration"))
    latency = []
    if decisions:
        from agents.racko.dmc import Dmc

        for agent in (Diablo(nets), Lookahead(diablo_nets("diablo")), Lookahead(diablo_nets("diablo2"), plan=True), Dmc()):
            progress(f"{agent.name} move time")
            latency.append(move_times(agent, decisions, 1))
    return results, latency
