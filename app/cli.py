"""The ``parlour`` command.

    parlour migrate                              bring the database to the newest schema
    parlour serve [--host H] [--port P] [--workers N]   the web app (migrates once, then starts the workers)
    parlour train GAME AGENT [...]               agents.training.<game>_<agent>
    parlour bench GAME|server [...]              agents.bench.<game> / the server's memory
    parlour bench live                           resetting live learners: time, effect on others
    parlour bench heavy                          another client's view under heavy reads and AI-only matches
    parlour bench heal                           attacks on live MENACE, without and with the healing
    parlour bench probes --url URL               the hardening probes against a running server
    parlour bench cheats --url URL [--spoof] [--seed]   spoofed addresses, chosen seeds: learned? rated?
    parlour bench request [--game G --agent A]   where a move request's time goes (profiled in process)
    parlour tournament GAME --players a,b,...    a tournament table (stored in the database)
    parlour calibrate GAME [--games N]           measure each level's strength
    parlour live reset|snapshot|snapshots|rollback|check|quarantined GAME AGENT   look after a live learner
"""
from __future__ import annotations

import argparse
import importlib
import sys


def _module_main(package: str, name: str, argv: list[str], prog: str) -> int:
    module_name = f"{package}.{name.replace('-', '_')}"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        if err.name != module_name:
            raise
        print(f"{prog}: nothing called {name!r} here ({module_name} does not exist)", file=sys.stderr)
        return 2
    return module.main(argv, prog=prog) or 0


COMMANDS = ("migrate", "serve", "train", "bench", "tournament", "calibrate", "live")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(prog="parlour", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=COMMANDS)
    if not argv or argv[0] in ("-h", "--help"):
        parser.print_help()
        return 0
    command, rest = argv[0], argv[1:]
    if command not in COMMANDS:
        parser.error(f"unknown command {command!r}")
    if command == "migrate":
        if rest:
            parser.error("usage: parlour migrate (the database is PARLOUR_DATABASE_URL)")
        from app.db import migrate
        from app.settings import get_settings
        migrate(get_settings().database_url)
        return 0
    if command == "serve":
        from app.serve import main as serve
        return serve(rest)
    if command == "train":
        if len(rest) < 2:
            parser.error("usage: parlour train GAME AGENT [options]")
        return _module_main("agents.training", f"{rest[0]}_{rest[1]}", rest[2:],
                            f"parlour train {rest[0]} {rest[1]}")
    if command == "bench":
        if not rest:
            parser.error("usage: parlour bench GAME|server [options]")
        package = "app.bench" if rest[0] in ("server", "live", "heal", "probes", "request", "cheats", "heavy") else "agents.bench"
        return _module_main(package, rest[0], rest[1:], f"parlour bench {rest[0]}")
    if command == "tournament":
        from app.commands.tournament import main as tournament
        return tournament(rest)
    if command == "live":
        from app.commands.live import main as live
        return live(rest)
    from app.commands.calibrate import main as calibrate
    return calibrate(rest)


if __name__ == "__main__":
    sys.exit(main())
