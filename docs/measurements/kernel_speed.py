"""Random-play speed of an older checkout of Parlour against this one, in one process: the script
that printed the tables "Engine kernel, before and after" on the game pages of docs/measurements.

    PYTHONPATH=. python docs/measurements/kernel_speed.py OLD_TREE [--repeats 5] [--seconds 1] [--games uno ...]

OLD_TREE's ``engine`` and ``agents`` are copied to a temporary folder as ``engine_old`` and
``agents_old`` (their import lines renamed), so both versions load side by side. Each game's own bench
rows (``agents/bench/GAME.py``: random deals on the rules core and through the public API, and the
heuristic players' deals) are built from both, and ``agents.bench.timing.measure_rows`` times them in
rounds (old, new, old, new, ...), keeping each row's best run. Prints a Markdown table per game.
"""
from __future__ import annotations

import argparse
import importlib
import random
import re
import shutil
import sys
import tempfile
from pathlib import Path

from agents.bench.timing import Row, measure_rows

ROWS = {
    "tictactoe": [("random playouts, public API", "parlour_playouts(1000, rng)")],
    "uno": [("2p random deals, rules core", "core_deals(2, 200, rng)"),
            ("4p random deals, rules core", "core_deals(4, 200, rng)"),
            ("2p random deals, public API", "api_deals(2, 50, rng)"),
            ("4p random deals, public API", "api_deals(4, 50, rng)"),
            ("4p BetterOffensive deals (arena)", "heuristic_deals(4, 100, rng)")],
    "racko": [("2p random deals, rules core", "core_deals(2, 2, rng)"),
              ("4p random deals, rules core", "core_deals(4, 2, rng)"),
              ("2p random deals, public API", "api_deals(2, 1, rng)"),
              ("2p Kyle vs Kyle (arena)", "arena_deals(lambda: [KyleDecider(), KyleDecider()], 50, rng)")],
    "queen_of_spades": [("random deals, rules core", "core_deals(200, rng)"),
                        ("random deals, public API", "api_deals(20, rng)"),
                        ("rule player deals (table)", "rule_deals(20)")],
    "yaniv": [("2p random deals, public API", "random_deals(2, 20, rng)"),
              ("4p random deals, public API", "random_deals(4, 10, rng)"),
              ("4p SemiRandom deals, public API", "heuristic_deals(4, 50, rng)"),
              ("Harel training deals vs SemiRandom", "training_deals('semirandom', 0.5, 200)")],
}
IMPORT = re.compile(r"^(\s*(?:from|import)\s+)(engine|agents)\b", re.MULTILINE)


def copy_renamed(tree: Path, into: Path) -> None:
    """``tree``'s engine and agents as ``into``/engine_old and agents_old, importing each other."""
    for package in ("engine", "agents"):
        target = into / f"{package}_old"
        shutil.copytree(tree / package, target, ignore=shutil.ignore_patterns("__pycache__"))
        for path in target.rglob("*.py"):
            path.write_text(IMPORT.sub(r"\1\2_old", path.read_text()))


def chunk(agents: str, game: str, call: str):
    scope = {"rng": random.Random(1), **vars(importlib.import_module(f"{agents}.bench.{game}"))}
    if game == "racko":
        scope["KyleDecider"] = importlib.import_module(f"{agents}.racko.arena").KyleDecider
    return eval(call, scope)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--games", nargs="*", default=list(ROWS))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        copy_renamed(args.old, Path(folder))
        sys.path.insert(0, folder)
        rows = [Row(f"{game}|{name}|{which}", "deals/s", chunk(agents, game, call))
                for game in args.games for name, call in ROWS[game]
                for which, agents in (("old", "agents_old"), ("new", "agents"))]
        results = {r.name: r.per_cpu_second for r in measure_rows(rows, args.seconds, args.repeats)}
    for game in args.games:
        print(f"\n{game}\n\n| row | old | new | new / old |\n|---|---|---|---|")
        for name, _ in ROWS[game]:
            old, new = results[f"{game}|{name}|old"], results[f"{game}|{name}|new"]
            print(f"| {name} | {old:,.0f}/s | {new:,.0f}/s | {new / old:.2f} |")


if __name__ == "__main__":
    main()
