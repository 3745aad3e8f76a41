"""Measurement aid for docs/measurements/yaniv.md (nothing imports it): a Harel Q-table saved by
``parlour train yaniv harel --out FILE.json`` (its FILE.npz) against another agent, through the
same tournament code as ``parlour tournament yaniv`` (the table plays as a frozen Harel, the way
the live Harel plays from its values). Run from the repository root:
    PYTHONPATH=$PWD python docs/measurements/yaniv_harel_versus.py FILE.npz OTHER DEALS SEED"""
import sys

from agents.tournament import run
from agents.yaniv.qtable import load_packed

path, other, games, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
result = run("yaniv", ["harel-live", other], games, seed=seed, values={"harel-live": load_packed(path).to_dict()})
mine, theirs = result.stats
print(f"{path} vs {other}, {games} {result.unit}, seed {seed}: {100 * mine.wins / games:.1f}% won, "
      f"{other} {100 * theirs.wins / games:.1f}%; draws {100 * mine.draws / games:.1f}%; "
      f"its lead {100 * theirs.lead / games:+.1f} ± {100 * theirs._se(theirs.lead, theirs.lead_sq, games):.1f} (s.e.)")
