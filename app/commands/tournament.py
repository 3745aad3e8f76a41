"""``parlour tournament GAME --players a,b,... --games N``: play, print the table, store it.

Seats rotate so no player keeps the first seat. Win share is printed as
``32(2)``: percent, with its standard error in units of the last digit.
What is counted is the game's own unit unless ``--match`` or ``--deals`` says
otherwise: Uno counts whole games to the target score (500), the others single
deals. The title, ``--json`` and the stored result name the unit.
"""
from __future__ import annotations

import argparse
import json
import time

from rich.console import Console
from rich.table import Table

from agents import records, tournament
from agents.executors import executor
from app.commands.common import live_values, positive_int, progress_bar
from engine import GameError, get_game


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="parlour tournament", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("--players", required=True, help="agent ids, comma-separated (2 to the game's maximum)")
    parser.add_argument("--games", type=positive_int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--options", type=json.loads, default={},
                        help='rule options as JSON, e.g. \'{"target_score": 200}\' or \'{"preset": "writeup"}\'')
    parser.add_argument("--preset", default=None, help="a named set of rule options (Uno: writeup)")
    unit = parser.add_mutually_exclusive_group()
    unit.add_argument("--match", dest="whole_match", action="store_const", const=True, default=None,
                      help="count whole matches (Uno's default: whole games to the target score)")
    unit.add_argument("--deals", dest="whole_match", action="store_const", const=False,
                      help="count single deals (the default of the other games)")
    parser.add_argument("--workers", type=positive_int, default=None, help="local processes (default: all cores)")
    parser.add_argument("--cluster", default=None, help="a Dask scheduler, e.g. tcp://127.0.0.1:8786")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--no-store", action="store_true", help="do not store the result in the database")
    return parser.parse_args(argv)


def table(result: records.TournamentResult, seconds: float) -> Table:
    n = len(result.players)
    options = f", options {json.dumps(result.options)}" if result.options else ""
    per_player = get_game(result.game).type.actions_per_move > 1
    moves = "moves/game" if result.whole_match else "moves/deal"
    t = Table(title=f"{result.game}: {result.games} {result.unit}{options}, seed {result.seed}, "
                    f"{seconds:.1f} s",
              caption=f"{moves}: that player's own moves (turns) per {moves[6:]}" if per_player else None)
    t.add_column("player")
    t.add_column(f"wins % of {result.unit}", justify="right")
    t.add_column("draws %", justify="right")
    t.add_column("mean points", justify="right")
    t.add_column(moves, justify="right")
    t.add_column(f"{result.players[0]} ahead by", justify="right")
    for seat in range(n):
        t.add_column(f"wins % in seat {seat + 1}", justify="right")
    for i, s in enumerate(result.stats):
        j = s.to_json()
        lead = "–" if i == 0 else ("+" if s.first_lead[0] >= 0 else "") + records.share_with_error(*s.first_lead)
        t.add_row(s.player, records.share_with_error(s.win_share, s.win_se), f"{100 * j['draw_share']:.1f}",
                  f"{j['mean_points']:.2f}", f"{j['mean_moves']:.1f}", lead,
                  *[f"{100 * x:.1f}" if x is not None else "–" for x in j["seat_win_share"]])
    return t


def points_table(result: records.TournamentResult, seconds: float, whole_match: bool) -> Table:
    """For games scored in zero-sum points per deal (Queen of Spades): mean points ± s.e. first."""
    unit = "match" if whole_match else "deal"
    t = Table(title=f"{result.game}: {result.games} {unit}s, seed {result.seed}, {seconds:.1f} s",
              caption=f"seating: {result.seating}; points per {unit} per seat (a pair's total is twice this)"
              if result.seats != len(result.players) else f"seating: {result.seating}")
    t.add_column("player")
    t.add_column("seats", justify="right")
    t.add_column(f"mean points per {unit} ± s.e.", justify="right")
    t.add_column("wins %", justify="right")
    t.add_column("moves/game", justify="right")
    for seat in range(result.seats):
        t.add_column(f"wins % in seat {seat + 1}", justify="right")
    per_game = result.seats // len(result.players)
    for s in result.stats:
        j = s.to_json()
        t.add_row(s.player, str(per_game), f"{j['mean_points']:+.3f} ± {j['points_se']:.3f}",
                  records.share_with_error(s.win_share, s.win_se), f"{j['mean_moves']:.1f}",
                  *[f"{100 * x:.1f}" if x is not None else "–" for x in j["seat_win_share"]])
    return t


def store(result: records.TournamentResult, seconds: float) -> int:
    """Store the tournament and rate its agents game by game (one transaction)."""
    from app.db import get_engine, migrate, session_factory
    from app.models import Tournament
    from app.services import ratings
    from app.settings import get_settings

    url = get_settings().database_url
    migrate(url)
    with session_factory(get_engine(url))() as session:
        data = result.to_json()
        row = Tournament(game=result.game, players=result.players, games=result.games, seed=result.seed,
                         options=result.options, seconds=seconds,
                         result={"stats": data["stats"], "whole_match": data["whole_match"],
                                 "unit": data["unit"]})
        session.add(row)
        session.flush()
        ratings.rate_tournament(session, result.game, result.players, result.records, row.id)
        session.commit()
        return row.id


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    players = [p.strip() for p in args.players.split(",") if p.strip()]
    options = {**({"preset": args.preset} if args.preset else {}), **args.options}
    try:
        values = live_values(args.game, players)
        start = time.perf_counter()
        with executor(args.workers, args.cluster) as pool, progress_bar(f"{args.game} tournament") as bar:
            task = bar.add_task("games", total=args.games)
            result = tournament.run(args.game, players, args.games, args.seed, options, pool,
                                    whole_match=args.whole_match, values=values,
                                    progress=lambda k: bar.advance(task, k))
        seconds = time.perf_counter() - start
    except (GameError, ValueError) as err:
        raise SystemExit(f"parlour tournament: {err}") from None
    stored = None if args.no_store else store(result, seconds)
    if args.json:
        print(json.dumps({**result.to_json(), "seconds": seconds, "id": stored}, indent=1))
    else:
        if get_game(args.game).type.points_per_deal:
            Console(width=max(100 + 22 * result.seats, Console().width)).print(
                points_table(result, seconds, result.whole_match))
        else:
            Console(width=max(100 + 22 * len(result.players), Console().width)).print(table(result, seconds))
        if stored is not None:
            print(f"stored as tournament {stored}: GET /api/tournaments/{stored}")
    return 0
