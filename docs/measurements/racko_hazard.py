"""Diablo2's chance of going Rack-O at each of its turns, fitted from Diablo2 self-play: the opponent's
hazard as a seat can see it, for session 18's race value (``agents/racko/race.py`` of commit 9aa7afc, which
read OUT as ``agents/saved/racko/race-hazard.json``; not kept: it gained nothing, docs/measurements/racko.md).

Usage (a measurement aid, not part of the app): ``PYTHONPATH=TREE python docs/measurements/racko_hazard.py
SEED DEALS OUT``: ``diablo2`` against ``diablo2`` at 10 slots over deals 0..DEALS-1 of tournament seed SEED
(``agents.tournament.play_one``, forced random moves on, as the catalog's Diablo2 plays), then writes OUT
(JSON): for each turn t (1..) of a seat, how many seats took a t-th turn (``reached``) and how many went
Rack-O on it (``won``); and the same split by how many distinct slots the seat had filled before that
turn (``placed[seat]`` of the view: public), ``reached_by_slots[t][d]`` and ``won_by_slots[t][d]``.
The hazard at turn t is won / reached. Use a seed no evaluation uses."""
from __future__ import annotations

import json
import sys

from agents.catalog import make_agent
from agents.tournament import play_one
from engine import get_game

TURNS = 40  # turns beyond this are pooled into the last row
SLOTS = 10


def fit(seed: int, deals: int) -> dict:
    game = get_game("racko")
    agents = [make_agent("racko", "diablo2"), make_agent("racko", "diablo2")]
    reached = [0] * (TURNS + 1)
    won = [0] * (TURNS + 1)
    reached_d = [[0] * (SLOTS + 1) for _ in range(TURNS + 1)]
    won_d = [[0] * (SLOTS + 1) for _ in range(TURNS + 1)]
    for i in range(deals):
        _order, state, _history = play_one(game, agents, i, seed)
        view = game.observe(state, None)
        winners = game.winners(state)
        for seat in range(2):
            slots = view["placed"][seat]
            for t in range(1, len(slots) + 1):
                row = min(t, TURNS)
                d = len({s for s in slots[:t - 1] if s})
                reached[row] += 1
                reached_d[row][d] += 1
                if t == len(slots) and seat in winners:
                    won[row] += 1
                    won_d[row][d] += 1
    return {"seed": seed, "deals": deals, "opponent": "diablo2", "rack_size": 10, "turns_pooled_from": TURNS,
            "reached": reached, "won": won, "reached_by_slots": reached_d, "won_by_slots": won_d}


if __name__ == "__main__":
    table = fit(int(sys.argv[1]), int(sys.argv[2]))
    with open(sys.argv[3], "w") as f:
        json.dump(table, f)
    h = [w / r if r else 0.0 for w, r in zip(table["won"], table["reached"])]
    print(" ".join(f"{t}:{h[t]:.3f}({table['reached'][t]})" for t in range(1, 21)))
