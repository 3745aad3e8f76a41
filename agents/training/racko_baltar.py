"""``parlour train racko baltar``: train Baltar's Q-tables against Random, keep the good ones.

    parlour train racko baltar [--rack-size 5] [--players 2] [--max-card 0] [--games 1000]
        [--keep 20] [--threshold 0.70] [--test-games 2001] [--max-attempts 200]
        [--seconds 540] [--cpu-seconds S] [--explore tries|updates] [--seed 1]
        [--out agents/saved/racko/baltar.json]

As the write-up's code does: each attempt trains a fresh pair of tables for
``--games`` deals against Random (Baltar picks the action it has tried least, or
with ``--explore updates`` the public code's least *updated* one, ties to the first;
updates as ``agents.racko.baltar`` says, forced random moves on), then plays
``--test-games`` deals greedily against Random; the tables are kept when they win
more than ``--threshold`` of those deals, and that rate is their vote weight.
Attempts go on until ``--keep`` tables are kept (or ``--max-attempts`` /
``--seconds`` run out). Seats alternate deal by deal. Written: baltar.npz (the
kept tables: the first is the single ``baltar``, all of them vote as
``baltar-ensemble``), baltar.json (metadata, every attempt's rate), baltar.svg.
"""
from __future__ import annotations

import argparse
import datetime as dt
import random
import shlex
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from agents.racko.arena import RandomDecider, play_deal
from agents.racko.baltar import EXPLORATIONS, BaltarDecider, Learner, QTables, save_tables
from agents.saved_files import saved_path, write_saved
from agents.training.yaniv_plot import Panel, line_charts
from engine.racko import Rules


def rules_of(args) -> Rules:
    return Rules(args.rack_size, args.max_card or (args.players + 2) * args.rack_size, args.max_turns)


def seated(i: int, me, others: list) -> tuple[list, int]:
    """Deal ``i``'s seating: Baltar moves one seat on every deal."""
    players = [me, *others]
    shift = i % len(players)
    return players[shift:] + players[:shift], (-shift) % len(players)


def train_tables(rules: Rules, players: int, games: int, seed: int, least: str = "tries") -> QTables:
    tables = QTables(rules.rack_size)
    learner = Learner(tables, explore=True, least=least)
    rng = random.Random(f"baltar:{seed}")
    for i in range(games):
        deciders, me = seated(i, learner, [RandomDecider() for _ in range(players - 1)])
        t = play_deal(rules, seed * 1_000_003 + i, deciders, rng)
        learner.finish(None if t.winner < 0 else t.winner == me)
    return tables


def test_tables(members, rules: Rules, players: int, games: int, seed: int) -> tuple[float, float]:
    """Greedy against Random: (share of deals won, moves per game)."""
    baltar = BaltarDecider(members)
    rng = random.Random(f"baltar-test:{seed}")
    wins = moves = 0
    for i in range(games):
        deciders, me = seated(i, baltar, [RandomDecider() for _ in range(players - 1)])
        t = play_deal(rules, 555_000_000 + seed * 10_007 + i, deciders, rng)
        wins += t.winner == me
        moves += t.turns[me]
    return wins / games, moves / games


def build_parser(prog: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rack-size", type=int, default=5)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--max-card", type=int, default=0, help="0: (players + 2) * rack size")
    p.add_argument("--max-turns", type=int, default=1500)
    p.add_argument("--games", type=int, default=1000, help="training deals per attempt")
    p.add_argument("--keep", type=int, default=20, help="tables to keep")
    p.add_argument("--threshold", type=float, default=0.70)
    p.add_argument("--test-games", type=int, default=2001)
    p.add_argument("--max-attempts", type=int, default=200)
    p.add_argument("--seconds", type=float, default=540, help="stop starting attempts after this long (wall clock)")
    p.add_argument("--cpu-seconds", type=float, default=float("inf"),
                   help="stop starting attempts once training has used this many CPU seconds")
    p.add_argument("--explore", choices=EXPLORATIONS, default="tries",
                   help="training picks the least tried action (ties at random) or, as the public code, the "
                        "least updated one (ties to the first)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", type=Path, default=None, help="default agents/saved/racko/baltar[-rN].json")
    return p


def default_name(rack_size: int) -> str:
    return "baltar" if rack_size == 5 else f"baltar-r{rack_size}"


def main(argv: list[str] | None = None, prog: str = "parlour train racko baltar") -> int:
    args = build_parser(prog).parse_args(argv)
    if args.games < 1 or args.test_games < 1 or args.keep < 1:
        raise SystemExit("--games, --test-games and --keep must be at least 1")
    rules = rules_of(args)
    out = args.out or saved_path("racko", default_name(args.rack_size))
    command = ("parlour train racko baltar " + shlex.join(sys.argv[1:] if argv is None else argv)).strip()
    console = Console()
    started, cpu_started = time.perf_counter(), time.process_time()
    kept: list[tuple[QTables, float]] = []
    attempts: list[dict] = []
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console) as progress:
        task = progress.add_task("Baltar tables kept", total=args.keep)
        for attempt in range(args.max_attempts):
            if (len(kept) >= args.keep or time.perf_counter() - started > args.seconds
                    or time.process_time() - cpu_started > args.cpu_seconds):
                break
            seed = args.seed * 100_000 + attempt
            tables = train_tables(rules, args.players, args.games, seed, args.explore)
            rate, moves = test_tables([(tables, 1.0)], rules, args.players, args.test_games, seed)
            keep = rate > args.threshold
            attempts.append({"attempt": attempt + 1, "win_rate": rate, "moves_per_game": moves, "kept": keep,
                             "seconds": round(time.perf_counter() - started, 1)})
            if keep:
                kept.append((tables, rate))
                progress.advance(task)
            progress.update(task, description=f"Baltar tables kept (attempt {attempt + 1}: {rate:.3f})")
            progress.console.print(f"attempt {attempt + 1}: {rate:.3f} of {args.test_games} deals won against "
                                   f"Random, {moves:.1f} moves per game: {'kept' if keep else 'not kept'}")
    seconds = time.perf_counter() - started
    if not kept:
        raise SystemExit(f"no table won more than {args.threshold:.0%} of its test deals in {len(attempts)} attempts "
                         f"({time.process_time() - cpu_started:.0f} CPU s); nothing saved")
    ensemble_rate, ensemble_moves = test_tables(kept, rules, args.players, args.test_games, args.seed + 99)
    meta = {
        "command": command, "seed": args.seed, "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "rules": rules.to_json(), "players": args.players, "games_per_attempt": args.games,
        "explore": args.explore,
        "threshold": args.threshold, "test_games": args.test_games, "kept": len(kept),
        "weights": [w for _, w in kept], "attempts": attempts,
        "claims": {"single_vs_random": kept[0][1], "ensemble_vs_random": ensemble_rate,
                   "ensemble_moves_per_game": ensemble_moves},
        "timing": {"seconds": round(seconds, 1), "cpu_seconds": round(time.process_time() - cpu_started, 1)}, "values_file": out.with_suffix(".npz").name,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    save_tables(out.with_suffix(".npz"), kept)
    write_saved(out, {"meta": meta})
    xs = [a["attempt"] for a in attempts]
    svg = out.with_suffix(".svg")
    svg.write_text(line_charts([
        Panel("each attempt vs Random", "share of deals won", [
            ("attempt", xs, [a["win_rate"] for a in attempts]),
            (f"threshold {args.threshold:g}", xs, [args.threshold] * len(xs))], x_label="attempt")],
        f"Baltar: {command}", panel_width=420))
    console.print(f"kept {len(kept)} of {len(attempts)} tables (rates {min(w for _, w in kept):.3f}.."
                  f"{max(w for _, w in kept):.3f}); the ensemble wins {ensemble_rate:.3f} against Random; "
                  f"{seconds:.0f} s; saved {out}, {out.with_suffix('.npz')}, {svg}")
    return 0
