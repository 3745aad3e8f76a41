"""``parlour calibrate GAME [--games N]``: measure every level against the game's fixed references.

Each level plays ``N`` two-player games against each reference (seats alternate),
in the game's tournament unit (Uno: whole games to 500, as a person plays them;
the others: single deals); ``--games-for AGENT=N`` gives a slow level a smaller
sample; ``--levels a,b`` measures only those levels and keeps the other entries of the
file (each entry records the command that measured it and what it counted, so a file may
hold a slow level still measured in single deals beside others in whole games). Its strength is the score share
(win 1, draw 1/2, loss 0) with a 95% interval (±1.96 standard errors), stored with what
was counted (``counts``) and the number of games; in games scored in zero-sum points per
deal (Queen of Spades: two seats each, A B A B) it is the mean points per deal per seat
instead. The result is written to agents/saved/calibration/GAME.json,
which the lobby and ``GET /api/games/GAME`` show.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from agents import records, tournament
from agents.catalog import levels, references, spec
from agents.saved_files import SAVED, write_saved
from agents.executors import executor
from app.commands.common import live_values, positive_int, progress_bar
from engine import GameError, get_game


def score(stats: records.PlayerStats) -> tuple[float, float]:
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
    parser.add_argument("--games", type=positive_int, default=1000, help="games per level and reference")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=positive_int, default=None)
    parser.add_argument("--cluster", default=None)
    parser.add_argument("--games-for", action="append", default=[], metavar="AGENT=N",
                        help="another number of games for one level (e.g. mcts=40: a slow search)")
    parser.add_argument("--levels", default=None,
                        help="measure only these levels (comma-separated), keeping the file's other entries")
    parser.add_argument("--out", default=None, help="default agents/saved/calibration/GAME.json")
    args = parser.parse_args(argv)
    try:
        games_for = {k: positive_int(v) for k, v in (item.split("=", 1) for item in args.games_for)}
    except (ValueError, argparse.ArgumentTypeError):
        parser.error("--games-for takes AGENT=N with N at least 1, e.g. mcts=40")
    try:
        ids, refs = levels(args.game), references(args.game)
        values = live_values(args.game, ids + refs)
    except GameError as err:
        raise SystemExit(f"parlour calibrate: {err}") from None
    path = Path(args.out) if args.out else SAVED / "calibration" / f"{args.game}.json"
    kept: dict = {}
    if args.levels is not None:
        chosen = [a.strip() for a in args.levels.split(",") if a.strip()]
        if not chosen or not set(chosen) <= set(ids):
            parser.error(f"--levels: comma-separated levels among {', '.join(ids)}")
        measured = chosen
    else:
        measured = ids
    whole_match = get_game(args.game).type.whole_matches
    counts = records.unit_name(args.game, whole_match)
    command = "parlour calibrate " + " ".join(argv)
    if args.levels is not None and path.exists():
        previous = json.loads(path.read_text())
        kept = previous["agents"]
        for entry in kept.values():  # entries from before units were recorded counted single deals
            entry.setdefault("command", previous.get("command"))
            for result in entry["vs"].values():
                if result.get("unit") != "points per deal":
                    result.setdefault("counts", previous.get("counts", "single deals"))
    per_deal = get_game(args.game).type.points_per_deal
    out = {"game": args.game, "games": args.games, "games_for": games_for, "seed": args.seed,
           "whole_match": whole_match, "counts": counts,
           "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
           "command": command, "references": refs,
           "measure": ("mean points per deal per seat with a 95% interval, two seats each (A B A B)" if per_deal
                       else f"score share (win 1, draw 1/2) of {counts} with a 95% interval, seats alternating"),
           "agents": {}}
    start = time.perf_counter()
    with executor(args.workers, args.cluster) as pool, progress_bar(f"calibrating {args.game}") as bar:
        task = bar.add_task("games", total=sum(games_for.get(a, args.games) for a in measured) * len(refs))
        for agent in measured:
            vs = {}
            for ref in refs:
                result = tournament.run(args.game, [agent, ref], games_for.get(agent, args.games), args.seed, None,
                                        pool, whole_match=whole_match, values=values,
                                        progress=lambda k: bar.advance(task, k))
                s = result.stats[0]
                if per_deal:
                    vs[spec(args.game, ref).title] = {
                        "score": s.points / s.games, "half_width": 1.96 * s.points_se, "unit": "points per deal",
                        "games": s.games}
                    continue
                share, half = score(s)
                vs[spec(args.game, ref).title] = {
                    "score": share, "half_width": half, "games": s.games, "counts": counts, "win": s.wins / s.games,
                    "draw": s.draws / s.games, "loss": 1 - (s.wins + s.draws) / s.games}
            out["agents"][agent] = {"vs": vs, "command": command}
            if spec(args.game, agent).live is not None:
                out["agents"][agent]["note"] = ("a live learner, measured with its table as it was then "
                                                "(it changes with every game people play)")
    out["seconds"] = round(time.perf_counter() - start, 1)
    out["agents"] = {a: out["agents"][a] if a in out["agents"] else kept[a] for a in ids
                     if a in out["agents"] or a in kept}
    path = write_saved(path, out)
    sizes = ", ".join(f"{a}: {n}" for a, n in games_for.items())
    measure = "mean points per deal" if per_deal else f"score share of {counts}"
    t = Table(title=f"{args.game}: {measure} vs each reference, 95% interval "
                    f"({args.games} each{'; ' + sizes if sizes else ''})")
    t.add_column("level")
    t.add_column("agent")
    for ref in refs:
        t.add_column(f"vs {spec(args.game, ref).title}", justify="right")
    for i, agent in enumerate(ids):
        if agent not in out["agents"]:
            continue
        vs = out["agents"][agent]["vs"]
        t.add_row(str(i + 1), agent, *[cell(vs.get(spec(args.game, ref).title), per_deal) for ref in refs])
    Console(width=max(100, Console().width)).print(t)
    print(f"written to {path}", file=sys.stderr)
    return 0


def cell(v: dict | None, per_deal: bool) -> str:
    """One level's figure against one reference, as the table prints it."""
    if v is None:
        return "–"
    if per_deal:
        return f"{v['score']:+.3f} ± {v['half_width']:.3f}"
    return f"{100 * v['score']:.1f}% ± {100 * v['half_width']:.1f}"
