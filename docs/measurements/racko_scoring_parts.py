"""Where a Diablo scoring's CPU goes (issue 25, session 18): the scorings of the served Diablo2
in the decisions of seat 0 in 25 fixed deals against Kyle (``served_decision_time.py``'s), each
timed whole (``score_groups``) and by part (``expand``, ``feature_matrix``, the network), mean CPU
µs per scoring, best of 5 passes; then ``feature_matrix`` alone on batches of random racks (10
slots, 40 cards) of growing size, as a search or training batches them (µs per call, best of 5).
Prints JSON.

Usage (a measurement aid, not part of the app; from each tree in turn, old, new, old, ...; the
script itself may be the newer tree's, it uses only what both trees have):

    PYTHONPATH=TREE python docs/measurements/racko_scoring_parts.py
"""
import json
import random
import time

import numpy as np

from agents.base import explain
from agents.catalog import make_agent
from agents.racko import diablo
from agents.racko.features import expand, feature_matrix, unseen_prefix
from engine import get_game


def scorings() -> list:
    """(net, groups, max_card) of every scoring the served Diablo2 makes in the 25 deals."""
    game, agent, kyle = get_game("racko"), make_agent("racko", "diablo2"), make_agent("racko", "kyle")
    calls, real = [], diablo.score_groups
    diablo.score_groups = lambda net, groups, n: calls.append((net, groups, n)) or real(net, groups, n)
    rng = random.Random(3)
    try:
        for deal in range(25):
            state = game.new_deal(2, 700 + deal)
            while not game.is_over(state):
                seat, legal = game.current_player(state), game.legal_actions(state)
                view = game.observe(state, seat)
                if seat == 0:
                    action = agent.act(view, legal, rng)
                    explain(agent, view, legal)
                else:
                    action = kyle.act(view, legal, rng)
                state = game.apply(state, action)
    finally:
        diablo.score_groups = real
    return calls


def best(work, count: int, passes: int = 5) -> float:
    out = float("inf")
    for _ in range(passes):
        start = time.process_time()
        work()
        out = min(out, (time.process_time() - start) / count)
    return round(1e6 * out, 1)


def feature_args(racks, n: int):
    rows, masks, points, _starts = expand(racks, n)
    m = len(rows)
    return rows, masks, n, np.full(m, 5), unseen_prefix(n, racks[0])[None, :], np.zeros(m, np.int64), points


if __name__ == "__main__":
    calls = scorings()
    single = [(net, groups[0], n) for net, groups, n in calls]  # a served decision is one group
    args = []
    for _net, (racks, turns, prefix), n in single:
        rows, masks, points, _starts = expand(racks, n)
        m = len(rows)
        args.append((rows, masks, n, np.full(m, turns), prefix[None, :], np.zeros(m, np.int64), points))
    feats = [feature_matrix(*a) for a in args]
    out = {"scorings": len(calls), "rows per scoring": round(float(np.mean([len(f) for f in feats])), 1),
           "score_groups": best(lambda: [diablo.score_groups(net, groups, n) for net, groups, n in calls], len(calls)),
           "expand": best(lambda: [expand(racks, n) for _net, (racks, _t, _p), n in single], len(calls)),
           "feature_matrix": best(lambda: [feature_matrix(*a) for a in args], len(calls)),
           "network": best(lambda: [net(f) for (net, _g, _n), f in zip(single, feats)], len(calls))}
    rng = random.Random(1)
    for count in (11, 100, 1000):
        batch = feature_args([rng.sample(range(1, 41), 10) for _ in range(count)], 40)
        feature_matrix(*batch)
        out[f"feature_matrix, {len(batch[0])} rows"] = best(lambda b=batch: [feature_matrix(*b) for _ in range(20)], 20)
    print(json.dumps(out))
