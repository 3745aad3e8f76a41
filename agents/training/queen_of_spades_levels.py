"""``parlour train queen_of_spades levels``: the write-up's level chart on the shipped network.

    parlour train queen_of_spades levels [--deals 2000] [--noise 0.05,0.1,0.15,0.25,0.4,0.8] [--seed 1]
        [--weights NPZ] [--gaps] [--old NPZ] [--search-deals 0]
        [--out agents/saved/queen_of_spades/levels.json]   (also writes levels.svg)

Each player's pair sits A B A B against two seats of "average" (the network without
card counting) over the same ``--deals`` duplicate deals (each played twice, the pairs
swapping seats): its mean points per deal and player, with the standard error over
deals. Players: Random, the rule player and the five network levels. ``--noise`` also
measures the average network with each noise std on its outputs (the *choice* of the
poor and very poor levels' stds, ``network.NOISE``, is read off this sweep: far enough
apart to sit clearly apart in the chart). All deals of one comparison run side by side
(``network_play``), numpy only.

``--weights`` measures the levels on another network than the shipped one (a candidate, before
it ships). ``--gaps`` also plays each level against the one below it in the lobby's order
(head to head, the same ``--deals`` duplicate deals), so every gap of the ladder gets its own
mean and standard error. ``--old NPZ`` also plays the very good network against the very good
level of that network (``--deals`` duplicate deals).

``--search-deals N`` also plays the search level against the very good network in N
duplicate deals of their own (the search decides from each seat's view, one decision at a
time; about 2.4 s of CPU a duplicate deal); with ``--old``, the search over ``--weights``
against the search over the old network instead (twice that).
"""
from __future__ import annotations

import argparse
import datetime as dt
import shlex
import sys
import time
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

from agents.queen_of_spades.network import LEVELS, NOISE, shipped
from agents.queen_of_spades.network_weights import Weights, load
from agents.queen_of_spades.network_play import RANDOM, Policy, duplicate, rules_policy
from agents.queen_of_spades.search import DeterminisedSearch
from agents.saved_files import saved_path, write_saved
from agents.training.queen_of_spades_network import seeds
from agents.training.yaniv_plot import Panel, line_charts
from engine import get_game

REFERENCE = "network-average"


def players(weights: Weights) -> dict[str, Policy]:
    """Every level but the search as a batched player, easiest first as the package lists them."""
    from agents.queen_of_spades import LEVELS as ORDER

    forward = weights.forward
    out = {}
    for level in ORDER:
        if level == "random":
            out[level] = RANDOM
        elif level == "rules":
            out[level] = rules_policy()
        elif level in LEVELS:
            spec = LEVELS[level]
            out[level] = Policy(forward, spec.counting, spec.noise)
    return out


def search_policy(seed: int, weights: Weights) -> Policy:
    """The search level as a batched player: it gets the seat's view of each table, nothing more."""
    game, searcher, rng = get_game("queen_of_spades"), DeterminisedSearch(weights), __import__("random").Random(seed)

    def pick(table) -> int:
        state = table.freeze()
        return searcher.act(game.observe(state, table.to_move), game.legal_actions(state), rng).card

    return Policy(pick=pick)


def main(argv: list[str] | None = None, prog: str = "parlour train queen_of_spades levels") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000, help="duplicate deals per comparison")
    parser.add_argument("--noise", default="0.05,0.1,0.15,0.25,0.4,0.8", help="noise stds to sweep ('' for none)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--weights", type=Path, default=None, help="the network's .npz (default: the shipped one)")
    parser.add_argument("--gaps", action="store_true", help="also each level head to head with the one below it")
    parser.add_argument("--old", type=Path, default=None, help="an older network's .npz to play against")
    parser.add_argument("--search-deals", type=int, default=0,
                        help="duplicate deals of search vs network (with --old: search vs the old search)")
    parser.add_argument("--out", type=Path, default=saved_path("queen_of_spades", "levels"))
    args = parser.parse_args(argv)
    if args.deals < 2:
        raise SystemExit(f"{prog}: --deals must be at least 2")
    for path in (args.weights, args.old):
        if path is not None and not path.is_file():
            raise SystemExit(f"{prog}: no network file {path}")
    weights = load(args.weights) if args.weights is not None else shipped()
    old = load(args.old) if args.old is not None else None
    try:
        sweep = [float(x) for x in args.noise.split(",") if x.strip()]
    except ValueError:
        raise SystemExit(f"{prog}: --noise is a comma-separated list of numbers") from None
    command = ("parlour train queen_of_spades levels " + shlex.join(sys.argv[1:] if argv is None else argv)).strip()
    if argv is None:
        command = "parlour " + shlex.join(sys.argv[1:])
    deal_seeds = seeds(args.seed, 1000, args.deals)
    rng = np.random.default_rng([args.seed, 1001])
    console = Console(width=max(110, Console().width))
    started, cpu = time.perf_counter(), time.process_time()
    everyone = players(weights)
    reference = everyone[REFERENCE]
    chart, noise, gaps = {}, {}, {}
    for name, policy in everyone.items():
        chart[name] = duplicate(policy, reference, deal_seeds, rng).to_json()
        console.print(f"{name}: {chart[name]['mean']:+.3f} ± {chart[name]['se']:.3f}")
    if args.gaps:
        names = list(everyone)
        for lower, upper in zip(names, names[1:]):
            gaps[f"{upper} vs {lower}"] = duplicate(everyone[upper], everyone[lower], deal_seeds, rng).to_json()
            console.print(f"{upper} vs {lower}: {gaps[f'{upper} vs {lower}']['mean']:+.3f} ± "
                          f"{gaps[f'{upper} vs {lower}']['se']:.3f}")
    for std in sweep:
        policy = Policy(weights.forward, "none", std)
        noise[f"{std:g}"] = duplicate(policy, reference, deal_seeds, rng).to_json()
    vs_old = None
    if old is not None:
        vs_old = duplicate(everyone["network"], Policy(old.forward), deal_seeds, rng).to_json()
        console.print(f"network vs the old network: {vs_old['mean']:+.3f} ± {vs_old['se']:.3f}")
    search = None
    if args.search_deals > 1:
        other = search_policy(args.seed + 1, old) if old is not None else everyone["network"]
        search = duplicate(search_policy(args.seed, weights), other,
                           seeds(args.seed, 1002, args.search_deals), rng).to_json()
    seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu
    table = Table(title=f"Queen of Spades levels: each pair against two seats of {REFERENCE} "
                        f"({args.deals} duplicate deals, A B A B)")
    for col in ("level", "player", "points per deal", "± s.e.", "its pair took all 8 tricks"):
        table.add_column(col, justify="right")
    for i, (name, r) in enumerate(chart.items(), 1):
        table.add_row(str(i), name, f"{r['mean']:+.3f}", f"{r['se']:.3f}", f"{100 * r['a_all_tricks']:.1f}%")
    console.print(table)
    if noise:
        t = Table(title=f"{REFERENCE} with Gaussian noise on its outputs, against {REFERENCE} "
                        f"(the levels use std {NOISE['poor']:g} and {NOISE['verypoor']:g})")
        for col in ("noise std", "points per deal", "± s.e."):
            t.add_column(col, justify="right")
        for label, r in noise.items():
            t.add_row(label, f"{r['mean']:+.3f}", f"{r['se']:.3f}")
        console.print(t)
    if gaps:
        t = Table(title=f"each level against the one below it, head to head ({args.deals} duplicate deals)")
        for col in ("levels", "points per deal", "± s.e.", "s.e. clear of 0"):
            t.add_column(col, justify="right")
        for name, r in gaps.items():
            t.add_row(name, f"{r['mean']:+.3f}", f"{r['se']:.3f}", f"{r['mean'] / r['se']:.1f}" if r["se"] else "–")
        console.print(t)
    if search is not None:
        against = "the search over the old network" if old is not None else "network (very good)"
        console.print(f"search against {against}, {search['deals']} duplicate deals: "
                      f"{search['mean']:+.3f} ± {search['se']:.3f} points per deal and player")
    meta = {"command": command, "seed": args.seed, "deals": args.deals, "reference": REFERENCE,
            "weights": str(args.weights) if args.weights else "shipped", "old": str(args.old) if args.old else None,
            "gaps": gaps, "network_vs_old": vs_old,
            "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"), "seconds": round(seconds, 1),
            "cpu_seconds": round(cpu_seconds, 1), "noise_levels": NOISE, "chart": chart, "noise_sweep": noise,
            "search": search, "search_against": "the old search" if old is not None else "network",
            "measure": "mean points per deal and player of the pair, standard error over duplicate deals"}
    write_saved(args.out, {"meta": meta})
    names = list(chart)
    xs = list(range(1, len(names) + 1))
    means = [chart[n]["mean"] for n in names]
    ses = [chart[n]["se"] for n in names]
    panels = [Panel(f"each level's pair vs two seats of {REFERENCE}", "points per deal (±2 s.e.)",
                    [("mean", xs, means), ("+2 s.e.", xs, [m + 2 * s for m, s in zip(means, ses)]),
                     ("-2 s.e.", xs, [m - 2 * s for m, s in zip(means, ses)])], x_label="level")]
    if noise:
        stds = [float(k) for k in noise]
        nm = [noise[k]["mean"] for k in noise]
        ns = [noise[k]["se"] for k in noise]
        panels.append(Panel("noise on the average network's outputs", "points per deal (±2 s.e.)",
                            [("mean", stds, nm), ("+2 s.e.", stds, [m + 2 * s for m, s in zip(nm, ns)]),
                             ("-2 s.e.", stds, [m - 2 * s for m, s in zip(nm, ns)])], x_label="noise std"))
    svg = args.out.with_suffix(".svg")
    key = "levels: " + ", ".join(f"{i} {n}" for i, n in zip(xs, names))
    svg.write_text(line_charts(panels, f"{command} ({seconds:.0f} s); {key}", panel_width=560, height=320))
    console.print(f"written to {args.out} and {svg}; {seconds:.0f} s ({cpu_seconds:.0f} s of CPU)")
    return 0
