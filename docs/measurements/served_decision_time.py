"""Mean CPU time of one served AI decision (``act``, then ``explain`` on the same view, one agent for
every decision, as the server asks them), per level of Rack-O and Queen of Spades: the decisions of
seat 0 in 25 fixed deals against Kyle / the rule player, replayed ``PASSES`` times, the best pass
printed in µs (JSON). The mean, not the median: a level that reuses what it computed for an earlier
decision is cheaper on average, not on the decisions it computes.

Usage (a measurement aid, not part of the app; run it from each tree in turn, old, new, old, ...):

    PYTHONPATH=TREE python docs/measurements/served_decision_time.py PASSES
"""
import json
import random
import sys
import time

from agents.base import explain
from agents.catalog import make_agent
from engine import get_game

TABLES = [("racko", ["random", "kyle", "diablo", "diablo2", "ensemble", "dmc"], "kyle", 2),
          ("queen_of_spades", ["random", "rules", "network", "network-good", "network-average", "network-poor"],
           "rules", 4)]


def decisions(game_name: str, level: str, other: str, players: int, deals: int = 25) -> list:
    """(view, legal actions) of seat 0's decisions, the level playing seat 0 and ``other`` the rest."""
    game, agent, opponent = get_game(game_name), make_agent(game_name, level), make_agent(game_name, other)
    rng, seen = random.Random(3), []
    for deal in range(deals):
        state = game.new_deal(players, 700 + deal)
        while not game.is_over(state):
            seat, legal = game.current_player(state), game.legal_actions(state)
            view = game.observe(state, seat)
            if seat == 0:
                seen.append((view, legal))
            state = game.apply(state, (agent if seat == 0 else opponent).act(view, legal, rng))
    return seen


def best_mean(game_name: str, level: str, seen: list, passes: int) -> float:
    best = float("inf")
    for _ in range(passes):
        agent, rng = make_agent(game_name, level), random.Random(0)
        start = time.process_time()
        for view, legal in seen:
            agent.act(view, legal, rng)
            explain(agent, view, legal)
        best = min(best, (time.process_time() - start) / len(seen))
    return best


if __name__ == "__main__":
    passes = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    print(json.dumps({f"{g}:{level}": round(1e6 * best_mean(g, level, decisions(g, level, other, players), passes), 1)
                      for g, levels, other, players in TABLES for level in levels}))
