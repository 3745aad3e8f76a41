"""``parlour train tictactoe menace``: train MENACE with the batched trainer and save it.

    parlour train tictactoe menace [--opponent menace,menace,perfect,perfect,random]
        [--games 2500000] [--seed 1] [--out agents/saved/tictactoe/menace-trained.json]
        [--batch 100] [--as x|o|both] [--initial-beads 32,16,8,4] [--incentives 3,1,-1]
        [--windows 100] [--evaluate 4000]

``--opponent`` is one opponent (``random``, ``perfect``, or ``menace``: self-play
from the same boxes, both sides learning) or a comma-separated schedule played in
order, the games split equally between the names; neighbouring equal names merge
into one phase, so repeating a name gives it more games.

**Both sides.** The saved table holds MENACE's boxes as X (304) and as O (289).
With ``--as both`` (the default) batches alternate: MENACE plays X in one batch and
O in the next, so one run trains both sets of boxes (they never share a key).
With ``--as x`` or ``--as o`` only that side learns (except in self-play, where
MENACE is both players) and the other side's boxes keep their initial beads.

**The defaults are the shipped agent's recipe**, so the bare command rebuilds it:

- self-play first: both sides learn sound play from scratch (a beginner facing
  Perfect loses so often that its first box empties and it refuses to play);
- then Perfect: a move that loses against best play loses every time it is drawn,
  so its beads drain, and a colour at 0 is never drawn again;
- then Random: among the moves left, those that win against mistakes gain beads.
- 32/16/8/4 initial beads, not Michie's 4/3/2/1 (which the beginner agent keeps):
  with 4/3/2/1, O's box for the reply to a centre opening (8 beads) often empties
  early in training, during self-play or against Random alike, and an empty box
  never refills: the trained O then resigns to every centre opening (about 11% of
  its games against Perfect, in about half of the seeds tried).

The learning curve (win/draw/loss counts per window of games, from MENACE's side)
is kept in the file's metadata with the command, seed, date and timing, and drawn
as an SVG line chart beside the agent (same name, ``.svg``). With ``--evaluate N``
(default 4000; 0 skips it) the table is then played by the real agent,
``agents.tictactoe.menace.Menace`` (the live MENACE built from this table), in
``agents.tournament.run`` against Random and against Perfect, N games each with
seats alternating, and the result is stored as ``meta.strength``.
"""
from __future__ import annotations

import argparse
import datetime as dt
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from agents.saved_files import saved_path, write_saved
from agents.tictactoe.menace import MenaceConfig
from agents.training.menace_batch import O, OPPONENTS, X, BatchTrainer

SIDES = {"x": (X,), "o": (O,), "both": (X, O)}
DEFAULT_SCHEDULE = "menace,menace,perfect,perfect,random"


def parse_counts(text: str, what: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{what} is a comma-separated list of integers, e.g. 4,3,2,1") from None


def parse_schedule(text: str) -> list[str]:
    phases = [p.strip() for p in text.split(",")]
    unknown = [p for p in phases if p not in OPPONENTS]
    if unknown or not phases:
        raise argparse.ArgumentTypeError(
            f"opponents are {', '.join(OPPONENTS)} (or a comma-separated schedule of them), got {text!r}")
    return phases


def build_parser(prog: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--opponent", type=parse_schedule, default=parse_schedule(DEFAULT_SCHEDULE),
                   help=f"random|perfect|menace or a schedule such as {DEFAULT_SCHEDULE} (the default)")
    p.add_argument("--games", type=int, default=2_500_000, help="training games in all (default 2,500,000)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", type=Path, default=saved_path("tictactoe", "menace-trained"))
    p.add_argument("--batch", type=int, default=100,
                   help="games played from one snapshot of the boxes before learning (1 = sequential MENACE)")
    p.add_argument("--as", dest="side", choices=list(SIDES), default="both", help="the side MENACE learns")
    p.add_argument("--initial-beads", type=lambda t: parse_counts(t, "--initial-beads"), default=(32, 16, 8, 4),
                   help="beads per colour for MENACE's moves 1-4 (default 32,16,8,4; Michie's: 4,3,2,1)")
    p.add_argument("--incentives", type=lambda t: parse_counts(t, "--incentives"), default=(3, 1, -1),
                   help="beads added for a win, a draw, a loss (default 3,1,-1)")
    p.add_argument("--windows", type=int, default=100, help="points of the learning curve")
    p.add_argument("--evaluate", type=int, default=4000, metavar="N",
                   help="games against Random and against Perfect played by the saved table afterwards (0: skip)")
    return p


# ----- training -----
class Refused(RuntimeError):
    """MENACE's first box (as X) is empty: it refuses to play until reset (docs/rules.md)."""


@dataclass(frozen=True)
class Phase:
    """Games ``start`` to ``end`` (exclusive) of a run, all against ``opponent``."""

    opponent: str
    start: int
    end: int


def schedule(opponents: list[str], games: int) -> list[Phase]:
    """The games split equally between the named opponents, in order; neighbours with
    the same name merge into one phase (so ``menace,menace,perfect`` is 2/3 self-play)."""
    edges = [games * k // len(opponents) for k in range(len(opponents) + 1)]
    phases: list[Phase] = []
    for name, start, end in zip(opponents, edges, edges[1:]):
        if phases and phases[-1].opponent == name:
            phases[-1] = Phase(name, phases[-1].start, end)
        elif end > start:
            phases.append(Phase(name, start, end))
    return phases


def train(trainer: BatchTrainer, phases: list[Phase], batch: int, sides: tuple[int, ...],
          rng: np.random.Generator, on_batch=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play every phase in batches; returns per game MENACE's outcome (1 win, 0 draw,
    -1 loss), its mark, and whether it resigned. ``on_batch(phase, games so far, outcomes)``
    is called after each batch. Raises ``Refused`` when MENACE would have to play X
    with an empty first box."""
    games = phases[-1].end
    outcome = np.zeros(games, dtype=np.int8)
    mark = np.zeros(games, dtype=np.int8)
    resigned = np.zeros(games, dtype=bool)
    k = 0
    for phase in phases:
        done = phase.start
        while done < phase.end:
            side = sides[k % len(sides)]
            if (side == X or phase.opponent == "menace") and trainer.refuses():
                raise Refused(f"MENACE's first box is empty after {done:,} games: it refuses to play "
                              "(try more --initial-beads, or an easier opponent first)")
            n = min(batch, phase.end - done)
            result = trainer.train(n, side, phase.opponent, rng)
            outcome[done:done + n] = result.outcomes()
            mark[done:done + n] = side
            resigned[done:done + n] = result.resigned == side
            done += n
            k += 1
            if on_batch is not None:
                on_batch(phase, done, outcome[done - n:done])
    return outcome, mark, resigned


def learning_curve(phases: list[Phase], outcome: np.ndarray, mark: np.ndarray, resigned: np.ndarray,
                   windows: int) -> dict:
    """{"window", "games", "windows": [{"games", "end", "opponent", "win", "draw", "loss",
    "resigned", "as_x", "as_o"}]}: counts per window from MENACE's side (``as_x``/``as_o``:
    the same for the games it played as X / as O, or null). Windows are about equal in
    size and never straddle two phases."""
    total = len(outcome)
    out = []

    def counts(o: np.ndarray) -> dict:
        return {"win": int((o == 1).sum()), "draw": int((o == 0).sum()), "loss": int((o == -1).sum())}

    for phase in phases:
        size = phase.end - phase.start
        n = min(size, max(1, round(windows * size / total)))
        edges = np.linspace(phase.start, phase.end, n + 1).astype(int)
        for a, b in zip(edges[:-1], edges[1:]):
            o, m = outcome[a:b], mark[a:b]
            out.append({"games": int(b - a), "end": int(b), "opponent": phase.opponent, **counts(o),
                        "resigned": int(resigned[a:b].sum()),
                        "as_x": counts(o[m == X]) if (m == X).any() else None,
                        "as_o": counts(o[m == O]) if (m == O).any() else None})
    return {"window": round(total / len(out)), "games": total, "windows": out}


# ----- the chart -----
def curve_svg(curve: dict, title: str) -> str:
    """A line chart of win/draw/loss share per window, phases marked, as SVG text."""
    width, height = 760, 400
    left, right, top, bottom = 56, 20, 52, 66
    plot_w, plot_h = width - left - right, height - top - bottom
    total = max(1, curve["games"])
    windows = curve["windows"]

    def x(games: float) -> float:
        return left + plot_w * games / total

    def y(share: float) -> float:
        return top + plot_h * (1 - share)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{left}" y="22" font-size="15" font-weight="bold">{escape(title)}</text>',
    ]
    for share in (0, 0.25, 0.5, 0.75, 1):
        parts.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y(share):.1f}" y2="{y(share):.1f}" '
                     f'stroke="#ddd"/>')
        parts.append(f'<text x="{left - 6}" y="{y(share) + 4:.1f}" text-anchor="end">{share:.0%}</text>')
    for k in range(6):
        games = total * k / 5
        parts.append(f'<text x="{x(games):.1f}" y="{top + plot_h + 18}" text-anchor="middle">'
                     f'{short_number(games)}</text>')
    parts.append(f'<text x="{left + plot_w / 2}" y="{top + plot_h + 36}" text-anchor="middle">training games</text>')
    previous = None
    for w in windows:
        if w["opponent"] != previous:
            start = w["end"] - w["games"]
            if start > 0:
                parts.append(f'<line x1="{x(start):.1f}" x2="{x(start):.1f}" y1="{top}" y2="{top + plot_h}" '
                             'stroke="#888" stroke-dasharray="4 3"/>')
            parts.append(f'<text x="{x(start) + 4:.1f}" y="{top - 6}" fill="#555">vs {w["opponent"]}</text>')
            previous = w["opponent"]
    for key, colour in (("win", "#1a7f37"), ("draw", "#c9a227"), ("loss", "#b3261e")):
        points = " ".join(f"{x(w['end'] - w['games'] / 2):.1f},{y(w[key] / w['games']):.1f}"
                          for w in windows if w["games"])
        parts.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"/>')
    for n, (key, colour) in enumerate((("win", "#1a7f37"), ("draw", "#c9a227"), ("loss", "#b3261e"))):
        lx = left + 65 * n
        parts.append(f'<line x1="{lx}" x2="{lx + 18}" y1="{height - 14}" y2="{height - 14}" stroke="{colour}" '
                     'stroke-width="3"/>')
        parts.append(f'<text x="{lx + 22}" y="{height - 10}">{key}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def short_number(n: float) -> str:
    if n >= 1e6:
        return f"{n / 1e6:g}M"
    if n >= 1e3:
        return f"{n / 1e3:g}k"
    return f"{n:g}"


# ----- evaluation with the real agent -----
def evaluate(table: dict[str, float], games: int, seed: int) -> dict:
    """The table played by ``Menace`` (as the live MENACE built from it) in agents.tournament.run,
    against Random and against Perfect, seats alternating: win/draw/loss shares with errors."""
    from agents.tournament import run

    out = {}
    for reference in ("random", "perfect"):
        result = run("tictactoe", ["menace-live", reference], games, seed=seed, values={"menace-live": table})
        s = result.stats[0]
        by_seat = s.to_json()["seat_win_share"]
        shares = {"win": s.win_share, "win_se": s.win_se, "draw": s.draws / s.games,
                  "loss": 1 - s.win_share - s.draws / s.games, "win_as_x": by_seat[0], "win_as_o": by_seat[1]}
        out[reference] = {"games": s.games, **{k: round(v, 6) for k, v in shares.items()}}
    return out


def main(argv: list[str] | None = None, prog: str = "parlour train tictactoe menace") -> int:
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    try:
        config = MenaceConfig.from_options({"initial_beads": args.initial_beads, "incentives": args.incentives})
    except ValueError as err:
        parser.error(str(err))
    if args.games < len(args.opponent):
        parser.error(f"--games must be at least the number of phases ({len(args.opponent)})")
    phases = schedule(args.opponent, args.games)
    if args.batch < 1 or args.windows < 1 or args.evaluate < 0:
        parser.error("--batch and --windows must be at least 1, --evaluate at least 0")
    console = Console(stderr=True)
    trainer = BatchTrainer(config)
    rng = np.random.default_rng(args.seed)
    command = shlex.join([*prog.split(), *(argv if argv is not None else sys.argv[1:])])

    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[record]}"), TimeElapsedColumn(), TimeRemainingColumn())
    try:
        with Progress(*columns, console=console, refresh_per_second=8) as progress:
            task = progress.add_task("MENACE", total=args.games, record="")
            last = [0.0]

            def on_batch(phase: Phase, played: int, outcomes: np.ndarray) -> None:
                now = time.perf_counter()
                if now - last[0] < 0.1:
                    return
                last[0] = now
                record = (f"win {np.mean(outcomes == 1):4.0%} draw {np.mean(outcomes == 0):4.0%} "
                          f"loss {np.mean(outcomes == -1):4.0%}")
                progress.update(task, completed=played, record=record,
                                description=f"vs {phase.opponent} ({phases.index(phase) + 1}/{len(phases)})")

            started, cpu_started = time.perf_counter(), time.process_time()
            outcome, mark, resigned = train(trainer, phases, args.batch, SIDES[args.side], rng, on_batch)
            seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu_started
            progress.update(task, completed=args.games, description="done")
    except Refused as err:
        console.print(f"[red]{err}[/red]; nothing saved")
        return 1

    table = trainer.table()
    curve = learning_curve(phases, outcome, mark, resigned, args.windows)
    meta = {
        "command": command,
        "seed": args.seed,
        "games": args.games,
        "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "seconds": round(seconds, 3),
        "cpu_seconds": round(cpu_seconds, 3),
        "games_per_second": round(args.games / seconds),
        "phases": [{"opponent": p.opponent, "games": p.end - p.start} for p in phases],
        "batch": args.batch,
        "as": args.side,
        "initial_beads": list(config.initial_beads),
        "incentives": list(config.incentives),
        "merge_symmetric": config.merge_symmetric,
        "trainer": "agents.training.menace_batch (numpy; a batch draws from one snapshot of the boxes)",
        "curve": curve,
    }
    console.print(f"trained {args.games:,} games in {seconds:.1f} s, {cpu_seconds:.1f} s of CPU "
                  f"({args.games / seconds:,.0f} games/s)")
    if args.evaluate:
        console.print(f"evaluating the saved table with agents.tictactoe.menace.Menace: "
                      f"{args.evaluate:,} games against Random and against Perfect ...")
        meta["strength"] = evaluate(table, args.evaluate, args.seed)
        meta["strength_command"] = ("agents.tournament.run('tictactoe', ['menace-live', REF], "
                                    f"{args.evaluate}, seed={args.seed}, values={{'menace-live': table}})")
        show_strength(console, meta["strength"])
    out = write_saved(args.out, {"meta": meta, "values": table})
    svg = out.with_suffix(".svg")
    against = ", then ".join(p.opponent for p in phases)
    svg.write_text(curve_svg(curve, f"MENACE learning: vs {against} ({short_number(args.games)} games)"))
    console.print(f"saved {out} and {svg}")
    return 0


def show_strength(console: Console, strength: dict) -> None:
    table = Table(title="MENACE (this table, pure-Python agent) against references")
    for column in ("against", "games", "win", "draw", "loss", "win as X", "win as O"):
        table.add_column(column, justify="right" if column != "against" else "left")
    for reference, s in strength.items():
        table.add_row(reference, f"{s['games']:,}", f"{s['win']:.1%} ± {s['win_se']:.1%}", f"{s['draw']:.1%}",
                      f"{s['loss']:.1%}", f"{s['win_as_x']:.1%}", f"{s['win_as_o']:.1%}")
    console.print(table)
