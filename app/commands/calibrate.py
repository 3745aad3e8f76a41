"""``parlour calibrate GAME [--games N]``: measure every level against the game's fixed references.

Each level plays ``N`` two-player games against each reference (seats alternate).
Its strength is the score share (win 1, draw 1/2, loss 0) with a 95% interval
(±1.96 standard errors); in games scored in zero-sum points per deal (Queen of
Spades: two seats each, A B A B) it is the mean points per deal per seat instead. The result is written to agents/saved/calibration/GAME.json,
which the lobby and ``GET /api/games/GAME`` show.
"""
from __future__ import annotations

import argparse
import datetime as dt
import math
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from agents import tournament
from agents.catalog import levels, references, spec
from agents.saved_files import SAVED, write_saved
from app.commands.common import executor, live_values, progress_bar
from engine import GameError, get_game


def score(stats: tournament.PlayerStats) -> tuple[float, float]:
    """(score share, half width of its 95% interval) from wins and draws."""
    n = stats.games
    wins = stats.wins
    draws = stats.draws
    mean = (wins + draws / 2) / n
    second_moment = (wins + draws / 4) / n  # wins are 0/1 here: two-player games
    var = max(0.0, second_moment - mean * mean)
    return mean, 1.96 * math.sqrt(var / max(1, n - 1))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="parlour calibrate", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=1000, help="games per level and reference")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--cluster", default=None)
    parser.add_argument("--out", default=None, help="default agents/saved/calibration/GAME.json")
    args = parser.parse_args(argv)
    try:
        ids, refs = levels(args.game), references(args.game)
        values = live_values(args.game, ids + refs)
    except GameError as err:
        raise SystemExit(f"parlour calibrate: {err}") from None
    per_deal = getattr(get_game(args.game), "points_per_deal", False)
    out = {"game": args.game, "games": args.games, "seed": args.seed,
           "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
           "command": "parlour calibrate " + " ".join(argv), "references": refs,
           "measure": ("mean points per deal per seat with a 95% interval, two seats each (A B A B)" if per_deal
                       else "score share (win 1, draw 1/2) with a 95% interval, seats alternating"), "agents": {}}
    start = time.perf_counter()
    with executor(args.workers, args.cluster) as pool, progress_bar(f"calibrating {args.game}") as bar:
        task = bar.add_task("games", total=args.games * len(ids) * len(refs))
        for agent in ids:
            vs = {}
            for ref in refs:
                result = tournament.run(args.game, [agent, ref], args.games, args.seed, None, pool, values=values,
                                        progress=lambda k: bar.advance(task, k))
                s = result.stats[0]
                if per_deal:
                    vs[spec(args.game, ref).title] = {
                        "score": s.points / s.games, "half_width": 1.96 * s.points_se, "unit": "points per deal",
                        "games": s.games}
                    continue
                share, half = score(s)
                vs[spec(args.game, ref).title] = {
                    "score": share, "half_width": half, "games": s.games, "win": s.wins / s.games,
                    "draw": s.draws / s.games, "loss": 1 - (s.wins + s.draws) / s.games}
            out["agents"][agent] = {"vs": vs}
            if spec(args.game, agent).live is not None:
                out["agents"][agent]["note"] = ("a live learner, measured with its table as it was then "
                                                "(it changes with every game people play)")
    out["seconds"] = round(time.perf_counter() - start, 1)
    path = write_saved(Path(args.out) if args.out else SAVED / "calibration" / f"{args.game}.json", out)
    measure = "mean points per deal" if per_deal else "score share"
    t = Table(title=f"{args.game}: {measure} vs each reference, 95% interval ({args.games} games each)")
    t.add_column("level")
    t.add_column("agent")
    for ref in refs:
        t.add_column(f"vs {spec(args.game, ref).title}", justify="right")
    for i, agent in enumerate(ids):
        t.add_row(str(i + 1), agent, *[(f"{v['score']:+.3f} ± {v['half_width']:.3f}" if per_deal else
                                        f"{100 * v['score']:.1f}% ± {100 * v['half_width']:.1f}")
                                       for v in out["agents"][agent]["vs"].values()])
    Console(width=max(100, Console().width)).print(t)
    print(f"written to {path}", file=sys.stderr)
    return 0
