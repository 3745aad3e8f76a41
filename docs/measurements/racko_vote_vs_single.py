"""Measurement aid for docs/measurements/racko.md (nothing imports it): a Baltar training run's kept
tables (> 0.70 against Random) voting against its first kept table, 5 slots, 2 players, 20 cards, seats
alternating; prints the vote's share of deals won. Run from the repository root:
    PYTHONPATH=$PWD python docs/measurements/racko_vote_vs_single.py TABLES.npz DEALS"""
import random, sys
from agents.racko.arena import play_deal
from agents.racko.baltar import BaltarDecider, load_tables
from agents.training.racko_baltar import seated
from engine.racko import Rules

path, games = sys.argv[1], int(sys.argv[2])
kept = [(t, w) for t, w in load_tables(path) if w > 0.70]
vote, single = BaltarDecider(kept), BaltarDecider([(kept[0][0], 1.0)])
rules, rng, wins, decided = Rules(5, 20, 1500), random.Random(7), 0, 0
for i in range(games):
    deciders, me = seated(i, vote, [single])
    t = play_deal(rules, 777_000 + i, deciders, rng)
    if t.winner >= 0:
        decided += 1
        wins += t.winner == me
share = wins / games
print(f"{path}: {len(kept)} tables voting vs the first: {100 * share:.1f}% ± {100 * (share * (1 - share) / games) ** 0.5:.1f} of {games} deals ({games - decided} capped)")
