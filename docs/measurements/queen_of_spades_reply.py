"""What one AI reply of a Queen of Spades level costs the server, in an older checkout and in this one:
the script that printed the table "A network level's reply, before and after" on
docs/measurements/queen_of_spades.md.

    python docs/measurements/queen_of_spades_reply.py OLD_TREE [--rounds 5] [--seconds 1] [--levels random,rules,network]

A reply is what the move service does for an AI seat that does not search (``_ai_choice`` in
app/services/match_turns.py, app/services/matches.py before): the seat's view, its legal actions, ``act``, then ``reasoning`` (the
agent's explanation with its labels, as stored). It is timed on the positions of 40 random deals
where the seat to move has a choice, in CPU time. Each tree runs in its own process (both have the
same package names), one level and one second of CPU at a time, in rounds that alternate the trees
(old, new, old, new, ...) so both see the same spells of a shared machine's speed; each row keeps
its best round. Prints a Markdown table: microseconds of CPU per reply.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[2]

CHILD = r"""
import json, random, sys, time
from agents.catalog import make_agent
try:
    from app.services.match_turns import reasoning
except ImportError:  # trees before the match service was split
    from app.services.matches import reasoning
from engine import get_game

level, seconds = sys.argv[1], float(sys.argv[2])
game, rng = get_game("queen_of_spades"), random.Random(0)
spots = []
for seed in range(40):
    state = game.new_deal(4, seed)
    while not game.is_over(state):
        legal = game.legal_actions(state)
        if len(legal) > 1:
            spots.append(state)
        state = game.apply(state, legal[rng.randrange(len(legal))])
agent = make_agent("queen_of_spades", level)

def reply(state):
    seat = game.current_player(state)
    view, legal = game.observe(state, seat), game.legal_actions(state)
    agent.act(view, legal, random.Random(1))
    reasoning(game, "", agent, view, legal, 0)

for s in spots[:20]:
    reply(s)
done, start = 0, time.process_time()
while time.process_time() - start < seconds:
    for s in spots:
        reply(s)
    done += len(spots)
print(json.dumps((time.process_time() - start) / done * 1e6))
"""


def timed(tree: Path, level: str, seconds: float) -> float:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run([sys.executable, "-c", CHILD, level, str(seconds)], cwd=tree, env=env, check=True,
                         capture_output=True, text=True).stdout
    return float(json.loads(out.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", type=Path, help="the older checkout (e.g. /work/main)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--levels", default="random,rules,network-average,network")
    args = parser.parse_args()
    levels = [x for x in args.levels.split(",") if x]
    trees = {"old": args.old.resolve(), "new": HERE}
    best: dict[tuple[str, str], float] = {}
    for _ in range(args.rounds):
        for level in levels:
            for name, tree in trees.items():
                t = timed(tree, level, args.seconds)
                best[name, level] = min(best.get((name, level), t), t)
    print(f"| level | {trees['old'].name} (µs CPU a reply) | this tree | new / old |")
    print("|---|---|---|---|")
    for level in levels:
        old, new = best["old", level], best["new", level]
        print(f"| {level} | {old:.0f} | {new:.0f} | {new / old:.2f} |")


if __name__ == "__main__":
    main()
