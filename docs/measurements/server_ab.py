"""CPU time per request of one checkout of Parlour against another, in process: the script that
printed the table of "The thin web layer (session 10)" in docs/measurements/server.md.

    python docs/measurements/server_ab.py OLD_TREE NEW_TREE [--rounds 4] [--requests 400] [--calls]

Each round runs, for each tree in turn (old then new, new then old, and so on: a drift of the
machine's speed favours neither), a fresh process per game row that
reads a seat's view ``--requests`` times and then plays as many moves (one person against the row's
AI; Queen of Spades seats three), through Starlette's test client on a throwaway SQLite file. It
reports the process's CPU time (every thread) per request: a busy machine inflates wall times far
more than the CPU a request takes. Prints each round, then each side's best.

With ``--calls`` it counts instead the function calls (yappi's, in every thread, built-ins
included; the ``bench`` extra installs yappi) per view and per move, in one round, on matches dealt from a fixed seed: the same deals on both sides,
so the counts compare the work each tree does, whatever the machine's load.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

ROWS = [("yaniv", "harel"), ("uno", "perceptron"), ("tictactoe", "perfect")]


def child(game: str, agent: str, requests: int, calls: bool) -> dict[str, float]:
    """Run in the tree on PYTHONPATH: µs of CPU per view and per move (with ``calls``: function
    calls per view and per move)."""
    os.environ.update({"PARLOUR_CREATE_LIMIT": "0", "PARLOUR_GET_LIMIT": "0", "PARLOUR_POST_LIMIT": "0"})
    from fastapi.testclient import TestClient

    from app.main import create_app

    ais = [{"type": "agent", "agent": agent}] * (3 if game == "queen_of_spades" else 1)
    rng, seed = random.Random(1), {"seed": 7} if calls else {}
    with TestClient(create_app(f"sqlite:///{tempfile.mkdtemp()}/ab.db", preload=False)) as client:
        def new_match() -> tuple[str, dict[str, str]]:
            made = client.post("/api/matches", json={"game": game, "seats": [{"type": "human"}, *ais], **seed}).json()
            return f"/api/matches/{made['id']}", {"Authorization": f"Bearer {made['tokens']['0']}"}

        url, token = new_match()
        for _ in range(50):  # warm up
            client.get(url, headers=token)
        start = time.process_time()
        counting = _counting(calls)
        for _ in range(requests):
            client.get(url, headers=token)
        view_calls = counting()
        view = (time.process_time() - start) / requests
        moved, spent, move_calls, seen = 0, 0.0, 0, client.get(url, headers=token).json()
        while moved < requests:
            if seen["status"] != "active":
                url, token = new_match()
                seen = client.get(url, headers=token).json()
                continue
            action = rng.choice([a["id"] for a in seen["legal_actions"] if a["id"] != "resign"])
            start = time.process_time()
            counting = _counting(calls)
            seen = client.post(f"{url}/moves", json={"action": action, "ply": seen["ply"]}, headers=token).json()
            move_calls += counting()
            spent += time.process_time() - start
            moved += 1
    if calls:
        return {"view_calls": round(view_calls / requests, 1), "move_calls": round(move_calls / requests, 1)}
    return {"view_us": round(view * 1e6), "move_us": round(spent / requests * 1e6)}


def _counting(calls: bool):
    """Start counting function calls in every thread (when ``calls``); returns the function
    that stops and gives the count (0 when not counting)."""
    if not calls:
        return lambda: 0
    import yappi

    yappi.clear_stats()
    yappi.start(builtins=True)

    def stop() -> int:
        yappi.stop()
        return sum(s.ncall for s in yappi.get_func_stats())
    return stop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--calls", action="store_true", help="count function calls instead (one round)")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(*args.child, args.requests, args.calls)))
        return
    best: dict[tuple[str, str, str], float] = {}
    for i in range(1 if args.calls else args.rounds):
        sides = [("old", args.old), ("new", args.new)]
        for side, tree in sides if i % 2 == 0 else sides[::-1]:
            for game, agent in ROWS:
                out = subprocess.run([sys.executable, __file__, args.old, args.new, "--requests", str(args.requests),
                                      *(["--calls"] if args.calls else []), "--child", game, agent], cwd=tree, env={**os.environ, "PYTHONPATH": tree},
                                     capture_output=True, text=True, check=True)
                got = json.loads(out.stdout)
                print(i + 1, side, game, agent, got, flush=True)
                for kind, us in got.items():
                    key = (game, kind, side)
                    best[key] = min(best.get(key, us), us)
    for game, agent in ROWS:
        for kind in ("view_calls", "move_calls") if args.calls else ("view_us", "move_us"):
            old, new = best[(game, kind, "old")], best[(game, kind, "new")]
            print(f"{game} + {agent}, {kind}: old {old}, new {new} ({new / old:.2f}x)")


if __name__ == "__main__":
    main()
