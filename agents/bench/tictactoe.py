"""``parlour bench tictactoe [--peers] [--json] [--seconds S] [--repeats R]``

Two kinds of work, each timed on one core (single-threaded code; numpy's
element-wise operations do not start threads):

- **random playouts**: a whole game of uniformly random moves through the public
  engine API only (``new_match``, ``is_over``, ``legal_actions``, ``apply``), the
  moves drawn with ``random.Random``;
- **MENACE training games** with the batched numpy trainer
  (``agents.training.menace_batch``), at several batch sizes and opponents.

With ``--peers`` the same playouts run in OpenSpiel's Python API (``pyspiel``,
the ``bench`` extra): once as OpenSpiel's own idiom (``apply_action`` changes the
state in place) and once with ``state.child(action)``, which returns a new state
as our ``apply`` does. If OpenSpiel is not installed, a line says so.

Each figure is the best of ``--repeats`` runs of at least ``--seconds`` each, so
other processes on a shared machine disturb it less; the rate is given per
second of this process's CPU time and per second of wall-clock time.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import asdict
from typing import Callable

import numpy as np
from rich.console import Console
from rich.table import Table

from agents.bench import coach as coach_bench
from agents.bench.report import machine, machine_line, peer
from agents.bench.timing import Result, Row, measure_rows
from agents.saved_files import load_saved
from agents.tictactoe.menace import MenaceConfig
from agents.training.menace_batch import BatchTrainer, O, X
from engine import get_game
from engine.base import Game

MENACE_GOAL = 200_000  # training games per second (issue 2)
TRAINING_CONFIG = MenaceConfig(initial_beads=(32, 16, 8, 4))  # the training command's default


# ----- random playouts -----
def parlour_playouts(n: int, rng: random.Random, game: Game | None = None) -> Callable[[], int]:
    """``n`` random playouts through the public API of ``game`` (the engine's by default)."""
    game = game or get_game("tictactoe")

    def chunk() -> int:
        for i in range(n):
            state = game.new_match(2, i)
            while not game.is_over(state):
                legal = game.legal_actions(state)
                state = game.apply(state, legal[rng.randrange(len(legal))])
        return n

    return chunk


def openspiel_playouts(n: int, rng: random.Random, persistent: bool) -> Callable[[], int]:
    import pyspiel

    game = pyspiel.load_game("tic_tac_toe")

    def in_place() -> int:
        for _ in range(n):
            state = game.new_initial_state()
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
        return n

    def with_child() -> int:
        for _ in range(n):
            state = game.new_initial_state()
            while not state.is_terminal():
                legal = state.legal_actions()
                state = state.child(legal[rng.randrange(len(legal))])
        return n

    return with_child if persistent else in_place


# ----- MENACE training -----
def menace_training(batch: int, opponent: str, table: dict[str, float] | None, seed: int) -> Callable[[], int]:
    trainer = BatchTrainer(TRAINING_CONFIG, table)
    rng = np.random.default_rng(seed)
    batches = max(1, min(2_000, 20_000 // batch))  # about 20,000 games, or 2,000 batches of small ones
    side = [0]

    def chunk() -> int:
        for _ in range(batches):
            trainer.train(batch, (X, O)[side[0] % 2], opponent, rng)
            side[0] += 1
        return batches * batch

    return chunk


def run(peers: bool, seconds: float, repeats: int, progress: Callable[[str], None]) -> tuple[list[Result], str]:
    rng = random.Random(1)
    rows = [Row("playouts, Parlour engine", "playouts/s", parlour_playouts(1000, rng), note="apply returns a new state")]
    peer_note = ""
    if peers:
        version, peer_note = peer("OpenSpiel", "open_spiel", "pyspiel")
        if version:
            rows += [Row(f"playouts, OpenSpiel {version}", "playouts/s", openspiel_playouts(1000, rng, persistent=False),
                         peer=True, note="apply_action, in place"),
                     Row(f"playouts, OpenSpiel {version} child()", "playouts/s",
                         openspiel_playouts(1000, rng, persistent=True), peer=True, note="new state per move, as ours")]
    trained = {k: float(v) for k, v in load_saved("tictactoe", "menace-trained")["values"].items()}
    for batch, opponent, table, note in [
        (1, "random", None, "= sequential MENACE"),
        (100, "random", None, "the default batch"),
        (100, "menace", None, "self-play"),
        (100, "perfect", trained, "from the shipped boxes"),
        (1000, "random", None, ""),
        (10_000, "random", None, ""),
    ]:
        rows.append(Row(f"MENACE, batch {batch:,}, vs {opponent}", "games/s",
                        menace_training(batch, opponent, table, seed=batch), note=note))
    results = measure_rows(rows, seconds, repeats, progress)
    return results, peer_note


def main(argv: list[str] | None = None, prog: str = "parlour bench tictactoe") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    parser.add_argument("--peers", action="store_true", help="also run OpenSpiel's Python API")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per run (default 1)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure, the best is kept (default 3)")
    coach_bench.add_option(parser)
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.repeats < 1:
        parser.error("--seconds must be positive and --repeats at least 1")
    console = Console(width=None if sys.stdout.isatty() else 104)  # a pipe gets the whole table
    err = Console(stderr=True)
    with err.status("benchmarking") as status:
        results, peer_note = run(args.peers, args.seconds, args.repeats,
                                 lambda what: status.update(f"benchmarking: {what}"))
    ours = results[0].per_cpu_second
    openspiel = next((r.per_cpu_second for r in results if r.peer), None)
    best_menace = max(r.per_cpu_second for r in results if r.unit == "games/s")
    default_menace = next(r.per_cpu_second for r in results if r.name.endswith("batch 100, vs random"))
    goals = {
        "menace_games_per_second": {"goal": MENACE_GOAL, "default_batch": round(default_menace),
                                    "best": round(best_menace), "met": default_menace >= MENACE_GOAL},
        "playouts_vs_openspiel": {"ours": round(ours), "openspiel": round(openspiel) if openspiel else None,
                                  "ratio": round(ours / openspiel, 3) if openspiel else None,
                                  "met": ours >= openspiel if openspiel else None},
    }
    review = coach_bench.measured("tictactoe", args.reviews)
    if args.json:
        rows = [{**asdict(r), "per_cpu_second": round(r.per_cpu_second),
                 "per_wall_second": round(r.per_wall_second)} for r in results]
        print(json.dumps({"coach": review, "machine": machine(), "seconds": args.seconds, "repeats": args.repeats,
                          "results": rows, "goals": goals,
                          "peer_note": peer_note or None}, indent=1))
        return 0
    table = Table(title=f"noughts and crosses, one core, best of {args.repeats} x {args.seconds:g} s of CPU")
    for column in ("work", "per CPU s", "per wall s", "note"):
        table.add_column(column, justify="right" if column.endswith(" s") else "left")
    for r in results:
        table.add_row(("[cyan]" if r.peer else "") + r.name, f"{r.per_cpu_second:,.0f}",
                      f"{r.per_wall_second:,.0f}", r.note)
    console.print(table)
    if peer_note:
        console.print(peer_note)
    verdict = "met" if default_menace >= MENACE_GOAL else "NOT met"
    console.print(f"goal MENACE training >= {MENACE_GOAL:,} games/s at the default batch: {verdict} "
                  f"({default_menace:,.0f}; best {best_menace:,.0f})")
    if openspiel:
        verdict = "met" if ours >= openspiel else "NOT met"
        console.print(f"goal random playouts >= OpenSpiel's Python API: {verdict} "
                      f"({ours:,.0f} vs {openspiel:,.0f} playouts/s, ratio {ours / openspiel:.2f})")
    console.print(machine_line())
    if review:
        console.print(coach_bench.line(review), soft_wrap=True)
    return 0
