"""``parlour bench cheats --url URL``: two of issue 23's cheats against a running server, from
one client: games against live MENACE, each created with a new random X-Forwarded-For
(``--spoof``) and/or with a seed of the client's choosing (``--seed``). Prints how many games
were played, learned from and rated, and how many creations were refused (429, waited out).
It changes the server's data: point it at a throwaway one.
"""
from __future__ import annotations

import argparse
import json
import random
import time

from app.bench.probes import call


def rated_games(base: str, player: str) -> int:
    status, body, _, _ = call(base, "GET", "/api/leaderboard?game=tictactoe")
    return next((p["games"] for p in json.loads(body)["players"] if p["player"] == player), 0)


def main(argv: list[str], prog: str = "parlour bench cheats") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__)
    parser.add_argument("--url", required=True)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--spoof", action="store_true", help="a new random X-Forwarded-For for every game")
    parser.add_argument("--seed", action="store_true", help="choose every game's seed (0, 1, 2...)")
    args = parser.parse_args(argv)
    base, rng = args.url.rstrip("/"), random.Random(23)
    name = f"Cheat{rng.randrange(10 ** 6)}"
    seats = [{"type": "human", "name": name}, {"type": "agent", "agent": "menace-live"}]
    learned = refused = 0
    start = time.perf_counter()
    for game in range(args.games):
        body = {"game": "tictactoe", "seats": seats, **({"seed": game} if args.seed else {})}
        while True:
            address = ".".join(str(rng.randrange(1, 255)) for _ in range(4))
            status, answer, headers, _ = call(base, "POST", "/api/matches", body,
                                              {"X-Forwarded-For": address} if args.spoof else {})
            if status != 429:
                break
            refused += 1
            time.sleep(float(headers.get("Retry-After", headers.get("retry-after", "1"))))
        created = json.loads(answer)
        token = {"Authorization": f"Bearer {created['tokens']['0']}"}
        while True:
            view = json.loads(call(base, "GET", f"/api/matches/{created['id']}", headers=token)[1])
            if view["status"] != "active":
                break
            action = rng.choice(view["legal_actions"])["id"]
            call(base, "POST", f"/api/matches/{created['id']}/moves", {"action": action, "ply": view["ply"]}, token)
        learned += bool((view.get("learning") or {}).get("1", {}).get("learned"))
    print(f"{'games':>6} {'learned':>8} {'rated':>6} {'creations refused':>18} {'seconds':>8}  "
          f"(spoof={args.spoof}, seed={args.seed})")
    print(f"{args.games:>6} {learned:>8} {rated_games(base, f'person:{name}'):>6} {refused:>18} "
          f"{time.perf_counter() - start:>8.1f}")
    return 0
