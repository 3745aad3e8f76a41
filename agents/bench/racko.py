"""``parlour bench racko [--json] [--seconds S] [--repeats R] [--decisions D]``

Timed on one core (single-threaded code), 10 slots unless said:

- **random deals, rules core**: whole deals on ``engine.racko.rules.Table`` (the code
  ``Racko.apply`` runs, without copying the state in and out), 2 and 4 players, a
  uniformly random legal action each step. Random players almost never sort 10 cards,
  so these deals run to the 1,500-turn cap;
- **random deals, public API**: the same through ``new_deal``, ``legal_actions`` and
  ``apply`` (a new immutable state per action), 2 players;
- **Kyle vs Kyle**, **Kyle vs Max**: two-player deals in ``agents.racko.arena`` (the
  decisions ``act`` makes, on ints, with the forced random move): what tournaments of
  many deals and training loops run. Goal: 5,000 Kyle-vs-Kyle deals/s;
- **move time**: Kyle's and Max's ``act`` on a view (what the server calls), median
  and slowest, on positions from seeded deals.

"turns/deal" counts every seat's turns (draw + place or discard = one turn).
Each rate is the best of ``--repeats`` runs of at least ``--seconds`` of CPU time, per
second of this process's CPU time and of wall-clock time.

The learned players' figures (Diablo's deals/s and move time, the training rate) come from
``agents.bench.racko_learners``.
"""
from __future__ import annotations

import random
import sys
from typing import Callable


from agents.bench import racko_learners
from agents.bench.racko_arena import GAME, arena_deals, move_times
from agents.bench.report import CardBench, card_bench_main, gin_rummy_rows
from agents.bench.timing import Result, Row, measure_rows
from agents.racko.arena import KyleDecider, MaxDecider
from agents.racko.kyle import Kyle
from agents.racko.max import Max
from engine.racko import OVER
from engine.racko import Table as RulesTable

GOAL = 5_000  # two-player Kyle-vs-Kyle deals per second on one core, 10 slots (issue 8)


def core_deals(players: int, n: int, rng: random.Random) -> Callable[[], tuple[int, int]]:
    rules = GAME.rules(players, {})
    seeds = iter(range(10**9))
    rand = rng.random

    def chunk() -> tuple[int, int]:
        turns = 0
        for _ in range(n):
            table = RulesTable.new(players, next(seeds), rules, single=True, log=False)
            legal, step = table.legal, table.step
            while table.phase != OVER:
                codes = legal()
                step(codes[int(rand() * len(codes))])
            turns += table.turn
        return n, turns

    return chunk


def api_deals(players: int, n: int, rng: random.Random) -> Callable[[], tuple[int, int]]:
    seeds = iter(range(10**9))

    def chunk() -> tuple[int, int]:
        turns = 0
        for _ in range(n):
            state = GAME.new_deal(players, next(seeds))
            while not GAME.is_over(state):
                legal = GAME.legal_actions(state)
                state = GAME.apply(state, legal[rng.randrange(len(legal))])
            turns += state.turn
        return n, turns

    return chunk






def run(peers: bool, seconds: float, repeats: int, decisions: int,
        progress: Callable[[str], None]) -> tuple[list[Result], list[dict], list[str]]:
    rng = random.Random(1)
    notes: list[str] = []
    rows = [Row(f"{players}p random deals, rules core", "deals/s", core_deals(players, 2, rng),
                note="Table.legal/step; deals run to the turn cap") for players in (2, 4)]
    rows += [Row("2p random deals, public API", "deals/s", api_deals(2, 1, rng), note="new_deal/legal_actions/apply"),
             Row("2p Kyle vs Kyle", "deals/s", arena_deals(lambda: [KyleDecider(), KyleDecider()], 50, rng),
                 note="agents.racko.arena, forced random moves on"),
             Row("2p Kyle vs Max", "deals/s", arena_deals(lambda: [KyleDecider(), MaxDecider()], 20, rng),
                 note="agents.racko.arena"),
             Row("2p Kyle vs Kyle, 5 slots", "deals/s",
                 arena_deals(lambda: [KyleDecider(), KyleDecider()], 100, rng, {"rack_size": 5}), note="cards 1..20")]
    if peers:
        rows += gin_rummy_rows(rng, notes)
    results = measure_rows(rows, seconds, repeats, progress)
    latency = []
    if decisions:
        for agent in (Kyle(), Max()):
            progress(f"{agent.name} move time")
            latency.append(move_times(agent, decisions, 1))
    more, times = racko_learners.figures(seconds, repeats, decisions, progress)
    results += more
    latency += times
    return results, latency, notes


def goal(results: list[Result]) -> tuple[dict, str]:
    kyle2 = next(r for r in results if r.name == "2p Kyle vs Kyle").per_cpu_second
    return ({"goal": GOAL, "kyle_vs_kyle": round(kyle2), "met": kyle2 >= GOAL},
            f"goal >= {GOAL:,} two-player Kyle-vs-Kyle deals/s on one core: {{verdict}} ({kyle2:,.0f})")


BENCH = CardBench("Rack-O", "racko", __doc__ or "", run, goal, "also run OpenSpiel's gin rummy, the nearest peer",
                  decisions=400, turns_column="turns/deal")


def main(argv: list[str] | None = None, prog: str = "parlour bench racko") -> int:
    return card_bench_main(BENCH, argv, prog)


if __name__ == "__main__":
    sys.exit(main())
