"""Two-player Yaniv deals, player A against player B, seats alternating: A's share of the wins
(a shared win counts 1/k) with its standard error, and A's CPU time per move.

``PYTHONPATH=TREE python docs/measurements/yaniv_head_to_head.py A B DEALS SEED [PROCESSES]``
with A and B among ``pythia``, ``sage``, ``harel``, ``dmc`` (the Deep Monte-Carlo level: the shipped
network averaged over the suits' renamings), ``dmc-net`` (that network alone) and ``seer``. Deal i
is ``Table.new(2, SEED * 1_000_000 + i)``. ``seer`` is a diagnostic, never a player: Pythia's throws with a call that
looks at the other hand (it calls exactly when its total is strictly the lowest), the ceiling
of any call made on top of those throws.
"""
from __future__ import annotations

import math
import random
import sys
import time
from multiprocessing import Pool

from agents.yaniv import trained_harel
from agents.yaniv.common import YANIV, seat_of_state
from agents.yaniv.dmc import DmcDecider, shipped_net, shipped_network
from agents.yaniv.lookahead import Worlds
from agents.yaniv.pythia import REACH, Pythia
from agents.yaniv.sage import Outlook, Sage, best_discard
from engine.yaniv.rules import Rules, Table


def decide(name: str, player, table: Table, rng: random.Random):
    if name == "seer":
        seat = table.to_move
        lowest = all(table.rules.total(table.hands[seat]) < table.rules.total(h)
                     for s, h in enumerate(table.hands) if s != seat and not table.out[s])
        if table.can_call() and lowest:
            return YANIV
        return best_discard(Outlook.of_state(table), REACH)[0]
    if name in ("dmc", "dmc-net"):
        return player.choose_on(table, rng)
    if name == "pythia":
        return player.choose(Worlds.of_state(table), Outlook.of_state(table), rng)
    if name == "sage":
        return player.choose(Outlook.of_state(table), rng)
    return player.choose(seat_of_state(table), rng)


def make(name: str):
    return {"pythia": Pythia, "sage": Sage, "harel": trained_harel, "dmc": lambda: DmcDecider(shipped_net()),
            "dmc-net": lambda: DmcDecider(shipped_network()), "seer": lambda: None}[name]()


def chunk(args) -> tuple[float, list[float]]:
    a, b, seed, deals = args
    players, won, times = (make(a), make(b)), 0.0, []
    for i in deals:
        rng, table = random.Random(f"{seed}:{i}"), Table.new(2, seed * 1_000_000 + i, Rules(), True)
        seats = (0, 1) if i % 2 == 0 else (1, 0)  # seats[s]: 0 when A sits in seat s
        while table.to_move is not None:
            who = seats[table.to_move]
            start = time.process_time()
            decision = decide((a, b)[who], players[who], table, rng)
            if who == 0:
                times.append(time.process_time() - start)
            table.call() if decision is YANIV else table.discard(*decision)
        winners = table.results[-1].winners
        won += 1 / len(winners) if seats.index(0) in winners else 0.0
    return won, times


def main() -> None:
    a, b, deals, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    processes = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    parts = [(a, b, seed, range(i, min(deals, i + 100))) for i in range(0, deals, 100)]
    with Pool(processes) as pool:
        results = pool.map(chunk, parts)
    share = sum(r[0] for r in results) / deals
    times = sorted(t for r in results for t in r[1])
    print(f"{a} vs {b}: {share:.3f} ± {math.sqrt(share * (1 - share) / deals):.3f} over {deals} deals (seed {seed}); "
          f"{a}'s move: median {times[len(times) // 2] * 1e3:.1f} ms, 90th percentile "
          f"{times[int(len(times) * 0.9)] * 1e3:.1f} ms, max {times[-1] * 1e3:.0f} ms of CPU")


if __name__ == "__main__":
    main()
