"""``parlour bench heavy [--matches N] [--readers R] [--watched W] [--seconds S] [--server-code DIR] [--json]``

What cheap requests that cost the server dearly do to another client. Writes ``--matches``
finished matches into a throwaway SQLite database (``app.bench.sample``), starts one uvicorn
process on it (the code of ``--server-code``, default this checkout: point it at another
checkout to compare before and after), and times **another client's view**: one person's seat
in a match against an AI, read at a person's pace (``--interval``, under the GET quota), from its
own loopback address. Four phases of ``--seconds`` each:

1. **alone**: the viewer only (the floor of this machine at this moment);
2. **heavy reads**: ``--readers`` clients, each from an address of its own, looping over the
   heaviest reads at their largest pages (results, the export, people against levels, a live
   curve, the match list, the leaderboard, a person), each the moment the last answered (after a
   429 they wait its Retry-After, as a client that follows the protocol does);
3. **AI-only**: ``--watched`` AI-only matches of Uno between its search level (Monte Carlo)
   seats, asked with ``delay_ms`` 0, each watched by an event stream, four from each address
   (within the default budget of running AI-only matches, so that all of them run);
4. **both** at once.

Last, the budget itself: one more address asks for six quick AI-only matches and watches them
all (how many moved, how many were held back).

Each phase prints the viewer's median, 99th percentile and worst latency, the readers' answers
(ok, 429) and the AI-only moves made, with the server's CPU seconds. The goal: with both loads,
the viewer's p99 under 100 ms.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
from dataclasses import asdict, dataclass, field

from rich.console import Console
from rich.table import Table

from app.bench.client import Connection, HTTPError
from app.bench.server import Server, cpu_seconds, percentile

VIEWER = "127.0.0.1"
GOAL_P99_MS = 100.0
PER_ADDRESS = 4
"""Watched AI-only matches made from one address: within the default budget of running ones, so
that all of them run, before and after."""
HEAVY_PATHS = [
    "/api/results?limit=1000",
    "/api/results/export?format=csv",
    "/api/people-vs-levels",
    "/api/agents/tictactoe/menace-live/curve?window=1&limit=1000",
    "/api/matches?per_page=200&page=3",
    "/api/leaderboard?limit=1000",
    "/api/people/person%201",
]
WATCHED_SEATS = [{"type": "agent", "agent": "mcts"}, {"type": "agent", "agent": "mcts"}]


def reader_address(i: int) -> str:
    return f"127.0.0.{10 + i}"


def creator_address(i: int) -> str:
    return f"127.0.1.{1 + i}"


@dataclass
class Phase:
    name: str
    seconds: float = 0.0
    views: int = 0
    view_errors: int = 0
    median_ms: float = 0.0
    p99_ms: float = 0.0
    max_ms: float = 0.0
    reads_ok: int = 0
    reads_429: int = 0
    reads_other: int = 0
    read_median_ms: float | None = None
    ai_moves: int = 0
    ai_held: int = 0
    server_cpu_s: float = 0.0
    load_average: float = 0.0
    notes: list[str] = field(default_factory=list)


class Counters:
    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.ok = self.too_many = self.other = self.moves = self.held = 0
        self.read_latencies: list[float] = []
        self.notes: list[str] = []


async def viewer(port: int, seconds: float, interval: float) -> tuple[list[float], int]:
    """A person's seat against level 1 of noughts and crosses, its view read every ``interval``
    seconds for ``seconds``: the latencies, and the errors."""
    conn = Connection(port, VIEWER)
    created = await conn.json("POST", "/api/matches", {"game": "tictactoe", "seats": [
        {"type": "human", "name": "viewer"}, {"type": "agent", "level": 1}]})
    path, token = f"/api/matches/{created['id']}", created["tokens"]["0"]
    latencies, errors = [], 0
    deadline = time.perf_counter() + seconds
    try:
        while time.perf_counter() < deadline:
            start = time.perf_counter()
            try:
                await conn.json("GET", path, token=token)
                latencies.append(time.perf_counter() - start)
            except (HTTPError, ConnectionError, asyncio.IncompleteReadError):
                errors += 1
                await conn.close()
            await asyncio.sleep(max(0.0, interval - (time.perf_counter() - start)))
    finally:
        await conn.close()
    return latencies, errors


async def reader(port: int, index: int, counters: Counters) -> None:
    """Loop over ``HEAVY_PATHS`` from an address of its own until cancelled."""
    conn = Connection(port, reader_address(index))
    k = index
    try:
        while True:
            path = HEAVY_PATHS[k % len(HEAVY_PATHS)]
            k += 1
            start = time.perf_counter()
            try:
                status, _ = await conn.request("GET", path)
            except (ConnectionError, asyncio.IncompleteReadError, OSError) as err:
                counters.other += 1
                counters.notes.append(f"reader {index}: {err!r}"[:200])
                await conn.close()
                await asyncio.sleep(0.1)
                continue
            if status == 200:
                counters.ok += 1
                counters.read_latencies.append(time.perf_counter() - start)
            elif status in (429, 503):
                counters.too_many += 1
                await asyncio.sleep(float(conn.headers.get("retry-after", "1")))
            else:
                counters.other += 1
                note = f"{path}: HTTP {status}"
                if note not in counters.notes:
                    counters.notes.append(note)
    finally:
        await conn.close()


async def create_watched(port: int, count: int) -> tuple[list[tuple[str, str]], list[int]]:
    """``count`` AI-only matches asking for no delay, from as many addresses as it takes to stay
    within a budget of ``PER_ADDRESS`` each: (match id, creator address) each, and how many each
    address had accepted."""
    made: list[tuple[str, str]] = []
    accepted: list[int] = []
    for address in range(-(-count // PER_ADDRESS)):
        conn = Connection(port, creator_address(address))
        try:
            for _ in range(min(PER_ADDRESS, count - len(made))):
                created = await conn.json("POST", "/api/matches", {"game": "uno", "delay_ms": 0, "seats": WATCHED_SEATS})
                made.append((created["id"], creator_address(address)))
        finally:
            await conn.close()
        accepted.append(sum(1 for _, a in made if a == creator_address(address)))
    return made, accepted


async def budget_probe(port: int, asked: int, seconds: float) -> dict:
    """One more address asks for ``asked`` quick AI-only matches and watches them all for up to
    ``seconds``: how many were made, how many moved, how many were held back."""
    source = creator_address(200)
    conn = Connection(port, source)
    made = []
    try:
        for _ in range(asked):
            try:
                made.append((await conn.json("POST", "/api/matches", {"game": "tictactoe", "delay_ms": 0, "seats": [
                    {"type": "agent", "level": 1}] * 2}))["id"])
            except HTTPError as err:
                if err.status != 429:
                    raise
    finally:
        await conn.close()
    counters = [Counters() for _ in made]
    tasks = [asyncio.create_task(watch(port, m, source, c)) for m, c in zip(made, counters)]
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline and not all(c.moves or c.held for c in counters):
        await asyncio.sleep(0.1)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {"asked": asked, "made": len(made), "moved": sum(1 for c in counters if c.moves),
            "held": sum(1 for c in counters if c.held and not c.moves)}


async def watch(port: int, match_id: str, source: str, counters: Counters) -> None:
    """Hold the match's event stream open, counting its moves, until cancelled or it ends."""
    conn = Connection(port, source)
    try:
        status = await conn.open_stream(f"/api/matches/{match_id}/events")
        if status != 200:
            counters.notes.append(f"stream of {match_id[:8]}: HTTP {status}")
            return
        assert conn.reader is not None
        held = False
        while True:
            line = await conn.reader.readline()
            if not line or line.startswith(b"event: end"):
                return
            if line.startswith(b"event: move"):
                counters.moves += 1
            elif line.startswith(b"event: held"):
                held = True
            elif held and line.startswith(b"data: "):
                counters.held += line != b'data: {"detail":null}\n'
                held = False
    except (ConnectionError, asyncio.IncompleteReadError, OSError) as err:
        counters.notes.append(f"stream of {match_id[:8]}: {err!r}"[:200])
    finally:
        await conn.close()


async def run_phase(name: str, port: int, pid: int, args, counters: Counters) -> Phase:
    counters.reset()
    cpu = cpu_seconds(pid)
    start = time.perf_counter()
    latencies, errors = await viewer(port, args.seconds, args.interval)
    phase = Phase(name, round(time.perf_counter() - start, 1), len(latencies), errors)
    latencies.sort()
    if latencies:
        phase.median_ms = round(1000 * statistics.median(latencies), 1)
        phase.p99_ms = round(1000 * percentile(latencies, 0.99), 1)
        phase.max_ms = round(1000 * latencies[-1], 1)
    phase.reads_ok, phase.reads_429, phase.reads_other = counters.ok, counters.too_many, counters.other
    if counters.read_latencies:
        phase.read_median_ms = round(1000 * statistics.median(counters.read_latencies), 1)
    phase.ai_moves, phase.ai_held = counters.moves, counters.held
    phase.server_cpu_s = round(cpu_seconds(pid) - cpu, 1)
    phase.load_average = round(os.getloadavg()[0], 1)
    phase.notes = counters.notes[:3]
    return phase


async def bench(args) -> dict:
    from app.bench.sample import seed

    tmp = tempfile.mkdtemp(prefix="parlour-bench-heavy-")
    url = f"sqlite:///{tmp}/heavy.db"
    start = time.perf_counter()
    seed(url, args.matches)
    out: dict = {"matches": args.matches, "seed_s": round(time.perf_counter() - start, 1),
                 "server_code": os.path.abspath(args.server_code or os.getcwd()), "cores": os.cpu_count(),
                 "readers": args.readers, "watched": args.watched}
    server = Server("app.main:app", {"PARLOUR_DATABASE_URL": url}, cwd=args.server_code)
    counters = Counters()
    tasks: list[asyncio.Task] = []
    try:
        await server.ready("/api/games")
        pid, port = server.proc.pid, server.port
        first = await Connection(port, reader_address(0)).request("GET", "/api/results")
        out["results_first_page_bytes"] = len(first[1])
        phases = [await run_phase("alone", port, pid, args, counters)]
        readers = [asyncio.create_task(reader(port, i, counters)) for i in range(args.readers)]
        phases.append(await run_phase("heavy reads", port, pid, args, counters))
        for t in readers:
            t.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
        made, accepted = await create_watched(port, args.watched)
        out["ai_only_created"], out["ai_only_accepted_per_address"] = len(made), accepted
        tasks = [asyncio.create_task(watch(port, m, source, counters)) for m, source in made]
        phases.append(await run_phase("AI-only", port, pid, args, counters))
        tasks += [asyncio.create_task(reader(port, i, counters)) for i in range(args.readers)]
        phases.append(await run_phase("both", port, pid, args, counters))
        out["phases"] = [asdict(p) for p in phases]
        for t in tasks:  # the loads stop: the probe's matches are not queued behind them
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        out["budget_probe"] = await budget_probe(port, PER_ADDRESS + 2, 30.0)
        floor, both = phases[0], phases[-1]
        out["goal"] = {"p99_ms_under": GOAL_P99_MS, "both_p99_ms": both.p99_ms, "floor_p99_ms": floor.p99_ms,
                       "verdict": "met" if both.views and both.p99_ms < GOAL_P99_MS and not both.view_errors
                       else "NOT MET"}
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        server.stop()
    return out


def main(argv: list[str], prog: str = "parlour bench heavy") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=2000, help="finished matches in the database")
    parser.add_argument("--readers", type=int, default=10, help="clients looping on the heavy reads")
    parser.add_argument("--watched", type=int, default=30, help="watched AI-only matches")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds per phase")
    parser.add_argument("--interval", type=float, default=0.125,
                        help="seconds between the viewer's reads (default 8 a second: under the GET quota)")
    parser.add_argument("--server-code", default=None, help="the checkout whose code serves (default: this one)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not (1 <= args.matches <= 200_000 and 0 <= args.readers <= 200 and 0 <= args.watched <= 200
            and 0 < args.seconds <= 600 and 0.01 <= args.interval <= 10):
        parser.error("matches 1-200000, readers 0-200, watched 0-200, seconds in (0, 600], interval 0.01-10")
    out = asyncio.run(bench(args))
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    print_table(out, args)
    return 0


def print_table(out: dict, args) -> None:
    console = Console(width=max(150, Console().width))
    t = Table(title=f"Another client's view under heavy reads and watched AI-only matches: one uvicorn process, "
                    f"SQLite, {out['matches']} finished matches; {args.seconds:g} s a phase, a view every "
                    f"{1000 * args.interval:g} ms")
    for name in ("phase", "views", "median ms", "p99 ms", "max ms", "reads ok", "429", "read median ms",
                 "AI-only moves", "held", "server CPU s", "load avg"):
        t.add_column(name, justify="left" if name == "phase" else "right")
    for p in out["phases"]:
        t.add_row(p["name"], str(p["views"]) + (f" ({p['view_errors']} errors)" if p["view_errors"] else ""),
                  f"{p['median_ms']:.1f}", f"{p['p99_ms']:.1f}", f"{p['max_ms']:.1f}", str(p["reads_ok"]),
                  str(p["reads_429"]) + (f" (+{p['reads_other']} other)" if p["reads_other"] else ""),
                  "" if p["read_median_ms"] is None else f"{p['read_median_ms']:.1f}", str(p["ai_moves"]), str(p["ai_held"]),
                  f"{p['server_cpu_s']:.1f}", f"{p['load_average']:.1f}")
    console.print(t)
    g = out["goal"]
    console.print(f"server code: {out['server_code']}; {out['cores']} cores (shared: compare with the floor, "
                  f"'alone', measured in the same run)")
    b = out["budget_probe"]
    console.print(f"{out['readers']} readers; AI-only matches: {out['ai_only_created']} of {out['watched']} created, "
                  f"accepted per address {out['ai_only_accepted_per_address']}; the first page of /api/results: "
                  f"{out['results_first_page_bytes']:,} bytes")
    console.print(f"one address asking for {b['asked']} AI-only matches and watching them: {b['made']} made, "
                  f"{b['moved']} moved, {b['held']} held back")
    console.print(f"goal: the view's p99 under {g['p99_ms_under']:g} ms with both loads: {g['both_p99_ms']} ms "
                  f"(floor {g['floor_p99_ms']} ms): {g['verdict']}")
    for p in out["phases"]:
        for note in p["notes"]:
            console.print(f"[{p['name']}] {note}", markup=False)
