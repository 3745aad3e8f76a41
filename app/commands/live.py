"""``parlour live``: look after a live learner on the server's own database (no token needed:
whoever runs this can already read the database).

    parlour live reset GAME AGENT [--to beginner|trained]
    parlour live snapshot GAME AGENT          keep a snapshot of the table now
    parlour live snapshots GAME AGENT         list the snapshots, newest first
    parlour live rollback GAME AGENT --snapshot ID
    parlour live check GAME AGENT             run its canary now (and keep the verdict)
    parlour live quarantined GAME AGENT       the games a failed canary took back, newest first
"""
from __future__ import annotations

import argparse

from app.db import get_engine, migrate, session_factory
from app.services import canary, live
from app.services.errors import ServiceError
from app.settings import get_settings
from engine import GameError


def main(argv: list[str] | None = None, prog: str = "parlour live") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("action", choices=["reset", "snapshot", "snapshots", "rollback", "check", "quarantined"])
    parser.add_argument("game")
    parser.add_argument("agent")
    parser.add_argument("--to", choices=list(live.ORIGINS), default="beginner", help="reset: the table to start from")
    parser.add_argument("--snapshot", type=int, help="rollback: the snapshot's id")
    parser.add_argument("--database-url", default=None, help="default: PARLOUR_DATABASE_URL")
    args = parser.parse_args(argv)
    url = args.database_url or get_settings().database_url
    migrate(url)
    try:
        live.live_spec(args.game, args.agent)
    except (GameError, ServiceError) as err:
        parser.error(str(err))
    with session_factory(get_engine(url))() as session:
        try:
            if args.action == "reset":
                row = live.reset(session, args.game, args.agent, args.to)
                print(f"{args.game}/{args.agent}: reset to the {row.origin} table (a snapshot of the old one kept)")
            elif args.action == "snapshot":
                snap = live.snapshot(session, args.game, args.agent)
                print(f"{args.game}/{args.agent}: snapshot {snap.id} ({snap.games} games, {snap.values} learned values)")
            elif args.action == "snapshots":
                for s in live.snapshots(session, args.game, args.agent):
                    j = live.snapshot_json(s)
                    verdict = {True: "passed", False: "FAILED", None: "-"}[j["passed"]]
                    print(f"{j['id']:>6}  {j['created_at'][:19]}  {j['origin']:<8}  {j['games']:>6} games  "
                          f"{j['learned_values']:>7} values  {verdict:<6}  {j['reason']}")
            elif args.action == "check":
                report = canary.check(session_factory(get_engine(url)), args.game, args.agent)
                print(f"{args.game}/{args.agent}: {canary_line(report)}")
            elif args.action == "quarantined":
                games = live.quarantined(session, args.game, args.agent, limit=1000)
                print(f"{args.game}/{args.agent}: {len(games)} quarantined games"
                      + (" (the newest 1000)" if len(games) == 1000 else ""))
                for g in games:
                    j = live.quarantined_json(g)
                    print(f"  match {j['match'] or '-'}  learned {j['learned_at'][:19]}  "
                          f"quarantined {j['quarantined_at'][:19]}  {j['why']}")
            else:
                if args.snapshot is None:
                    parser.error("rollback needs --snapshot ID (see: parlour live snapshots GAME AGENT)")
                row = live.rollback(session, args.game, args.agent, args.snapshot)
                print(f"{args.game}/{args.agent}: rolled back to snapshot {args.snapshot} "
                      f"({row.origin} table, {row.games} games)")
        except (GameError, ServiceError) as err:
            parser.exit(1, f"{prog}: {err}\n")
    return 0


def canary_line(report: dict) -> str:
    """A canary's report in one line."""
    scores = ", ".join(f"against {ref} {share:.3f} (floor {report['floors'][ref]:.3f})"
                       for ref, share in report["scores"].items())
    verdict = {True: "passed", False: "FAILED: rolled back to its last good table, the games since quarantined",
               None: "moot (reset or rolled back meanwhile)"}[report["passed"]]
    return (f"{scores}; {report['games']} games each, seed {report['seed']}, {report['seconds']} s, "
            f"after {report['learned_games']} learned games: {verdict}")
