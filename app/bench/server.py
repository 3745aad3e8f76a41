"""``parlour bench server``: the server's resident memory after start-up (every agent loaded)
and a short HTTP load on loopback: whole games of noughts and crosses against an AI.

Starts its own server on a free loopback port with a throwaway database and stops it.
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from rich.console import Console
from rich.table import Table


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def request(base: str, path: str, body: dict | None = None, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    with urllib.request.urlopen(urllib.request.Request(base + path, data=data, headers=headers), timeout=30) as r:
        return json.loads(r.read())


def one_game(base: str, level: int) -> list[float]:
    """Play a whole game as X, always the first legal cell; returns each request's seconds."""
    times = []
    t = time.perf_counter()
    created = request(base, "/api/matches", {"game": "tictactoe", "seats": [
        {"type": "human", "name": "bench"}, {"type": "agent", "level": level}]})
    times.append(time.perf_counter() - t)
    token = created["tokens"]["0"]
    view = request(base, f"/api/matches/{created['id']}", token=token)
    while view["status"] == "active":
        t = time.perf_counter()
        view = request(base, f"/api/matches/{created['id']}/moves",
                       {"action": view["legal_actions"][0]["id"], "ply": view["ply"]}, token)
        times.append(time.perf_counter() - t)
    return times


def main(argv: list[str], prog: str = "parlour bench server") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="games played in the load phase")
    parser.add_argument("--clients", type=int, default=4, help="concurrent clients")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    tmp = tempfile.mkdtemp()
    env = {**os.environ, "PARLOUR_DATABASE_URL": f"sqlite:///{tmp}/bench.db"}
    proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "app.main:app", "--port", str(port),
                             "--log-level", "warning"], env=env)
    try:
        start = time.perf_counter()
        while True:
            try:
                request(base, "/api/games")
                break
            except OSError:
                if proc.poll() is not None:
                    raise SystemExit("the server did not start")
                time.sleep(0.1)
        startup = time.perf_counter() - start
        idle = rss_mb(proc.pid)
        t0 = time.perf_counter()
        with ThreadPoolExecutor(args.clients) as pool:
            results = list(pool.map(lambda i: one_game(base, 1 + i % 4), range(args.games)))
        wall = time.perf_counter() - t0
        after = rss_mb(proc.pid)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    latencies = sorted(x for r in results for x in r)
    rows = {
        "start-up to first answer (s)": round(startup, 2),
        "resident memory after start-up, agents loaded (MB)": round(idle, 1),
        f"resident memory after {args.games} games (MB)": round(after, 1),
        "requests": len(latencies),
        "requests per second": round(len(latencies) / wall, 1),
        "median request (ms)": round(1000 * statistics.median(latencies), 1),
        "95th percentile request (ms)": round(1000 * latencies[int(0.95 * (len(latencies) - 1))], 1),
    }
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    table = Table(title=f"Parlour server: {args.games} games of noughts and crosses, {args.clients} clients, "
                        "one uvicorn process, SQLite")
    table.add_column("measure")
    table.add_column("value", justify="right")
    for k, v in rows.items():
        table.add_row(k, str(v))
    Console(width=max(100, Console().width)).print(table)
    return 0
