"""Random-play speed of two checkouts of Parlour, timed back to back: the script that printed the
tables "Engine kernel, before and after" on the game pages of docs/measurements.

    python docs/measurements/kernel_speed.py OLD_TREE NEW_TREE [--rounds 5] [--seconds 1]

Each tree's own bench rows (``agents/bench/GAME.py``: random deals on the rules core and through
the public API, and the heuristic players' deals) run in a subprocess with that tree first on the
import path. The trees take turns, round by round (old, new, new, old, ...), each round timing every
row for ``--seconds`` of CPU; each row's best round is its figure, as ``agents.bench.timing`` does
within one process. Prints a Markdown table per game: old, new, new / old.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys

ROWS = {
    "tictactoe": [("random playouts, public API", "tictactoe", "parlour_playouts(1000, rng)")],
    "uno": [("2p random deals, rules core", "uno", "core_deals(2, 200, rng)"),
            ("4p random deals, rules core", "uno", "core_deals(4, 200, rng)"),
            ("2p random deals, public API", "uno", "api_deals(2, 50, rng)"),
            ("4p random deals, public API", "uno", "api_deals(4, 50, rng)"),
            ("4p BetterOffensive deals (arena)", "uno", "heuristic_deals(4, 100, rng)")],
    "racko": [("2p random deals, rules core", "racko", "core_deals(2, 2, rng)"),
              ("4p random deals, rules core", "racko", "core_deals(4, 2, rng)"),
              ("2p random deals, public API", "racko", "api_deals(2, 1, rng)"),
              ("2p Kyle vs Kyle (arena)", "racko", "arena_deals(lambda: [KyleDecider(), KyleDecider()], 50, rng)")],
    "queen_of_spades": [("random deals, rules core", "queen_of_spades", "core_deals(200, rng)"),
                        ("random deals, public API", "queen_of_spades", "api_deals(20, rng)"),
                        ("rule player deals (table)", "queen_of_spades", "rule_deals(20)")],
    "yaniv": [("2p random deals, public API", "yaniv", "random_deals(2, 20, rng)"),
              ("4p random deals, public API", "yaniv", "random_deals(4, 10, rng)"),
              ("4p SemiRandom deals, public API", "yaniv", "heuristic_deals(4, 50, rng)"),
              ("Harel training deals vs SemiRandom", "yaniv", "training_deals('semirandom', 0.5, 200)")],
}

ROUND = """
import json, random, sys, time
from agents.bench.timing import _timed_run
rows = json.loads(sys.argv[1])
seconds = float(sys.argv[2])
chunks = []
for name, module, call in rows:
    scope = {"rng": random.Random(1)}
    exec(f"from agents.bench.{module} import *", scope)
    if module == "racko":
        exec("from agents.racko.arena import KyleDecider", scope)
    chunks.append(eval(call, scope))
for chunk in chunks:
    chunk()
print(json.dumps([_timed_run(chunk, seconds)[0] for chunk in chunks]))
"""


def one_round(tree: str, rows: list, seconds: float) -> list[float]:
    out = subprocess.run([sys.executable, "-c", ROUND, json.dumps(rows), str(seconds)], cwd=tree,
                         env={"PYTHONPATH": tree, "PATH": "/usr/bin:/bin", "HOME": "/tmp"}, capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--games", nargs="*", default=list(ROWS))
    args = parser.parse_args()
    rows = [row for game in args.games for row in ROWS[game]]
    best = {"old": [0.0] * len(rows), "new": [0.0] * len(rows)}
    for r in range(args.rounds):
        order = ("old", "new") if r % 2 == 0 else ("new", "old")
        for which in order:
            rates = one_round(getattr(args, which), rows, args.seconds)
            best[which] = [max(a, b) for a, b in zip(best[which], rates)]
            print(f"round {r + 1}: {which} done", file=sys.stderr)
    for game in args.games:
        print(f"\n{game}\n\n| row | old | new | new / old |\n|---|---|---|---|")
        for i, (name, module, _) in enumerate(rows):
            if module == game:
                old, new = best["old"][i], best["new"][i]
                print(f"| {name} | {old:,.0f}/s | {new:,.0f}/s | {new / old:.2f} |")


if __name__ == "__main__":
    main()
