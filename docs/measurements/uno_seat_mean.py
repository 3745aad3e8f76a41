"""A mean of Uno Deep Monte-Carlo networks in the first seat of the write-up's five- or four-seat table.

Usage (a measurement aid, not part of the app)::

    PYTHONPATH=TREE python docs/measurements/uno_seat_mean.py NET[,NET...] SEED[,SEED...] GAMES [--four]

NET is a network saved as ``agents/saved/uno/<NET>.npz``; the networks value together
(``Dmc(MeanNet([...]))``, as the top level plays ``BIG_TABLES``). The table is it, the perceptron,
BetterOffensive, Offensive, Defensive (``--four``: it, the perceptron, Offensive, Defensive), and the
games are those of ``parlour tournament uno --players <it>,perceptron,... --games GAMES --seed SEED``
on the tournament's fast arena (``agents.uno.arena``). For each seed and then for all of them it prints
each player's share of whole games to 500 with its standard error, and the first seat's lead over the
next player with the standard error ``--json`` gives (``first_lead``, ``first_lead_se``); the seeds
together are the mean of their figures, the standard error sqrt(sum of s.e.^2) / n.
"""
from __future__ import annotations

import math
import sys

from agents.catalog import make_agent
from agents.qnet import MeanNet, shipped
from agents.records import TournamentResult
from agents.uno.arena import run
from agents.uno.dmc import Dmc
from agents.uno.dmc_features import FEATURES

FIVE = ["perceptron", "betteroffensive", "offensive", "defensive"]
FOUR = ["perceptron", "offensive", "defensive"]


def play(nets: list[str], seed: int, games: int, others: list[str]) -> TournamentResult:
    first = Dmc(MeanNet([shipped("uno", name, FEATURES) for name in nets]))
    players = [first] + [make_agent("uno", name) for name in others]
    return run(players, games, seed, names=["it"] + others, whole_match=True)


def combined(figures: list[tuple[float, float]]) -> tuple[float, float]:
    """The mean of independent figures and its standard error."""
    n = len(figures)
    return sum(f for f, _ in figures) / n, math.sqrt(sum(se * se for _, se in figures)) / n


def report(label: str, results: list[TournamentResult]) -> None:
    names = results[0].players
    shares = [combined([(r.stats[i].win_share, r.stats[i].win_se) for r in results]) for i in range(len(names))]
    nxt = max(range(1, len(names)), key=lambda i: shares[i][0])
    lead, lead_se = combined([r.stats[nxt].first_lead for r in results])
    row = ", ".join(f"{name} {100 * s:.1f}({100 * se:.1f})%" for name, (s, se) in zip(names, shares))
    print(f"{label}: {sum(r.games for r in results)} games; {row}; "
          f"lead over {names[nxt]} {100 * lead:+.1f} ± {100 * lead_se:.1f} points", flush=True)


def main(args: list[str]) -> None:
    nets, seeds, games = args[0].split(","), [int(s) for s in args[1].split(",")], int(args[2])
    others = FOUR if "--four" in args[3:] else FIVE
    results = []
    for seed in seeds:
        result = play(nets, seed, games, others)
        wins = ", ".join(f"{s.player} {s.wins:g}" for s in result.stats)
        report(f"seed {seed} (wins: {wins}; its mean points {result.stats[0].points / result.games:.1f})", [result])
        results.append(result)
    if len(results) > 1:
        report(f"{'+'.join(args[0].split(','))} on seeds {args[1]}", results)


if __name__ == "__main__":
    main(sys.argv[1:])
