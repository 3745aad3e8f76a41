"""Measurement aid for docs/measurements/racko.md (nothing imports it): the write-up's own 20 Baltar
tables (the ``weights/baltar/*.txt`` files of its public code, Azmisov/racko-ai, copied to a folder)
read into Parlour's tables, then a tournament with them in place of the shipped ones. Run from the
repository root:
    PYTHONPATH=$PWD python docs/measurements/racko_public_baltar.py FOLDER PLAYERS DEALS SEED [OPTIONS_JSON]

A file holds its win rate against Random (its vote weight), the rack size, the state coding, then
64 place states x 6 actions (slots 1-5, discard) and 64 draw states x 2 (deck, discard), one Q-value a
line. Its state index puts slot 1's bit highest and the card's bit lowest (a bit is 1 when a card
drawn is more likely above the card than below): Parlour's state is the same six bits reversed."""
import json
import sys
from pathlib import Path

import numpy as np

import agents.racko as racko_agents
import agents.racko.shipped as shipped
from agents.racko.baltar import QTables
from agents.tournament import run


def reverse6(i: int) -> int:
    return int(format(i, "06b")[::-1], 2)


def load(path: Path) -> tuple[QTables, float]:
    lines = path.read_text().split()
    weight, size = float(lines[0]), int(lines[1])
    values = [float(x) for x in lines[3:]]
    place_java = np.array(values[:64 * 6]).reshape(64, 6)
    draw_java = np.array(values[64 * 6:64 * 8]).reshape(64, 2)
    order = [reverse6(s) for s in range(64)]  # Parlour state -> the public code's index
    return QTables(size, draw=draw_java[order].copy(), place=place_java[order].copy()), weight


folder, players, games, seed = Path(sys.argv[1]), sys.argv[2].split(","), int(sys.argv[3]), int(sys.argv[4])
options = json.loads(sys.argv[5]) if len(sys.argv) > 5 else None
tables = tuple(load(p) for p in sorted(folder.glob("*.txt")))
racko_agents.baltar_tables = shipped.baltar_tables = lambda: tables  # what baltar, baltar-ensemble and the votes read
result = run("racko", players, games, seed=seed, options=options)
print(f"{len(tables)} public tables; {games} {result.unit}, seed {seed}, options {options}: " + ", ".join(
    f"{s.player} {100 * s.wins / games:.1f}%" for s in result.stats)
    + f" (s.e. of a share near 50%: {50 / games ** 0.5:.1f})")
