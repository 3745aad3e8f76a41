"""Measurement aid for docs/measurements/racko.md (nothing imports it): the kept tables (> 0.70
against Random) of a Baltar training run voting against one table, 5 slots, 2 players, 20 cards,
seats alternating; prints the vote's share of deals won. The single table is the run's first kept
one, or with SINGLES.npz each table of that run in turn (kept or not). From the repository root:
    PYTHONPATH=$PWD python docs/measurements/racko_vote_vs_single.py VOTERS.npz [SINGLES.npz] DEALS"""
import random
import sys

from agents.racko.arena import play_deal
from agents.racko.baltar import BaltarDecider, load_tables
from agents.training.racko_baltar import seated
from engine.racko import Rules

voters_path, games = sys.argv[1], int(sys.argv[-1])
kept = [(t, w) for t, w in load_tables(voters_path) if w > 0.70]
singles = [t for t, _ in load_tables(sys.argv[2])] if len(sys.argv) > 3 else [kept[0][0]]
vote = BaltarDecider(kept)
rules, rng, wins = Rules(5, 20, 1500), random.Random(7), 0
for i in range(games):
    deciders, me = seated(i, vote, [BaltarDecider([(singles[i % len(singles)], 1.0)])])
    t = play_deal(rules, 777_000 + i, deciders, rng)
    wins += t.winner == me
share = wins / games
print(f"{len(kept)} tables of {voters_path} voting vs {len(singles)} single table(s) in turn: "
      f"{100 * share:.1f}% ± {100 * (share * (1 - share) / games) ** 0.5:.1f} of {games} deals")
