"""How Rack-O deals of a level against Diablo2 end: how close the loser's rack was.

Usage (a measurement aid, not part of the app):

- ``PYTHONPATH=TREE python docs/measurements/racko_endings.py play LEVEL SEED LO HI OUT``: LEVEL against
  ``diablo2`` at 10 slots over deals LO..HI-1 of tournament seed SEED (the deals, seats and agent
  randomness of ``parlour tournament racko --players LEVEL,diablo2 --seed SEED``, as
  ``racko_paired.py``, through ``agents.tournament.play_one``). Appends one line per deal: the deal, the winner(s), the moves, then for each
  seat its level, its rack's longest usable sequence at the end, and its turns.
- ``... racko_endings.py summary OUT``: the wins of each, and for the deals each lost, how long its
  longest usable sequence was (10 slots: 9 means one card short of Rack-O), and the winner's turns.
"""
from __future__ import annotations

import statistics
import sys
from collections import Counter

from agents.catalog import make_agent
from agents.racko.common import usable_sequence_length
from agents.tournament import play_one
from engine import get_game

OTHER = "diablo2"


def play(level: str, seed: int, lo: int, hi: int, out: str) -> None:
    game, names = get_game("racko"), [level, OTHER]
    agents = [make_agent("racko", n) for n in names]
    with open(out, "a") as f:
        for i in range(lo, hi):
            order, state, history = play_one(game, agents, i, seed)
            row = [str(i), "+".join(names[order[w]] for w in game.winners(state)), str(len(history))]
            for s in range(2):
                view = game.observe(state, s)
                row += [names[order[s]], str(usable_sequence_length(view["rack"], view["options"]["max_card"])),
                        str(view["turns"][s])]
            f.write(" ".join(row) + "\n")
            f.flush()


def summary(path: str) -> None:
    rows = [line.split() for line in open(path) if line.strip()]
    levels = [rows[0][3], rows[0][6]]
    for level in levels:
        other = levels[1 - levels.index(level)]
        lost = [r for r in rows if r[1] == other]
        won = [r for r in rows if r[1] == level]
        at_end = Counter(int(r[4] if r[3] == level else r[7]) for r in lost)
        turns = [int(r[5] if r[3] == level else r[8]) for r in won]
        print(f"{level}: won {len(won)} of {len(rows)} deals; when it lost ({len(lost)}), its longest usable "
              f"sequence: {', '.join(f'{k}: {v}' for k, v in sorted(at_end.items()))}; its turns when it won: "
              f"median {statistics.median(turns):g}, quartiles {', '.join(f'{q:g}' for q in statistics.quantiles(turns, n=4))}")


if __name__ == "__main__":
    if sys.argv[1] == "play":
        play(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6])
    else:
        summary(sys.argv[2])
