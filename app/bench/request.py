"""``parlour bench request [--game G] [--agent A] [--moves N] [--top K]``: where a move request's
time goes.

Plays ``--moves`` moves (a random legal move for the person, the AI seats' replies) through the whole
app in this process (Starlette's test client: routing, dependencies, the services, SQLAlchemy,
SQLite in a throwaway file), first untimed to warm up, then once timed by the clock and once
under yappi (every thread: the app runs in the test client's thread and a move in a worker
thread; the ``bench`` extra installs it). It prints the wall time per move request and, from
the profile, the CPU time per move request inside each of the ``--top`` costliest functions of
the request path (inclusive; the profiler inflates small functions, so read the shares, not
the sums).
"""
from __future__ import annotations

import argparse
import os
import random
import tempfile
import time

# the parts of the request path worth naming (anything else is summed into its callers)
WATCHED = ("/app/services/", "/app/routers/", "/app/deps.py", "/app/limits.py", "/engine/", "/agents/", "sqlalchemy/orm/session.py", "sqlalchemy/engine/base.py",
           "fastapi/routing.py", "fastapi/dependencies/utils.py", "starlette/middleware")


def main(argv: list[str], prog: str = "parlour bench request") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="yaniv")
    parser.add_argument("--agent", default="harel", help="the AI that replies (an agent id of the game)")
    parser.add_argument("--moves", type=int, default=1000, help="timed move requests (10 to 20,000)")
    parser.add_argument("--top", type=int, default=25, help="functions listed")
    args = parser.parse_args(argv)
    if not 10 <= args.moves <= 20_000 or not 1 <= args.top <= 200:
        parser.error("--moves must be 10 to 20,000 and --top 1 to 200")
    from agents import catalog

    if args.game not in catalog.playable_games():
        parser.error(f"--game must be one of {', '.join(catalog.playable_games())}")
    if args.agent not in catalog.levels(args.game):
        parser.error(f"--agent must be one of {args.game}'s: {', '.join(catalog.levels(args.game))}")

    try:
        import yappi
    except ImportError:
        parser.error("needs yappi: pip install -e '.[bench]'")
    os.environ["PARLOUR_CREATE_LIMIT"] = "0"
    os.environ["PARLOUR_POST_LIMIT"] = "0"
    from fastapi.testclient import TestClient

    from app.main import create_app

    with tempfile.TemporaryDirectory() as tmp, \
            TestClient(create_app(f"sqlite:///{tmp}/request.db", preload=True)) as client:
        table = Table(client, args.game, args.agent)
        table.play(100)
        start = time.perf_counter()
        moves = table.play(args.moves)
        wall = (time.perf_counter() - start) / moves
        yappi.set_clock_type("cpu")
        yappi.start()
        profiled = table.play(args.moves)
        yappi.stop()
    print(f"{args.game}, a person's move and the replies of {args.agent}: {1000 * wall:.3f} ms of wall time per move "
          f"request, test client included ({moves} moves, then {profiled} under the profiler)")
    rows = [(f.ttot, f.ncall, f"{short(f.module)}:{f.lineno} {f.name}") for f in yappi.get_func_stats()
            if any(w in f.module for w in WATCHED)]
    rows.sort(reverse=True)
    print(f"{'CPU ms per move':>15}  {'calls':>6}  function (inclusive, under the profiler)")
    for inclusive, calls, where in rows[:args.top]:
        print(f"{1000 * inclusive / profiled:>15.3f}  {calls / profiled:>6.1f}  {where}")
    return 0


def short(path: str) -> str:
    """A module's path from its package (``sqlalchemy/orm/session.py``, ``app/services/match_turns.py``)."""
    for root in ("site-packages/", "/app/", "/engine/", "/agents/"):
        if root in path:
            return (root.strip("/") + "/" if root != "site-packages/" else "") + path.split(root, 1)[1]
    return path


class Table:
    """One person against ``agent`` in every other seat of ``game`` (the fewest seats it takes),
    a new match whenever one ends."""

    def __init__(self, client, game: str, agent: str):
        from engine import get_game

        self.client, self.game, self.agent = client, game, agent
        self.others = get_game(game).min_players - 1
        self.rng = random.Random(1)
        self.new()

    def new(self) -> None:
        made = self.client.post("/api/matches", json={"game": self.game, "seats": [
            {"type": "human", "name": "Bench"}, *[{"type": "agent", "agent": self.agent}] * self.others]})
        made.raise_for_status()
        self.url = f"/api/matches/{made.json()['id']}"
        self.headers = {"Authorization": f"Bearer {made.json()['tokens']['0']}"}
        self.view = self.client.get(self.url, headers=self.headers).json()

    def play(self, moves: int) -> int:
        """Make ``moves`` move requests; returns how many were made."""
        for _ in range(moves):
            while self.view["status"] != "active" or not self.view["legal_actions"]:
                self.new()
            action = self.rng.choice(self.view["legal_actions"])["id"]
            answer = self.client.post(f"{self.url}/moves", headers=self.headers,
                                      json={"action": action, "ply": self.view["ply"]})
            answer.raise_for_status()
            self.view = answer.json()
        return moves
