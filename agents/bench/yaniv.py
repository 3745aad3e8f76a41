"""``parlour bench yaniv [--json] [--seconds S] [--repeats R] [--full-schedule]``

Timed on one core (single-threaded code):

- **random deals**: whole deals of uniformly random moves through the public
  engine API only (``new_deal``, ``is_over``, ``legal_actions``, ``apply``), for 2
  and 4 players, with the mean number of turns a deal takes. Random players
  rarely pick ``yaniv`` among their many moves, so their deals are long;
- **heuristic deals**: the same with four SemiRandom players (who call Yaniv as
  soon as they may, as people do), through the same API;
- **Harel training deals**: ``agents.training.yaniv_harel``'s loop (Harel
  learning against SemiRandom with exploration 0.5, and against GreedyRandom
  with 0.25), from an empty table;
- **the default schedule** (20 x 20,000 training deals + 20 x 2,000 test deals):
  estimated from the measured training and test rates, or run in full with
  ``--full-schedule`` (about four minutes).

Each rate is the best of ``--repeats`` runs of at least ``--seconds`` of CPU time,
given per second of this process's CPU time and of wall-clock time.
"""
from __future__ import annotations

import argparse
import json
import random
import time
from dataclasses import asdict
from typing import Callable

from rich.console import Console
from rich.table import Table

from agents.bench import coach as coach_bench
from agents.bench.report import gin_rummy_rows, machine, machine_line
from agents.bench.timing import Row, measure_rows
from agents.training.yaniv_harel import OPPONENTS, Schedule, Trainer, deal_seed, run
from agents.yaniv.common import seat_of_state, to_action
from agents.yaniv.harel import HarelConfig
from agents.yaniv.heuristics import SemiRandom
from engine import get_game

RANDOM_GOAL = 5_000  # four-player random deals per second (issue 4)
SCHEDULE_GOAL = 600.0  # seconds for the default training schedule (issue 4)


def random_deals(players: int, n: int, rng: random.Random) -> Callable[[], tuple[int, int]]:
    game = get_game("yaniv")
    seeds = iter(range(10**9))

    def chunk() -> tuple[int, int]:
        turns = 0
        for _ in range(n):
            state = game.new_deal(players, next(seeds))
            while not game.is_over(state):
                legal = game.legal_actions(state)
                state = game.apply(state, legal[rng.randrange(len(legal))])
                turns += 1
        return n, turns

    return chunk


def heuristic_deals(players: int, n: int, rng: random.Random) -> Callable[[], tuple[int, int]]:
    game = get_game("yaniv")
    agent = SemiRandom()
    seeds = iter(range(10**9))

    def chunk() -> tuple[int, int]:
        turns = 0
        for _ in range(n):
            state = game.new_deal(players, next(seeds))
            while not game.is_over(state):
                state = game.apply(state, to_action(agent.choose(seat_of_state(state), rng)))
                turns += 1
        return n, turns

    return chunk


def training_deals(opponent: str, epsilon: float, n: int) -> Callable[[], tuple[int, int]]:
    trainer = Trainer(HarelConfig())
    rng = random.Random(7)
    agent = OPPONENTS[opponent]()
    seeds = iter(range(10**9))

    def chunk() -> tuple[int, int]:
        for _ in range(n):
            trainer.train_deal(agent, deal_seed(1, 1, next(seeds)), epsilon, rng)
        return n, 0

    return chunk


def test_deals(n: int) -> Callable[[], tuple[int, int]]:
    trainer = Trainer(HarelConfig())
    rng = random.Random(8)
    agent = OPPONENTS["greedyrandom"]()
    seeds = iter(range(10**9))

    def chunk() -> tuple[int, int]:
        for _ in range(n):
            trainer.test_deal(agent, deal_seed(1, 999, next(seeds)), rng)
        return n, 0

    return chunk


def main(argv: list[str] | None = None, prog: str = "parlour bench yaniv") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per run")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--peers", action="store_true", help="also run OpenSpiel's gin rummy, the nearest peer")
    parser.add_argument("--full-schedule", action="store_true",
                        help="also run the default training schedule in full and time it")
    coach_bench.add_option(parser)
    args = parser.parse_args(argv)
    rng = random.Random(1)
    notes: list[str] = []
    rows = [
        Row("random, 2 players", "deal", random_deals(2, 20, rng)),
        Row("random, 4 players", "deal", random_deals(4, 10, rng), note=f"goal {RANDOM_GOAL:,}/s"),
        Row("SemiRandom, 2 players", "deal", heuristic_deals(2, 50, rng)),
        Row("SemiRandom, 4 players", "deal", heuristic_deals(4, 50, rng)),
        Row("Harel training vs Semi (eps .5)", "deal", training_deals("semirandom", 0.5, 200)),
        Row("Harel training vs Greedy (eps .25)", "deal", training_deals("greedyrandom", 0.25, 200)),
        Row("Harel test vs Greedy", "deal", test_deals(200)),
    ]
    if args.peers:
        rows += gin_rummy_rows(rng, notes)
    results = measure_rows(rows, args.seconds, args.repeats)
    schedule = Schedule()
    train_rate = 2 / (1 / results[4].per_wall_second + 1 / results[5].per_wall_second)
    estimate = (schedule.intervals * schedule.games / train_rate
                + schedule.intervals * schedule.test_games * len(OPPONENTS) / results[6].per_wall_second)
    schedule_report = {"estimated_seconds": round(estimate, 1), "goal_seconds": SCHEDULE_GOAL,
                       "basis": "measured rates of an empty table's first interval; a trained Harel's deals "
                                "are shorter, so the real run is usually a little faster"}
    if args.full_schedule:
        start = time.perf_counter()
        run(HarelConfig(), schedule, seed=1)
        schedule_report["measured_seconds"] = round(time.perf_counter() - start, 1)
    review = coach_bench.measured("yaniv", args.reviews)
    if args.json:
        print(json.dumps({"coach": review, "results": [asdict(r) for r in results], "default_schedule": schedule_report,
                          "machine": machine(), "notes": notes}, indent=1))
        return 0
    console = Console()
    if not console.is_terminal:
        console = Console(width=120)
    table = Table(title="parlour bench yaniv (one core): deals per second")
    for col in ("deals", "per CPU s", "per wall s", "turns/deal", "turns/CPU s", "note"):
        table.add_column(col, justify="right" if col != "deals" else "left")
    for r in results:
        turns = r.turns_per_unit
        table.add_row(r.name, f"{r.per_cpu_second:,.0f}", f"{r.per_wall_second:,.0f}",
                      "" if turns is None else f"{turns:.1f}",
                      "" if turns is None else f"{turns * r.per_cpu_second:,.0f}", r.note)
    console.print(table)
    line = (f"default schedule (20 x 20,000 training + 20 x 2,000 test deals): estimated "
            f"{schedule_report['estimated_seconds']:.0f} s from the rates above")
    if "measured_seconds" in schedule_report:
        line += f"; measured {schedule_report['measured_seconds']:.0f} s"
    console.print(line + f" (goal under {SCHEDULE_GOAL:.0f} s)")
    for note in notes:
        console.print(note)
    console.print(machine_line())
    if review:
        console.print(coach_bench.line(review), soft_wrap=True)
    return 0
