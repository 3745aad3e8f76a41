"""``parlour train uno perceptron``: evolve an Uno perceptron with a genetic algorithm.

    parlour train uno perceptron [--form linear|step|hidden] [--generations 60]
        [--population 32] [--games 300] [--fitness games|deals] [--players 4] [--heuristic-share 0.5]
        [--heuristics random,offensive,defensive,betteroffensive] [--table] [--points] [--mutation-rate 0.1]
        [--mutation-scale 0.3] [--seed 1] [--workers 2] [--yardstick 600]
        [--validate 4000] [--init FILE] [--out agents/saved/uno/perceptron-FORM.json]

The genome is the perceptron's flat weight vector (``agents.uno.perceptron``),
drawn N(0, 1) at the start (the step form's bias N(2, 1): it starts rating nearly
every card worth playing and learns which to hold back; from a bias around 0 it
rates half the cards, at random, not worth playing and the search barely moves,
since flipping one card rarely changes a deal). Each generation:

1. **Fitness** (a tournament): every individual plays the same ``--games`` games
   of ``--players``-player Uno (common random numbers: the same decks, the same seat
   and the same opponents for every individual in game k), each opponent one of
   ``--heuristics`` (with probability ``--heuristic-share``) or a member of the
   population, so individuals meet the write-up's players and each other.
   With ``--table`` the opponents are instead the ``--heuristics`` themselves, one seat
   each, in a shuffled order (a table of the write-up's: ``--players`` is one more than
   their number), and the yardstick and the validation below play that same table.
   Fitness = the share of games won. A game is, by default, a whole game to 500
   (``--fitness games``: what the write-up's GA counted and what a person plays:
   it rewards holding few points when another player goes out), or a single deal
   (``--fitness deals``: what the first shipped perceptrons were trained on).
2. **Selection and crossover** (a microbial tournament): the population is paired
   at random; in each pair the fitter individual (the winner) is kept and the
   loser gets a random contiguous range of the winner's weights copied over its own.
3. **Mutation**: each of the loser's weights, with probability ``--mutation-rate``,
   gets Gaussian noise of standard deviation ``--mutation-scale``.

Winners survive unchanged, so the best individual is never lost to noise. The
learning curve stores per generation the best and mean fitness and, as a fixed
yardstick, the best individual's win share in ``--yardstick`` games (the same
every generation, in the fitness unit) against Offensive, BetterOffensive and
Defensive (or the ``--table``). At the end, the five fittest individuals play
``--validate`` such games and the best is saved, with the command, seed, timing
and curve in its metadata, and the curve drawn beside it as an SVG.

With ``--points`` (linear form only) the genome has one more gene, the weight of a
coloured card's points (halved: an action card 10, a 9 4.5; a wild 0, its own weight
deciding) added to each card's own weight: one gene moves every coloured card in the
direction that sheds points, which whole games reward and one-card weights find only one
card at a time. A point is worth half a starting weight's standard deviation, so from
the start the gene can outweigh the card's own weight. The saved perceptron holds the
sum, 54 weights, so it plays as any linear one.

The population starts from N(0, 1) weights, or with ``--init FILE`` from a saved
perceptron of the same form: one exact copy, the rest with N(0, --mutation-scale)
noise on every weight (the points gene, not in the file, starts N(0, 1); the copy's 0).

Fitness is computed in a process pool of ``--workers`` processes, on the rules
table directly (``agents.uno.arena``: the same games the tournament would play).
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import resource
import random
import shlex
import sys
import time
from typing import Callable
from xml.sax.saxutils import escape
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from agents.saved_files import saved_path, write_saved
from agents.uno.arena import GAME, play_deal
from agents.uno.heuristics import BetterOffensive, Defensive, Offensive, RandomPlayer
from agents.uno.play import CardPlayer
from agents.uno.perceptron import FORMS, ScoredPlayer, card_scores, genome_size, saved_name
from engine.base import chance
from engine.uno.cards import COLOURED, DISTINCT, POINTS_OF
from engine.uno.rules import Table

HEURISTICS: dict[str, CardPlayer] = {p.name: p for p in (RandomPlayer(), Offensive(), Defensive(), BetterOffensive())}
STEP_BIAS = 2.0  # the step form's bias starts here: nearly every card starts rated "play it"
YARDSTICK = (Offensive(), BetterOffensive(), Defensive())


def build_parser(prog: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--form", choices=FORMS, default="linear")
    p.add_argument("--generations", type=int, default=60)
    p.add_argument("--population", type=int, default=32, help="an even number of individuals")
    p.add_argument("--games", type=int, default=300, help="games (or deals) per individual per generation")
    p.add_argument("--fitness", choices=("games", "deals"), default="games",
                   help="count whole games to 500 (the write-up's) or single deals")
    p.add_argument("--players", type=int, default=4, help="seats per deal (2-10)")
    p.add_argument("--heuristic-share", type=float, default=0.5,
                   help="chance that an opponent seat holds a heuristic rather than a population member")
    p.add_argument("--heuristics", type=lambda text: text.split(","), default=list(HEURISTICS),
                   help="the heuristics an opponent seat may hold, comma-separated (default: all four)")
    p.add_argument("--table", action="store_true",
                   help="every game seats the --heuristics once each (shuffled), no population member")
    p.add_argument("--points", action="store_true",
                   help="linear form: one more gene, the weight of a coloured card's points added to its weight")
    p.add_argument("--mutation-rate", type=float, default=0.1)
    p.add_argument("--mutation-scale", type=float, default=0.3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--yardstick", type=int, default=600, help="games per generation for the fixed yardstick")
    p.add_argument("--validate", type=int, default=4000, help="games for each of the five finalists")
    p.add_argument("--init", type=Path, help="start from this saved perceptron (same form) instead of N(0, 1)")
    p.add_argument("--out", type=Path, help="default agents/saved/uno/perceptron-FORM.json")
    return p


# ----- playing (runs in worker processes) -----
def shares_on_same_games(tables: list[list[float]], opponents: Callable[[int], list[CardPlayer]], games: int,
                         players: int, seed: int, label: str, whole: bool) -> list[float]:
    """Each table's share of ``games`` won (whole games to 500 if ``whole``, else single deals),
    every table playing the very same games: game k's decks, seat (k mod players), opponents
    (``opponents(k)``) and play randomness derive from ``seed``, ``label`` and k only (common
    random numbers). A whole game's winner is the winner of its last deal (who reached 500)."""
    me = [ScoredPlayer(t) for t in tables]
    rules = GAME.rules(players, None)
    wins = [0] * len(me)
    for k in range(games):
        seat = k % players
        others = opponents(k)
        game_seed = chance(seed, label, k).getrandbits(48)
        for i, candidate in enumerate(me):
            seats = others[:seat] + [candidate] + others[seat:]
            table = Table.new(players, game_seed, rules, single=not whole)
            play_deal(table, seats, random.Random(f"{seed}:{label}:{k}:play"))
            wins[i] += table.winner == seat
    return [w / games for w in wins]


def win_shares(candidates: list[list[float]], population: list[list[float]], heuristic_share: float,
               heuristics: list[str], games: int, players: int, seed: int, label: str,
               whole: bool = True) -> list[float]:
    """The fitness: each candidate's share of the same ``games`` won, where each opponent is,
    with probability ``heuristic_share``, one of ``heuristics`` (names), else a member of
    ``population`` (score tables), drawn uniformly."""
    members = [ScoredPlayer(t) for t in population]
    rivals = [HEURISTICS[name] for name in heuristics]

    def opponents(k: int) -> list[CardPlayer]:
        pick = random.Random(f"{seed}:{label}:{k}")
        return [rivals[pick.randrange(len(rivals))] if pick.random() < heuristic_share
                else members[pick.randrange(len(members))] for _ in range(players - 1)]

    return shares_on_same_games(candidates, opponents, games, players, seed, label, whole)


def table_shares(candidates: list[list[float]], heuristics: list[str], games: int, seed: int, label: str,
                 whole: bool = True) -> list[float]:
    """Each candidate's share of the same ``games`` won at a table of ``heuristics``, one seat
    each, their order shuffled game by game."""
    rivals = [HEURISTICS[name] for name in heuristics]

    def opponents(k: int) -> list[CardPlayer]:
        order = rivals.copy()
        random.Random(f"{seed}:{label}:{k}").shuffle(order)
        return order

    return shares_on_same_games(candidates, opponents, games, len(rivals) + 1, seed, label, whole)


def yardstick_share(tables: list[list[float]], games: int, players: int, seed: int, label: str,
                    whole: bool = True) -> list[float]:
    """Win shares against Offensive, BetterOffensive and Defensive (seats rotating)."""
    return shares_on_same_games(tables, lambda k: [YARDSTICK[(k + j) % len(YARDSTICK)] for j in range(players - 1)],
                                games, players, seed, label, whole)


def in_parallel(executor: Executor | None, fn, tables: list[list[float]], *args) -> list[float]:
    """``fn(tables, *args)`` split over the executor's workers (or here without one)."""
    if executor is None or len(tables) < 2:
        return fn(tables, *args)
    parts = 2 * getattr(executor, "_max_workers", 2)
    size = -(-len(tables) // parts)
    futures = [executor.submit(fn, tables[i:i + size], *args) for i in range(0, len(tables), size)]
    return [share for f in futures for share in f.result()]


def load_saved_file(path: Path) -> dict:
    return json.loads(Path(path).read_text())


def curve_svg(curve: list[dict], title: str) -> str:
    """The learning curve as an SVG line chart: best and mean fitness, and the yardstick."""
    width, height, left, top, bottom = 640, 300, 50, 30, 40
    last = max(1, len(curve) - 1)
    values = [p[k] for p in curve for k in ("best", "mean", "yardstick")]
    low, high = min(values) - 0.01, max(values) + 0.01

    def xy(i: int, v: float) -> str:
        x = left + (width - left - 10) * i / last
        y = top + (height - top - bottom) * (high - v) / (high - low)
        return f"{x:.1f},{y:.1f}"

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
             f'height="{height}" font-family="sans-serif" font-size="12">',
             f'<text x="{left}" y="18">{escape(title)}</text>',
             f'<text x="{left}" y="{height - 8}">generation 0 to {last}; win share from {low:.2f} to {high:.2f}</text>']
    for key, colour in (("best", "#1f5f45"), ("mean", "#999999"), ("yardstick", "#b3261e")):
        points = " ".join(xy(i, p[key]) for i, p in enumerate(curve))
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{points}"/>')
        parts.append(f'<text x="{width - 90}" y="{top + 15 * ("best", "mean", "yardstick").index(key)}" '
                     f'fill="{colour}">{key}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


# ----- evolving -----
POINT_SCALE = 2.0  # the --points gene multiplies a coloured card's points / 2
COLOURED_POINTS = np.array([POINTS_OF[c] if c < COLOURED else 0 for c in range(DISTINCT)], dtype=float)


def weights_of(args, genome: np.ndarray) -> np.ndarray:
    """The perceptron's weights for ``genome``: with ``--points`` its last gene times each
    coloured card's points is folded into the card's weight."""
    if not args.points:
        return genome
    return genome[:-1] + genome[-1] * COLOURED_POINTS / POINT_SCALE


def breed(population: np.ndarray, fitness: list[float], rate: float, scale: float,
          rng: np.random.Generator) -> np.ndarray:
    """One microbial tournament round: random pairs, the loser takes a random range of the
    winner's weights and is mutated. Returns the new population (the argument is kept)."""
    pop = population.copy()
    size = pop.shape[1]
    order = rng.permutation(len(pop))
    for a, b in zip(order[0::2], order[1::2]):
        winner, loser = (a, b) if fitness[a] >= fitness[b] else (b, a)
        start, end = sorted(rng.integers(0, size + 1, 2))
        pop[loser, start:max(end, start + 1)] = pop[winner, start:max(end, start + 1)]
        mutate = rng.random(size) < rate
        pop[loser] += mutate * rng.normal(0.0, scale, size)
    return pop


def evolve(args, executor: Executor | None, on_generation=None) -> tuple[np.ndarray, list[dict], list[float]]:
    """Run the generations; returns the last population, the curve and its fitness."""
    rng = np.random.default_rng(args.seed)
    whole = args.fitness == "games"
    if args.init is not None:
        start = np.asarray(load_saved_file(args.init)["weights"] + [0.0] * args.points, dtype=float)
        population = start + rng.normal(0.0, args.mutation_scale, (args.population, start.size))
        if args.points:
            population[:, -1] = rng.normal(0.0, 1.0, args.population)
        population[0] = start
    else:
        population = rng.normal(0.0, 1.0, (args.population, genome_size(args.form) + args.points))
        if args.form == "step":
            population[:, -1] += STEP_BIAS
    curve: list[dict] = []
    fitness: list[float] = []
    for generation in range(args.generations + 1):
        tables = [card_scores(args.form, weights_of(args, w)).tolist() for w in population]
        label = f"generation:{generation}"
        if args.table:
            fitness = in_parallel(executor, table_shares, tables, args.heuristics, args.games, args.seed, label, whole)
        else:
            fitness = in_parallel(executor, win_shares, tables, tables, args.heuristic_share, args.heuristics,
                                  args.games, args.players, args.seed, label, whole)
        best = int(np.argmax(fitness))
        yard = yardstick(args, [tables[best]], args.yardstick, "yardstick", None)[0]
        curve.append({"generation": generation, "best": round(max(fitness), 4),
                      "mean": round(float(np.mean(fitness)), 4), "yardstick": round(yard, 4)})
        if on_generation is not None:
            on_generation(curve[-1])
        if generation < args.generations:
            population = breed(population, fitness, args.mutation_rate, args.mutation_scale, rng)
    return population, curve, fitness


def yardstick(args, tables: list[list[float]], games: int, label: str, executor: Executor | None) -> list[float]:
    """Win shares in ``games`` against the fixed yardstick: Offensive, BetterOffensive and
    Defensive, or with ``--table`` the table itself."""
    whole = args.fitness == "games"
    if args.table:
        return in_parallel(executor, table_shares, tables, args.heuristics, games, args.seed, label, whole)
    return in_parallel(executor, yardstick_share, tables, games, args.players, args.seed, label, whole)


def main(argv: list[str] | None = None, prog: str = "parlour train uno perceptron") -> int:
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    if args.population < 2 or args.population % 2 or args.generations < 0 or args.games < 1:
        parser.error("--population must be even and at least 2; --generations >= 0; --games >= 1")
    if not set(args.heuristics) <= set(HEURISTICS) or not args.heuristics:
        parser.error(f"--heuristics: comma-separated names among {', '.join(HEURISTICS)}")
    if not 2 <= args.players <= 10 or args.workers < 0 or not 0 <= args.heuristic_share <= 1:
        parser.error("--players is 2 to 10; --workers at least 0; --heuristic-share 0 to 1")
    if args.points and args.form != "linear":
        parser.error("--points is for the linear form")
    if args.table and args.players != len(args.heuristics) + 1:
        parser.error(f"--table seats each of --heuristics once: --players must be {len(args.heuristics) + 1}")
    out = args.out or saved_path("uno", saved_name(args.form))
    unit = "whole games to 500" if args.fitness == "games" else "single deals"
    if args.init is not None:
        init = load_saved_file(args.init)
        if init.get("form") != args.form:
            parser.error(f"--init {args.init}: a {init.get('form')} perceptron, not {args.form}")
    console = Console(stderr=True)
    command = shlex.join([*prog.split(), *(argv if argv is not None else sys.argv[1:])])
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[record]}"), TimeElapsedColumn(), TimeRemainingColumn())
    started = time.perf_counter()
    executor = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    try:
        with Progress(*columns, console=console, refresh_per_second=4) as progress:
            task = progress.add_task(f"GA {args.form}", total=args.generations + 1, record="")

            def on_generation(point: dict) -> None:
                progress.update(task, advance=1, record=(
                    f"best {point['best']:.3f} mean {point['mean']:.3f} yardstick {point['yardstick']:.3f}"))

            population, curve, fitness = evolve(args, executor, on_generation)
            trained = time.perf_counter() - started
            finalists = [int(i) for i in np.argsort(fitness)[::-1][:5]]
            tables = [card_scores(args.form, weights_of(args, population[i])).tolist() for i in finalists]
            task = progress.add_task("validating", total=None, record=f"{len(finalists)} x {args.validate} {unit}")
            shares = yardstick(args, tables, args.validate, "validation", executor)
            progress.update(task, total=1, completed=1)
    finally:
        if executor is not None:
            executor.shutdown()
    seconds = time.perf_counter() - started
    cpu = time.process_time() + sum(getattr(resource.getrusage(resource.RUSAGE_CHILDREN), f) for f in ("ru_utime", "ru_stime"))
    chosen = finalists[int(np.argmax(shares))]
    share = max(shares)
    meta = {
        "command": command, "seed": args.seed, "form": args.form, "generations": args.generations,
        "population": args.population, "games": args.games, "fitness": args.fitness, "unit": unit,
        "players": args.players,
        "init": None if args.init is None else {"file": str(args.init), "command": init["meta"].get("command"),
                                                "seconds": init["meta"].get("seconds")},
        "heuristic_share": None if args.table else args.heuristic_share, "heuristics": args.heuristics,
        "table": args.table, "points_gene": args.points, "mutation_rate": args.mutation_rate,
        "mutation_scale": args.mutation_scale, "workers": args.workers,
        "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "seconds": round(seconds, 1), "training_seconds": round(trained, 1), "cpu_seconds": round(cpu, 1),
        "curve": curve,
        "validation": {"games": args.validate, "unit": unit,
                       "against": args.heuristics if args.table else [p.name for p in YARDSTICK],
                       "win_share": round(share, 4),
                       "win_se": round((share * (1 - share) / args.validate) ** 0.5, 4),
                       "finalists": [round(s, 4) for s in shares]},
    }
    write_saved(out, {"meta": meta, "form": args.form, "weights": weights_of(args, population[chosen]).tolist()})
    svg = Path(out).with_suffix(".svg")
    svg.write_text(curve_svg(curve, f"{args.form} perceptron: fitness in {args.players}-player {unit}"))
    console.print(f"{args.form} perceptron: {args.generations} generations of {args.population} in "
                  f"{trained:.0f} s ({seconds:.0f} s with validation, {cpu:.0f} s of CPU); validation win share {share:.3f} against {', '.join(meta['validation']['against'])} "
                  f"({args.validate} {args.players}-player {unit}); saved {out} and {svg}")
    return 0
