"""CPU time of what the server computes for one Rack-O AI decision: ``act`` and then the explanation
of the same view (the reasoning panel), per level, against Kyle's as the peer of the same run.

Usage (a measurement aid, not part of the app): ``PYTHONPATH=TREE python docs/measurements/racko_served_time.py
[DECISIONS] [LEVEL ...]``; run it on two trees in turn to compare them (a tree from ``git archive``)."""
import random
import statistics
import sys
import time

from agents.base import explain
from agents.catalog import make_agent
from engine import get_game

GAME = get_game("racko")


def served(agent, decisions: int, seed: int = 1) -> list[float]:
    """CPU seconds of act + explain on each decision of seat 0 in deals against Kyle, sorted."""
    other, rng, times, deal = make_agent("racko", "kyle"), random.Random(seed), [], 0
    while len(times) < decisions:
        state = GAME.new_deal(2, seed + deal)
        deal += 1
        while not GAME.is_over(state) and len(times) < decisions:
            seat, legal = GAME.current_player(state), GAME.legal_actions(state)
            view = GAME.observe(state, seat)
            if seat == 0:
                start = time.process_time()
                action = agent.act(view, legal, rng)
                explain(agent, view, legal)
                times.append(time.process_time() - start)
            else:
                action = other.act(view, legal, rng)
            state = GAME.apply(state, action)
    return sorted(times)


if __name__ == "__main__":
    decisions = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    levels = sys.argv[2:] or ["kyle", "diablo", "diablo2", "ensemble"]
    kyle = None
    for level in levels:
        times = served(make_agent("racko", level), decisions)
        t = statistics.median(times)
        kyle = t if level == "kyle" else kyle
        ratio = f" ({t / kyle:.1f}x Kyle's)" if kyle else ""
        print(f"{level}: act + explain median {1e6 * t:.0f} us{ratio}, slowest decile from "
              f"{1e6 * times[int(0.9 * len(times))]:.0f} us, slowest {1e6 * times[-1]:.0f} us", flush=True)
