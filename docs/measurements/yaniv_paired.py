"""Two Yaniv networks on the same deals against Sage: main's level (the shipped network, averaged over the 24
renamings of the suits) and another network under the same averaging, each playing the head-to-head harness's
deals (deal i of seed S is ``Table.new(2, S * 1_000_000 + i)``, seats alternating, Sage's generator
``random.Random(f"{S}:{i}")``: the deals, seats and Sage's draws of ``yaniv_call_search.py``'s ``network``
variant, which is main's level, so its column reproduces that tool's figures).

``PYTHONPATH=TREE python docs/measurements/yaniv_paired.py NET.npz DEALS SEED [SEED ...] [--processes N]`` prints,
per seed and over all, each player's share of deals won (a draw shared) with its standard error, and the paired
difference (the other network minus main's level) with the standard error of the per-deal differences.
"""
from __future__ import annotations

import math
import random
import sys
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from agents.qnet import QNet
from agents.yaniv.common import YANIV
from agents.yaniv.dmc import SuitAveraged, shipped_net
from agents.yaniv.sage import Outlook, Sage
from docs.measurements.yaniv_call_search import decide
from engine.yaniv.rules import Rules, Table


def deal_won(net, seed: int, i: int) -> float:
    """The share of deal i of ``seed`` won by the network's best (no search) against Sage."""
    rng, table, sage = random.Random(f"{seed}:{i}"), Table.new(2, seed * 1_000_000 + i, Rules(), True), Sage()
    me = i % 2
    while table.to_move is not None:
        if table.to_move == me:
            decision = decide("network", table, net, None, rng, [])
        else:
            decision = sage.choose(Outlook.of_state(table), rng)  # type: ignore[arg-type]  # a Table reads as a State
        table.call() if decision is YANIV else table.discard(*decision)
    winners = table.results[-1].winners
    return 1 / len(winners) if me in winners else 0.0


def chunk(args: tuple[str, int, range]) -> list[tuple[float, float]]:
    path, seed, deals = args
    main, other = shipped_net(), SuitAveraged(QNet.load(Path(path)))
    return [(deal_won(main, seed, i), deal_won(other, seed, i)) for i in deals]


def line(name: str, pairs: np.ndarray) -> str:
    n, (a, b) = len(pairs), pairs.mean(axis=0)
    d = pairs[:, 1] - pairs[:, 0]
    return (f"{name}: main's level {100 * a:.2f} ± {100 * math.sqrt(a * (1 - a) / n):.2f}%, the network "
            f"{100 * b:.2f} ± {100 * math.sqrt(b * (1 - b) / n):.2f}%, difference {100 * d.mean():+.2f} ± "
            f"{100 * d.std(ddof=1) / math.sqrt(n):.2f} points over {n} deals ({int((d != 0).sum())} deals differ)")


def main() -> None:
    argv = sys.argv[1:]
    processes = 1
    if "--processes" in argv:
        k = argv.index("--processes")
        processes = int(argv[k + 1])
        del argv[k:k + 2]
    path, deals, seeds = argv[0], int(argv[1]), [int(s) for s in argv[2:]]
    every = []
    with Pool(processes) as pool:
        for seed in seeds:
            parts = [(path, seed, range(i, min(deals, i + 100))) for i in range(0, deals, 100)]
            pairs = np.array([p for part in pool.map(chunk, parts) for p in part])
            print(line(f"seed {seed}", pairs), flush=True)
            every.append(pairs)
    if len(seeds) > 1:
        print(line("all", np.concatenate(every)))


if __name__ == "__main__":
    main()
