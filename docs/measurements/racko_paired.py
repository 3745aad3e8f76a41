"""Rack-O levels against Diablo2 deal by deal, and two levels paired on the same deals.

Usage (a measurement aid, not part of the app):

- ``PYTHONPATH=TREE python docs/measurements/racko_paired.py play LEVEL SEED LO HI OUT``: LEVEL
  against ``diablo2`` at 10 slots over deals LO..HI-1 of tournament seed SEED, with the deals and
  seats of ``parlour tournament racko --players LEVEL,diablo2 --seed SEED`` (deal i is the same
  whatever ``--games``; ``agents.tournament.play_by_observation``). Appends one line per deal to OUT:
  the deal, LEVEL's share of it (1, 0, or 1/k of a k-way tie) and its seat. LEVEL is a catalog id
  (to try a variant, add it to the catalog on a branch).
- ``... racko_paired.py pair A B``: two such files, paired on their common deals: each one's share
  with its standard error, the paired difference A - B with the standard error of the deal-by-deal
  difference, and the deals that ended differently.
"""
from __future__ import annotations

import math
import sys

from agents.catalog import make_agent
from agents.tournament import play_by_observation


def play(level: str, seed: int, lo: int, hi: int, out: str) -> None:
    agents = [make_agent("racko", level), make_agent("racko", "diablo2")]
    with open(out, "a") as f:
        for i in range(lo, hi):
            record = play_by_observation("racko", agents, [i], seed)[0]
            seat = record.order.index(0)
            share = 1 / len(record.winners) if seat in record.winners else 0.0
            f.write(f"{i} {share:g} {seat}\n")
            f.flush()


def read(path: str) -> dict[int, float]:
    with open(path) as f:
        return {int(line.split()[0]): float(line.split()[1]) for line in f if line.strip()}


def pair(a_path: str, b_path: str) -> None:
    a, b = read(a_path), read(b_path)
    deals = sorted(set(a) & set(b))
    n = len(deals)
    for name, shares in ((a_path, a), (b_path, b)):
        p = sum(shares[i] for i in deals) / n
        print(f"{name}: {sum(shares[i] for i in deals):g} of {n} deals, {100 * p:.1f} ± "
              f"{100 * math.sqrt(p * (1 - p) / n):.1f}%")
    diffs = [a[i] - b[i] for i in deals]
    mean = sum(diffs) / n
    se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n) if n > 1 else float("nan")
    print(f"paired A - B: {100 * mean:+.1f} ± {100 * se:.1f} points over {n} deals; ended differently: "
          f"{sum(d != 0 for d in diffs)} (A alone ahead {sum(d > 0 for d in diffs)}, B alone {sum(d < 0 for d in diffs)})")


if __name__ == "__main__":
    if sys.argv[1] == "play":
        play(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6])
    else:
        pair(sys.argv[2], sys.argv[3])
