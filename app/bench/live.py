"""``parlour bench live``: how long resetting each live learner takes over HTTP, how long the
first match with it takes afterwards (its table is rebuilt), and what the resets and those first
matches cost other requests (a client reading ``/api/matches`` all the while).

Starts its own server on a free loopback port with a throwaway database (or uses ``--url``,
with ``--admin-token``), and stops it.
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
import threading
import time
import urllib.error
import urllib.request

from rich.console import Console
from rich.table import Table

from agents.catalog import agent_specs, playable_games


def call(base: str, path: str, body: dict | None = None, token: str | None = None) -> tuple[float, int]:
    """(seconds, status) of one request."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(urllib.request.Request(base + path, data=data, headers=headers), timeout=120) as r:
            r.read()
            status = r.status
    except urllib.error.HTTPError as err:
        status = err.code
    return time.perf_counter() - start, status


def start_server(port: int, db: str, token: str) -> subprocess.Popen:
    env = {**os.environ, "PARLOUR_DATABASE_URL": f"sqlite:///{db}", "PARLOUR_ADMIN_TOKEN": token,
           "PARLOUR_CREATE_LIMIT": "0", "PARLOUR_POST_LIMIT": "0"}
    proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1",
                             "--port", str(port), "--log-level", "warning"], env=env)
    for _ in range(600):
        try:
            call(f"http://127.0.0.1:{port}", "/api/games")
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main(argv: list[str], prog: str = "parlour bench live") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__)
    parser.add_argument("--resets", type=int, default=5, help="resets to each table per learner")
    parser.add_argument("--url", help="an already running server (default: start one)")
    parser.add_argument("--admin-token", default="bench-admin-token")
    args = parser.parse_args(argv)
    learners = [(g, s.id) for g in playable_games() for s in agent_specs(g) if s.live is not None]
    proc = None
    tmp = tempfile.TemporaryDirectory()
    base = args.url
    if base is None:
        port = free_port()
        proc = start_server(port, os.path.join(tmp.name, "bench.db"), args.admin_token)
        base = f"http://127.0.0.1:{port}"
    try:
        samples: list[tuple[float, float]] = []  # (start time, seconds) of the background reader
        stop = threading.Event()

        def reader():
            while not stop.is_set():
                t = time.perf_counter()
                seconds, _ = call(base, "/api/matches?per_page=1")
                samples.append((t, seconds))
                time.sleep(0.01)

        thread = threading.Thread(target=reader, daemon=True)
        thread.start()
        time.sleep(1.0)
        rows, busy = [], []
        for game, agent in learners:
            seats = [{"type": "human", "name": "bench"}, {"type": "agent", "agent": agent}]
            for to in ("trained", "beginner"):
                resets, firsts = [], []
                for _ in range(args.resets):
                    t = time.perf_counter()
                    seconds, status = call(base, f"/api/agents/{game}/{agent}/reset", {"to": to}, args.admin_token)
                    busy.append((t, t + seconds))
                    if status != 200:
                        raise SystemExit(f"{prog}: reset {game}/{agent} answered {status}")
                    resets.append(seconds)
                    t = time.perf_counter()
                    seconds, status = call(base, "/api/matches", {"game": game, "seats": seats})
                    busy.append((t, t + seconds))
                    firsts.append(seconds)
                rows.append((f"{game}/{agent}", to, resets, firsts))
        stop.set()
        thread.join()
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait()
        tmp.cleanup()

    during = [s for t, s in samples if any(a <= t <= b or a <= t + s <= b for a, b in busy)]
    idle = [s for t, s in samples if not any(a - 0.5 <= t <= b + 0.5 for a, b in busy)]
    ms = lambda xs, f: f"{1000 * f(xs):.1f}" if xs else "-"  # noqa: E731
    table = Table(title=f"Resetting live learners over HTTP ({args.resets} resets each; loopback, one machine)")
    for col in ("learner", "reset to", "reset median ms", "reset max ms", "first match after, median ms",
                "first match after, max ms"):
        table.add_column(col, justify="right" if "ms" in col else "left")
    for name, to, resets, firsts in rows:
        table.add_row(name, to, ms(resets, statistics.median), ms(resets, max), ms(firsts, statistics.median),
                      ms(firsts, max))
    console = Console(width=130)
    console.print(table)
    console.print("Another client's GET /api/matches while resets and the first matches after them ran: "
                  f"median {ms(during, statistics.median)} ms, max {ms(during, max)} ms over {len(during)} requests; idle: median {ms(idle, statistics.median)} ms, "
                  f"max {ms(idle, max)} ms over {len(idle)} requests.")
    slowest = max(max(r[2]) for r in rows)
    console.print(f"Goal: every reset under 1 s -> slowest {1000 * slowest:.0f} ms: "
                  f"{'met' if slowest < 1 else 'NOT met'}.")
    return 0
