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
import importlib.util
import sys
from pathlib import Path


def commands_in(package: str) -> list[str]:
    """The commands ``package`` holds: its modules that define ``main`` (found in their source, so
    listing them imports none of them), by module name."""
    spec = importlib.util.find_spec(package)
    folders = spec.submodule_search_locations if spec else None
    return sorted(path.stem for folder in folders or [] for path in Path(folder).glob("[a-z]*.py")
                  if "\ndef main(" in path.read_text(encoding="utf-8"))


def trainers() -> list[str]:
    """``GAME AGENT`` for every trainer in agents.training (a module named ``<game>_<agent>``)."""
    from engine import GAMES

    return [f"{game} {name[len(game) + 1:]}" for name in commands_in("agents.training")
            for game in GAMES if name.startswith(f"{game}_")]


def _usage(usage: str, what: str, known: list[str], asked: bool) -> int:
    """The usage and the ``known`` names: on stdout with exit 0 when asked for (--help), else an error."""
    print(f"usage: {usage} (--help after the name: its options)\n{what}, one of:\n  " + "\n  ".join(known),
          file=sys.stdout if asked else sys.stderr)
    return 0 if asked else 2


def _module_main(package: str, name: str, argv: list[str], prog: str, known: list[str]) -> int:
    """Run ``package``'s module for ``name`` (one of ``known``; else an error that lists them)."""
    if name not in known:
        print(f"{prog}: nothing called {name!r} here; one of: {', '.join(known)}", file=sys.stderr)
        return 2
    module = importlib.import_module(f"{package}.{name.replace(' ', '_')}")
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
    if command in ("train", "bench"):
        asked = any(a in ("-h", "--help") for a in rest[:2])
        if command == "train":
            known = trainers()
            if len(rest) < 2 or asked:
                return _usage("parlour train GAME AGENT [options]", "GAME AGENT", known, asked)
            return _module_main("agents.training", f"{rest[0]} {rest[1]}", rest[2:],
                                f"parlour train {rest[0]} {rest[1]}", known)
        server_side = commands_in("app.bench")
        known = commands_in("agents.bench") + server_side
        if not rest or rest[0] in ("-h", "--help"):
            return _usage("parlour bench NAME [options]", "NAME", known, asked)
        package = "app.bench" if rest[0] in server_side else "agents.bench"
        return _module_main(package, rest[0], rest[1:], f"parlour bench {rest[0]}", known)
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
