"""CPU time of a Yaniv Deep Monte-Carlo decision as the server asks for it (the view, ``act``, then
``explain``), the level (``dmc``: the network averaged over the suits' renamings) and in the same
run the shipped network alone, over two-player deals against Sage (the timed player's seat
alternating): median, 90th percentile and slowest.

``PYTHONPATH=TREE python docs/measurements/yaniv_move_time.py [DEALS]`` (default 100).
"""
from __future__ import annotations

import random
import statistics
import sys
import time

from agents.yaniv.dmc import Dmc, shipped_network
from agents.yaniv.sage import Sage
from engine import get_game


def times(agent: Dmc, deals: int) -> list[float]:
    game, rng, sage, out = get_game("yaniv"), random.Random(5), Sage(), []
    for d in range(deals):
        state = game.new_deal(2, 70_000 + d)
        while not game.is_over(state):
            seat = game.current_player(state)
            view, legal = game.observe(state, seat), game.legal_actions(state)
            if seat == d % 2:
                start = time.process_time()
                action = agent.act(view, legal, rng)
                agent.explain(view, legal)
                out.append(time.process_time() - start)
            else:
                action = sage.act(view, legal, rng)
            state = game.apply(state, action)
    return sorted(out)


def main() -> None:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    for label, agent in (("the level (24 renamings)", Dmc()), ("the network alone", Dmc(shipped_network()))):
        t = times(agent, deals)
        print(f"{label}: median {statistics.median(t) * 1e3:.2f} ms, 90th percentile {t[int(0.9 * len(t))] * 1e3:.2f} ms, "
              f"slowest {t[-1] * 1e3:.1f} ms of CPU over {len(t)} decisions")


if __name__ == "__main__":
    main()
