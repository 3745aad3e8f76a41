"""What the game benchmarks share besides timing: their options, the throughput table and JSON rows,
the machine line, peer libraries, the random playout of an OpenSpiel game through its Python
API (the peer figure), and the command of the card games' benches (``card_bench_main``)."""
from __future__ import annotations

import argparse
import platform
import random
import sys
import json
from dataclasses import asdict, dataclass
from importlib import metadata
from typing import Callable

import numpy as np
from rich.console import Console
from rich.table import Table as RichTable

from agents.bench import coach as coach_bench
from agents.bench.timing import Result, Row


def machine() -> dict:
    return {"python": platform.python_version(), "numpy": np.__version__, "platform": platform.platform(),
            "processor": platform.processor() or platform.machine()}


def machine_line() -> str:
    """The machine as one dim line of a rich console."""
    return "[dim]" + ", ".join(f"{k} {v}" for k, v in machine().items()) + "[/dim]"


def peer(name: str, package: str, module: str) -> tuple[str | None, str]:
    """(version, "") when ``module`` imports, else (None, a line saying why; rich markup escaped)."""
    try:
        __import__(module)
        return metadata.version(package), ""
    except (ImportError, metadata.PackageNotFoundError) as err:
        return None, (f"peer unavailable: {name} ({package}) could not be imported ({err}); "
                      "install the bench extra: .venv/bin/pip install -e '.\\[bench]'")


def openspiel_random_deals(game_name: str, params: dict, n: int, rng: random.Random,
                           first: int | None = None) -> Callable[[], tuple[int, int]]:
    """A chunk of ``n`` random playouts of an OpenSpiel game (chance outcomes drawn uniformly from
    their list, ``first`` applied at the opening chance node when given); returns (deals, moves)."""
    import pyspiel

    game = pyspiel.load_game(game_name, params)

    def chunk() -> tuple[int, int]:
        moves = 0
        for _ in range(n):
            state = game.new_initial_state()
            if first is not None:
                state.apply_action(first)
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                    continue
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                moves += 1
        return n, moves

    return chunk


def gin_rummy_rows(rng: random.Random, notes: list[str], n: int = 20) -> list[Row]:
    """The peer row of the draw-and-discard games (Rack-O, Yaniv): OpenSpiel's gin rummy (two
    players, C++ via pyspiel, random legal moves), the nearest game either library has. Neither
    RLCard nor OpenSpiel has Rack-O or Yaniv; gin rummy shares their turn (take the stock's or
    the discard pile's top card, give one back) and Yaniv's ending (knock when the hand is low).
    Without OpenSpiel a line in ``notes`` says why."""
    version, note = peer("OpenSpiel", "open_spiel", "pyspiel")
    if not version:
        notes.append(note)
        return []
    return [Row(f"OpenSpiel {version} gin_rummy, 2 players", "deals/s", openspiel_random_deals("gin_rummy", {}, n, rng),
                peer=True, note="C++ game, random legal move: the nearest draw-and-discard game")]


def timing_options(parser: argparse.ArgumentParser, decisions: int | None = None,
                   decisions_help: str = "act calls timed per agent") -> None:
    """The options every game bench takes: --json, --seconds, --repeats, the coach's, and
    --decisions when the bench times decisions (``decisions`` is then its default)."""
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per run (default 1)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure, the best is kept (default 3)")
    if decisions is not None:
        parser.add_argument("--decisions", type=int, default=decisions,
                            help=f"{decisions_help} (default {decisions})")
    coach_bench.add_option(parser)


def parse_timing(parser: argparse.ArgumentParser, argv: list[str] | None) -> argparse.Namespace:
    """Parse, refusing a run that could measure nothing."""
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.repeats < 1 or getattr(args, "decisions", 0) < 0:
        parser.error("--seconds must be positive, --repeats at least 1, --decisions at least 0")
    return args


def json_rows(results: list[Result]) -> list[dict]:
    return [{**asdict(r), "per_cpu_second": round(r.per_cpu_second, 1),
             "per_wall_second": round(r.per_wall_second, 1),
             "turns_per_unit": round(r.turns_per_unit, 1) if r.turns_per_unit else None} for r in results]


def throughput_table(title: str, results: list[Result], turns_column: str | None) -> RichTable:
    """Work per CPU and per wall second, one row a result (peers in cyan)."""
    columns = ["work", "per CPU s", "per wall s"] + ([turns_column] if turns_column else []) + ["note"]
    table = RichTable(title=title)
    for column in columns:
        table.add_column(column, justify="left" if column in ("work", "note") else "right")
    for r in results:
        turns = [f"{r.turns_per_unit:.1f}" if r.turns_per_unit else "–"] if turns_column else []
        table.add_row(("[cyan]" if r.peer else "") + r.name, f"{r.per_cpu_second:,.0f}",
                      f"{r.per_wall_second:,.0f}", *turns, r.note)
    return table


def move_time_lines(latency: list[dict]) -> list[str]:
    return [f"{p['agent']} move time: median {p['median_us']} µs, slowest {p['max_us']} µs "
            f"({p['decisions']} act calls)" for p in latency]


def console_for_tables(width: int = 110) -> Console:
    """stdout; a pipe gets the whole table at ``width`` columns."""
    return Console(width=None if sys.stdout.isatty() else width)


def closing_lines(console: Console, review: dict | None) -> None:
    """The machine line and, when measured, the coach's review time."""
    console.print(machine_line())
    if review:
        console.print(coach_bench.line(review), soft_wrap=True)


Progress = Callable[[str], None]
Measured = tuple[list[Result], list[dict], list[str]]
"""A card game bench's run: throughput results, decision times (JSON-ready points), notes."""


@dataclass(frozen=True)
class CardBench:
    """What a card game's bench command says beyond what they share: its rows (``run(peers,
    seconds, repeats, decisions, progress)``) and its goal (``goal(results)``: the goal's JSON,
    with ``met``, and its line, where ``{verdict}`` stands for met or NOT met)."""
    title: str  # "Rack-O"
    game: str  # the coach's game name
    description: str  # the command's help: its module's docstring
    run: Callable[[bool, float, int, int, Progress], Measured]
    goal: Callable[[list[Result]], tuple[dict, str]]
    peers_help: str
    decisions: int
    turns_column: str = "moves/deal"
    decisions_help: str = "act calls timed per agent"
    latency_key: str = "move_times"
    latency_lines: Callable[[list[dict]], list[str]] = move_time_lines


def card_bench_main(bench: CardBench, argv: list[str] | None, prog: str) -> int:
    """``parlour bench GAME``: the rows timed on one core, then a table (or ``--json``), the notes, the
    decision times, the goal's verdict, the machine and the coach's review time."""
    parser = argparse.ArgumentParser(prog=prog, description=bench.description.split("\n\n")[0])
    parser.add_argument("--peers", action="store_true", help=bench.peers_help)
    timing_options(parser, decisions=bench.decisions, decisions_help=bench.decisions_help)
    args = parse_timing(parser, argv)
    console = console_for_tables()
    with Console(stderr=True).status("benchmarking") as status:
        results, latency, notes = bench.run(args.peers, args.seconds, args.repeats, args.decisions,
                                            lambda what: status.update(f"benchmarking: {what}"))
    goal, goal_line = bench.goal(results)
    review = coach_bench.measured(bench.game, args.reviews)
    if args.json:
        print(json.dumps({"coach": review, "machine": machine(), "seconds": args.seconds, "repeats": args.repeats,
                          "results": json_rows(results), bench.latency_key: latency, "goal": goal, "notes": notes},
                         indent=1))
        return 0
    console.print(throughput_table(f"{bench.title}, one core, best of {args.repeats} x {args.seconds:g} s of CPU",
                                   results, bench.turns_column))
    for line in notes + bench.latency_lines(latency):
        console.print(line)
    console.print(goal_line.format(verdict="met" if goal["met"] else "NOT met"))
    closing_lines(console, review)
    return 0
