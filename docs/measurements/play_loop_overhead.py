"""What the random-play and heuristic bench rows would cost played through ``engine.play_out``: the
figures behind "One play loop" in docs/architecture.md.

    PYTHONPATH=. python docs/measurements/play_loop_overhead.py [--seconds 1] [--repeats 3]

Per game, the bench's own loop (``new_deal``/``new_match``, ``legal_actions``, ``apply``: no agent, no
observation, the loop OpenSpiel's and RLCard's peers run) against the same deals played by
``play_out`` with ``RandomAgent`` in every seat (an observation per move, as every agent gets), and
Yaniv's SemiRandom deciding on the state (``agents.bench.yaniv.heuristic_deals``) against SemiRandom
through ``play_out``. Rows timed in rounds (``agents.bench.timing.measure_rows``), each one's best.
"""
from __future__ import annotations

import argparse
import random
from typing import Callable

from agents.base import RandomAgent
from agents.bench.report import machine
from agents.bench.timing import Row, measure_rows
from agents.yaniv.common import seat_of_state, to_action
from agents.yaniv.heuristics import SemiRandom
from engine import get_game, play_out

GAMES = {"tictactoe": (2, 1000), "uno": (2, 20), "racko": (2, 1), "queen_of_spades": (4, 50), "yaniv": (4, 20)}


def own_loop(name: str, players: int, n: int, choose: Callable | None = None) -> Callable[[], int]:
    game, rng, seeds = get_game(name), random.Random(1), iter(range(10**9))

    def chunk() -> int:
        for _ in range(n):
            state = game.new_deal(players, next(seeds))
            while not game.is_over(state):
                if choose is None:
                    legal = game.legal_actions(state)
                    state = game.apply(state, legal[rng.randrange(len(legal))])
                else:
                    state = game.apply(state, choose(state, rng))
        return n

    return chunk


def through_play_out(name: str, players: int, n: int, agent) -> Callable[[], int]:
    game, rng, seeds = get_game(name), random.Random(1), iter(range(10**9))

    def chunk() -> int:
        for _ in range(n):
            play_out(game, game.new_deal(players, next(seeds)), [agent] * players, rng)
        return n

    return chunk


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rows = []
    for name, (players, n) in GAMES.items():
        rows += [Row(f"{name}: random, own loop", "deals/s", own_loop(name, players, n)),
                 Row(f"{name}: random, play_out", "deals/s", through_play_out(name, players, n, RandomAgent()))]
    semi = SemiRandom()
    rows += [Row("yaniv: SemiRandom on the state, own loop", "deals/s",
                 own_loop("yaniv", 4, 20, lambda state, rng: to_action(semi.choose(seat_of_state(state), rng)))),
             Row("yaniv: SemiRandom, play_out", "deals/s", through_play_out("yaniv", 4, 20, semi))]
    results = measure_rows(rows, args.seconds, args.repeats)
    print("| loop | deals/s (CPU) | play_out / own loop |\n|---|---:|---:|")
    for own, out in zip(results[::2], results[1::2]):
        for r in (own, out):
            ratio = "" if r is own else f"{out.per_cpu_second / own.per_cpu_second:.2f}"
            print(f"| {r.name} | {r.per_cpu_second:,.0f} | {ratio} |")
    print(", ".join(f"{k} {v}" for k, v in machine().items()))


if __name__ == "__main__":
    main()
