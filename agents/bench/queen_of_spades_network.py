"""``parlour bench queen_of_spades_network [--seconds S] [--repeats R]``: the network's speeds.

(``parlour bench queen_of_spades`` runs ``figures`` too, below its engine rows.)

- **network move, batch 1**: ``NetworkPlayer.act`` on an observation (encoding the 115
  inputs and the numpy forward pass), over the positions of random deals;
- **forward pass, batch 1** and **positions at batch 1024**: numpy only, BLAS on one thread;
- **search move**: the search level's decision (sampled deals played out by the network);
- **self-play deals during training**: ``network_play.play_deals`` with the numpy forward
  (exploration 0.1, every decision recorded), as one of the training's actors plays them.

Rates are the best of ``--repeats`` runs of ``--seconds`` of CPU time (``agents.bench.timing``),
per CPU second and per wall second (the machine may be shared).
"""
from __future__ import annotations

import argparse
import random
import sys
from dataclasses import replace
from typing import Any, Sequence

import numpy as np
from rich.console import Console
from rich.table import Table
from threadpoolctl import threadpool_limits

from agents.base import RandomAgent
from agents.bench.timing import Result, deals_until, measure
from agents.queen_of_spades.network import NetworkPlayer, shipped
from agents.queen_of_spades.network_play import Policy, play_deals
from agents.queen_of_spades.search import DeterminisedSearch
from engine import get_game


class Recorder(RandomAgent):
    """Random play that keeps the (view, legal actions) of each decision with a choice."""

    def __init__(self) -> None:
        self.seen: list[tuple[dict, list]] = []

    def act(self, observation: dict, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        if len(legal_actions) > 1:
            self.seen.append((observation, list(legal_actions)))
        return super().act(observation, legal_actions, rng)


def positions(n: int, seed: int = 0) -> list[tuple[dict, list]]:
    """(view, legal actions) of the seat to move, over random deals (seeds 0, 1, ...), where it
    has a choice."""
    recorder = Recorder()
    deals_until(lambda: len(recorder.seen) >= n, get_game("queen_of_spades"), 4, [recorder] * 4, 0,
                random.Random(seed))
    return recorder.seen[:n]


def results(seconds: float, repeats: int, search: bool = True) -> list[Result]:
    spots = positions(200)
    agent, rng = NetworkPlayer("network"), random.Random(1)
    weights = shipped()
    it = iter(range(10**12))

    def moves() -> int:
        for _ in range(50):
            view, legal = spots[next(it) % len(spots)]
            agent.act(view, legal, rng)
        return 50

    one = np.random.default_rng(0).choice([-1.0, 1.0], size=(1, 115)).astype(np.float32)
    many = np.random.default_rng(1).choice([-1.0, 1.0], size=(1024, 115)).astype(np.float32)

    def forward_one() -> int:
        for _ in range(100):
            weights.forward(one)
        return 100

    def forward_many() -> int:
        weights.forward(many)
        return 1024

    out = []
    with threadpool_limits(1, "blas"):
        out.append(measure("network move, batch 1", "move", moves, seconds, repeats, note="encode + forward"))
        out.append(measure("forward pass, batch 1", "position", forward_one, seconds, repeats))
        out.append(measure("forward pass, batch 1024", "position", forward_many, seconds, repeats))
    if search:
        searcher = DeterminisedSearch()
        late = [s for s in spots if s[0]["trick_number"] <= 2][:20] or spots[:20]
        k = iter(range(10**12))

        def search_moves() -> int:
            view, legal = late[next(k) % len(late)]
            searcher.act(view, legal, rng)
            return 1

        out.append(measure("search move (tricks 1-2, the longest)", "move", search_moves, seconds, max(1, repeats - 1)))
    policy = Policy(weights.forward, epsilon=0.1)
    np_rng, seeds = np.random.default_rng(2), iter(range(10**12))

    def self_play() -> int:
        n = 512
        play_deals([next(seeds) for _ in range(n)], [(policy,) * 4] * n, np_rng, record=True)
        return n

    out.append(measure("self-play deals (training, 512 side by side)", "deal", self_play, seconds, repeats,
                       note="one actor's, numpy forward"))
    return out


def figures(seconds: float, repeats: int, decisions: int, progress) -> tuple[list[Result], list[dict]]:
    """The rows ``parlour bench queen_of_spades`` adds (its move-time list gets nothing: the move
    times are rows here, in CPU time per move)."""
    progress("the network: moves, forward passes, search, self-play")
    out = []
    for r in results(seconds, repeats):
        each = 1e3 / r.per_cpu_second
        unit = f"{r.unit}s/s, {each:.3f} ms CPU a {r.unit}" if each < 10 else f"{r.unit}s/s, {each:.0f} ms CPU a {r.unit}"
        out.append(replace(r, note=unit + (f"; {r.note}" if r.note else "")))
    return out, []


def rows(table: Table, found: list[Result]) -> None:
    for r in found:
        per_unit = 1e3 / r.per_cpu_second
        table.add_row(r.name, r.unit, f"{r.per_cpu_second:,.0f}", f"{r.per_wall_second:,.0f}",
                      f"{per_unit:.3f} ms" if per_unit >= 0.001 else f"{per_unit * 1e3:.2f} µs", r.note)


def new_table(title: str) -> Table:
    table = Table(title=title)
    for col in ("measure", "unit", "per CPU s", "per wall s", "CPU per unit", "note"):
        table.add_column(col, justify="left" if col in ("measure", "note") else "right")
    return table


def main(argv: list[str] | None = None, prog: str = "parlour bench queen_of_spades_network") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per run")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    table = new_table("Queen of Spades network speeds (numpy inference, BLAS on one thread)")
    rows(table, results(args.seconds, args.repeats))
    Console(width=max(110, Console().width)).print(table)
    print(f"python {sys.version.split()[0]}", file=sys.stderr)
    return 0
