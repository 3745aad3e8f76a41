"""``parlour bench server [--peers] [--requests N] [--seconds S] [--streams K] [--games G,..] [--levels A,..] [--json]``

Starts Parlour on a free loopback port with a throwaway SQLite database (one uvicorn
process, as ``parlour serve`` runs it) and measures, with one asyncio client of our own
(``app.bench.client``: one keep-alive connection per simulated client):

- resident memory after start-up, every shipped agent loaded (and again at the end);
- for every playable game, at 1 and at 64 concurrent clients: a seat's **view**
  (``GET /api/matches/{id}`` with the seat's token) and a **move with an AI reply**
  (``POST /api/matches/{id}/moves`` with one person and the fewest AI seats the game takes, a
  random legal move for the person, answered once every AI seat has replied). At 1 client every level of the game is timed; at
  64 clients the game's reference AI (Perfect, the perceptron, Harel; the strongest level that
  does not search for games without one). Search levels are reported apart (no latency goal);
- idle streams: the view's median with no event stream open, then with ``--streams``
  (default 100) idle event streams open on the same server.

With ``--peers`` a bare FastAPI app (``app.bench.floor``: one POST validating a small body,
served by the same uvicorn the same way) runs first and again last in each block as the floor
(the faster of its two runs is the reference: see ``faster``), and the goals get verdicts: a view within 2x the floor's median latency, a move with an AI reply within 3x;
at 64 clients at least 25% of the floor's requests/s with a 99th percentile under 100 ms;
memory under 150 MB; with the idle streams open the view's median within 3x its idle median.

Every row stops after ``--requests`` timed requests (default 600 with one client, 50 per
client with more) or ``--seconds`` seconds, whichever comes first, after a warm-up in which
every client connects and makes its match. Requests/s counts every request the row's clients made
per second of wall time (creating a new match when one ends, and reading its first view, are
requests too, but only the row's own kind is in the latency figures). ``--games`` and ``--levels``
(agent ids) keep only those games' rows and those levels' move rows.
"""
from __future__ import annotations

from abc import ABC, abstractmethod

import argparse
import asyncio
import importlib.util
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field

from rich.console import Console
from rich.table import Table

from app.bench.client import Connection, HTTPError

# The reference AI of each game at 64 clients (the named players).
REFERENCE = {"tictactoe": "perfect", "uno": "perceptron", "yaniv": "harel"}


def is_search(game: str, agent_id: str) -> bool:
    """Search levels (their move time is a thinking budget, reported apart: the catalog's
    ``searches``, e.g. Rack-O's Lookahead, an expectimax over every unseen card)."""
    from agents.catalog import spec

    return spec(game, agent_id).searches


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (a machine shared with other work slows every
    request's wall time; a request's CPU time varies less)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def event_loop_in_use() -> str:
    """What uvicorn's 'auto' picks here: uvloop + httptools with the standard extra."""
    loop = "uvloop" if importlib.util.find_spec("uvloop") else "asyncio"
    http = "httptools" if importlib.util.find_spec("httptools") else "h11"
    return f"{loop} + {http}"


class Server:
    """A uvicorn process serving ``target`` on a free loopback port."""

    def __init__(self, target: str, env: dict[str, str], cwd: str | None = None):
        """``cwd``: the checkout whose code serves (``python -m`` imports from there first)."""
        self.port = free_port()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", target, "--host", "127.0.0.1", "--port", str(self.port),
             "--log-level", "warning", "--no-access-log"], env={**os.environ, **env}, cwd=cwd)

    async def ready(self, path: str, method: str = "GET", body: dict | None = None) -> float:
        start = time.perf_counter()
        while time.perf_counter() - start < 120:
            if self.proc.poll() is not None:
                raise SystemExit(f"the server for {path} did not start")
            try:
                conn = await Connection(self.port).open()
                try:
                    await conn.request(method, path, body)
                finally:
                    await conn.close()
                return time.perf_counter() - start
            except OSError:
                await asyncio.sleep(0.1)
        raise SystemExit("the server did not answer within 120 s")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


# ----- what one simulated client does -----
class Client(ABC):
    """One connection; ``step()`` (each kind of client's own) makes one timed request and returns its seconds."""

    def __init__(self, port: int, index: int):
        self.conn = Connection(port)
        self.rng = random.Random(index)
        self.requests = 0  # every request, setup included

    @abstractmethod
    async def step(self) -> float: ...

    async def call(self, method: str, path: str, body: dict | None = None, token: str | None = None) -> dict:
        self.requests += 1
        return await self.conn.json(method, path, body, token)

    async def timed(self, method: str, path: str, body: dict | None = None,
                    token: str | None = None) -> tuple[float, dict]:
        start = time.perf_counter()
        data = await self.call(method, path, body, token)
        return time.perf_counter() - start, data


class FloorClient(Client):
    async def step(self) -> float:
        seconds, _ = await self.timed("POST", "/moves", {"action": "cell:4", "ply": self.requests})
        return seconds


def seats_needed(game: str) -> int:
    from engine import get_game

    return get_game(game).min_players


class MatchClient(Client):
    """A person's seat against ``agent`` in the game's smallest table (two seats, or the
    game's minimum: Queen of Spades is four); a new match when one ends."""

    def __init__(self, port: int, index: int, game: str, agent: str):
        super().__init__(port, index)
        self.game, self.agent = game, agent
        self.seats = max(2, seats_needed(game))
        self.match_id: str | None = None
        self.token: str | None = None
        self.view: dict | None = None

    async def new_match(self) -> dict:
        """A new match (again until it is active), and the seat's first view of it."""
        ais = [{"type": "agent", "agent": self.agent}] * (self.seats - 1)
        while True:
            created = await self.call("POST", "/api/matches", {"game": self.game, "seats": [
                {"type": "human", "name": "bench"}, *ais]})
            self.match_id, self.token = created["id"], created["tokens"]["0"]
            view = self.view = await self.call("GET", f"/api/matches/{self.match_id}", token=self.token)
            if view["status"] == "active":
                return view

    def choose(self, view: dict) -> str:
        ids = [a["id"] for a in view["legal_actions"] if a["id"] != "resign"]
        return self.rng.choice(ids)


class ViewClient(MatchClient):
    async def step(self) -> float:
        if self.view is None:
            await self.new_match()
        seconds, _ = await self.timed("GET", f"/api/matches/{self.match_id}", token=self.token)
        return seconds


class MoveClient(MatchClient):
    async def step(self) -> float:
        view = self.view
        if view is None or view["status"] != "active":
            view = await self.new_match()
        seconds, self.view = await self.timed("POST", f"/api/matches/{self.match_id}/moves",
                                              {"action": self.choose(view), "ply": view["ply"]}, self.token)
        return seconds


# ----- rows -----
@dataclass
class Row:
    what: str
    game: str
    agent: str
    clients: int
    timed: int = 0
    errors: int = 0
    requests_per_s: float = 0.0
    median_ms: float = 0.0
    p99_ms: float = 0.0
    server_cpu_ms: float = 0.0
    x_floor: float | None = None
    cpu_x_floor: float | None = None
    goal: str = ""
    verdict: str = ""
    notes: list[str] = field(default_factory=list)


def percentile(sorted_values: list[float], q: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


async def run_row(row: Row, clients: list[Client], requests: int, seconds: float, warmup: int,
                  pid: int | None = None) -> Row:
    """Drive ``clients`` concurrently until ``requests`` timed requests or ``seconds`` pass;
    with ``pid``, the server process's CPU time per request is measured too.

    Every client makes at least one untimed request first (``warmup`` in all): its connection
    is open and its match made before the clock starts. Clients that had still to connect
    (the server accepts one new connection per turn of its event loop) or to create their
    match held back the rest: with 20 of 64 clients warmed, most timed requests ran with only
    20 clients playing, and the row reported half the true latency."""
    try:
        for c in clients:
            for _ in range(max(1, warmup // len(clients))):
                await c.step()
    except HTTPError as err:
        row.errors += 1
        row.notes.append(str(err))
    for c in clients:
        c.requests = 0
    latencies: list[float] = []
    budget = [requests]
    deadline = time.perf_counter() + seconds

    async def loop(c: Client) -> None:
        while budget[0] > 0 and time.perf_counter() < deadline:
            budget[0] -= 1
            try:
                latencies.append(await c.step())
            except (HTTPError, ConnectionError, asyncio.IncompleteReadError) as err:
                row.errors += 1
                if len(row.notes) < 3 and str(err)[:200] not in row.notes:
                    row.notes.append(str(err)[:200])
                await c.conn.close()
                if isinstance(c, MatchClient):
                    c.view = None

    start, cpu = time.perf_counter(), cpu_seconds(pid) if pid else 0.0
    await asyncio.gather(*(loop(c) for c in clients))
    wall = time.perf_counter() - start
    total = sum(c.requests for c in clients)
    if pid and total:
        row.server_cpu_ms = round(1000 * (cpu_seconds(pid) - cpu) / total, 2)
    for c in clients:
        await c.conn.close()
    latencies.sort()
    row.timed = len(latencies)
    if latencies:
        row.requests_per_s = round(total / wall, 1)
        row.median_ms = round(1000 * statistics.median(latencies), 2)
        row.p99_ms = round(1000 * percentile(latencies, 0.99), 2)
    return row


def requests_for(args, clients: int) -> int:
    """Timed requests of a row: ``--requests``, or 600 with one client and 50 per client with
    more (a 99th percentile of 64 clients needs thousands: each waits for the others' turns)."""
    return args.requests or (600 if clients == 1 else 50 * clients)


def playable() -> list[tuple[str, list[str]]]:
    from agents.catalog import levels, playable_games

    return [(g, levels(g)) for g in playable_games()]


def reference_agent(game: str, level_ids: list[str]) -> str:
    if game in REFERENCE and REFERENCE[game] in level_ids:
        return REFERENCE[game]
    plain = [a for a in level_ids if not is_search(game, a)]
    return (plain or level_ids)[-1]


def faster(a: Row, b: Row) -> Row:
    """The floor the verdicts use: of its two runs (before and after the block's rows) the faster,
    so a floor timed at a slow moment of a shared machine cannot flatter Parlour's ratios (by
    one client's median latency; by requests/s with several clients)."""
    if a.clients == 1:
        return a if a.median_ms <= b.median_ms else b
    return a if a.requests_per_s >= b.requests_per_s else b


def judge(rows: list[Row], floor: dict[int, Row]) -> None:
    for r in rows:
        f = floor.get(r.clients)
        if r.what.startswith("floor") or f is None or not r.timed or not f.timed:
            continue
        r.x_floor = round(r.median_ms / f.median_ms, 2)
        if f.server_cpu_ms:
            r.cpu_x_floor = round(r.server_cpu_ms / f.server_cpu_ms, 2)
        if r.clients == 1:
            if r.what == "view":
                r.goal, ok = "≤ 2× floor", r.x_floor <= 2
            elif is_search(r.game, r.agent):
                r.goal, ok = "search: reported apart", None
            else:
                r.goal, ok = "≤ 3× floor", r.x_floor <= 3
        else:
            share = r.requests_per_s / f.requests_per_s
            r.goal = f"≥25% floor req/s ({100 * share:.0f}%), p99<100"
            ok = share >= 0.25 and r.p99_ms < 100
        if ok is not None:
            r.verdict = "met" if ok and not r.errors else "NOT MET"


async def bench(args) -> dict:
    tmp = tempfile.mkdtemp(prefix="parlour-bench-")
    env = {"PARLOUR_DATABASE_URL": f"sqlite:///{tmp}/bench.db",
           # the load comes from one address: lift the per-client caps for the run
           "PARLOUR_STREAMS_PER_CLIENT": str(args.streams + 50), "PARLOUR_STREAMS_TOTAL": str(args.streams + 100),
           "PARLOUR_CREATE_LIMIT": "0", "PARLOUR_GET_LIMIT": "0", "PARLOUR_POST_LIMIT": "0"}
    games = [(g, lv) for g, lv in playable() if not args.games or g in args.games]
    floor_server = Server("app.bench.floor:app", {}) if args.peers else None
    server = Server("app.main:app", env)
    out: dict = {"server": event_loop_in_use(), "rows": [], "load_average_at_start": round(os.getloadavg()[0], 1),
                 "cores": os.cpu_count()}
    try:
        out["startup_s"] = round(await server.ready("/api/games"), 2)
        out["rss_after_startup_mb"] = round(rss_mb(server.proc.pid), 1)
        if floor_server:
            await floor_server.ready("/moves", "POST", {"action": "x"})
        rows: list[Row] = []
        floor: dict[int, Row] = {}
        async def floor_row(n: int, what: str) -> Row:
            assert floor_server is not None
            row = await run_row(Row(what, "–", "bare FastAPI POST", n),
                                [FloorClient(floor_server.port, i) for i in range(n)],
                                requests_for(args, n), args.seconds, args.warmup, floor_server.proc.pid)
            rows.append(row)
            return row

        for n in args.clients:
            first = await floor_row(n, "floor") if floor_server else None
            for game, level_ids in games:
                rows.append(await run_row(Row("view", game, "–", n),
                                          [ViewClient(server.port, i, game, level_ids[0]) for i in range(n)],
                                          requests_for(args, n), args.seconds, args.warmup, server.proc.pid))
                agents = level_ids if n == 1 else [reference_agent(game, level_ids)]
                if args.levels:
                    agents = [a for a in agents if a in args.levels]
                for agent in agents:
                    rows.append(await run_row(Row("move + AI reply", game, agent, n),
                                              [MoveClient(server.port, i, game, agent) for i in range(n)],
                                              requests_for(args, n), args.seconds, args.warmup, server.proc.pid))
            if first is not None:
                floor[n] = faster(first, await floor_row(n, "floor again"))
        judge(rows, floor)
        out["rows"] = [asdict(r) for r in rows]
        if args.streams:
            out["streams"] = await idle_streams(server.port, games[0][0], args)
        out["rss_at_end_mb"] = round(rss_mb(server.proc.pid), 1)
        out["load_average_at_end"] = round(os.getloadavg()[0], 1)
    finally:
        server.stop()
        if floor_server:
            floor_server.stop()
    return out


async def idle_streams(port: int, game: str, args) -> dict:
    """The view's median with no stream open, then with ``args.streams`` idle ones."""
    async def median_view() -> float:
        row = await run_row(Row("view", game, "–", 1), [ViewClient(port, 0, game, "random")],
                            requests_for(args, 1), args.seconds, args.warmup)
        return row.median_ms

    idle = await median_view()
    setup = ViewClient(port, 0, game, "random")  # only its new_match
    await setup.new_match()
    await setup.conn.close()
    streams = [Connection(port) for _ in range(args.streams)]
    statuses = [await s.open_stream(f"/api/matches/{setup.match_id}/events") for s in streams]
    await asyncio.sleep(1.0)
    busy = await median_view()
    for s in streams:
        await s.close()
    opened = sum(1 for s in statuses if s == 200)
    ratio = round(busy / idle, 2) if idle else None
    return {"streams": args.streams, "opened": opened, "idle_median_ms": idle, "with_streams_median_ms": busy,
            "ratio": ratio, "goal": "≤ 3× idle median",
            "verdict": "met" if ratio is not None and ratio <= 3 and opened == args.streams else "NOT MET"}


def main(argv: list[str], prog: str = "parlour bench server") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--peers", action="store_true", help="time a bare FastAPI app as the floor, with verdicts")
    parser.add_argument("--requests", type=int, default=None,
                        help="timed requests per row (at most; default 600 with one client, 50 per client with more)")
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per row (at most)")
    parser.add_argument("--warmup", type=int, default=20, help="untimed requests before each row")
    parser.add_argument("--clients", type=lambda s: [int(x) for x in s.split(",")], default=[1, 64],
                        help="concurrent clients, comma-separated (default 1,64)")
    parser.add_argument("--streams", type=int, default=100, help="idle event streams (0: skip that line)")
    parser.add_argument("--games", type=lambda s: s.split(","), default=None, help="only these games")
    parser.add_argument("--levels", type=lambda s: s.split(","), default=None,
                        help="only these levels (agent ids, comma-separated) in the move rows")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not all(1 <= n <= 256 for n in args.clients) or not 0 <= args.streams <= 1000 \
            or (args.requests is not None and args.requests < 1) or not 0 < args.seconds <= 60:
        parser.error("clients 1-256, streams 0-1000, requests >= 1, seconds in (0, 60]")
    out = asyncio.run(bench(args))
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    print_tables(out, args)
    return 0


def print_tables(out: dict, args) -> None:
    console = Console(width=max(190, Console().width))
    t = Table(title=f"Parlour server on loopback: one uvicorn process ({out['server']}), SQLite; "
                    f"≤ {requests_for(args, 1)} requests (1 client) or {requests_for(args, 64)} (64 clients) "
                    f"or {args.seconds:g} s per row")
    numbers = ("clients", "timed", "req/s", "median ms", "p99 ms", "× floor", "server CPU ms/req", "CPU × floor")
    for name in ("clients", "what", "game", "agent", "timed", "req/s", "median ms", "p99 ms", "× floor",
                 "server CPU ms/req", "CPU × floor", "goal", "verdict"):
        t.add_column(name, justify="right" if name in numbers else "left")
    for r in out["rows"]:
        t.add_row(str(r["clients"]), r["what"], r["game"], r["agent"], str(r["timed"]) +
                  (f" ({r['errors']} errors)" if r["errors"] else ""), f"{r['requests_per_s']:,}",
                  f"{r['median_ms']:.2f}", f"{r['p99_ms']:.2f}",
                  "" if r["x_floor"] is None else f"{r['x_floor']:.2f}", f"{r['server_cpu_ms']:.2f}",
                  "" if r["cpu_x_floor"] is None else f"{r['cpu_x_floor']:.2f}", r["goal"], r["verdict"])
    console.print(t)
    mem = out["rss_after_startup_mb"]
    console.print(f"resident memory after start-up, every shipped agent loaded: {mem} MB "
                  f"(goal < 150 MB: {'met' if mem < 150 else 'NOT MET'}); at the end: {out['rss_at_end_mb']} MB; "
                  f"start-up to first answer {out['startup_s']} s")
    console.print(f"machine: {out['cores']} cores, load average {out['load_average_at_start']} at the start and "
                  f"{out['load_average_at_end']} at the end (latencies wait for a core; CPU per request less so)")
    s = out.get("streams")
    if s:
        console.print(f"idle event streams: a view's median {s['idle_median_ms']} ms with none open, "
                      f"{s['with_streams_median_ms']} ms with {s['opened']} of {s['streams']} open "
                      f"({s['ratio']}×; goal ≤ 3×: {s['verdict']})")
    for r in out["rows"]:
        for note in r["notes"]:
            console.print(f"[{r['game']} {r['what']} {r['agent']} ×{r['clients']}] {note}")
