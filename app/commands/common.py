"""Pieces the long-running commands share: live tables, progress bars (the executor is
``agents.executors``)."""
from __future__ import annotations

import argparse

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from agents.catalog import spec
from agents.spec import Values
from app.db import get_engine, migrate, session_factory
from app.settings import get_settings

err_console = Console(stderr=True)


def live_values(game: str, players: list[str]) -> dict[str, Values]:
    """The database tables of any live learners among ``players``."""
    live = [p for p in set(players) if spec(game, p).live is not None]
    if not live:
        return {}
    from app.services.live import table

    url = get_settings().database_url
    migrate(url)
    with session_factory(get_engine(url))() as session:
        return {p: table(session, game, p) for p in live}


def progress_bar(label: str) -> Progress:
    return Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                    console=err_console, transient=False)


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1 (games, workers)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is under 1")
    return value
