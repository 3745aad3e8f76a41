"""Pieces the long-running commands share: the executor, live tables, progress bars."""
from __future__ import annotations

import os
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Iterator, cast

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from agents.catalog import spec
from app.db import get_engine, migrate, session_factory
from app.settings import get_settings

err_console = Console(stderr=True)


@contextmanager
def executor(workers: int | None, cluster: str | None) -> Iterator[Executor | None]:
    """A Dask cluster's executor with ``--cluster``, else a local process pool (None for 1 worker)."""
    if cluster:
        try:
            from distributed import Client
        except ImportError:
            raise SystemExit("--cluster needs Dask: pip install 'parlour[cluster]'") from None
        with Client(cluster) as client:
            yield client.get_executor()
        return
    workers = workers or os.cpu_count() or 1
    if workers == 1:
        yield None
        return
    with ProcessPoolExecutor(workers) as pool:
        yield pool


def live_values(game: str, players: list[str]) -> dict[str, dict[str, float]]:
    """The database tables of any live learners among ``players``."""
    live = [p for p in set(players) if spec(game, p).live is not None]
    if not live:
        return {}
    from app.services.live import table

    url = get_settings().database_url
    migrate(url)
    with session_factory(get_engine(url))() as session:
        # a LayeredTable (a MutableMapping over its origin), taken where the agents type a dict
        return {p: cast(dict[str, float], table(session, game, p)) for p in live}


def progress_bar(label: str) -> Progress:
    return Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                    console=err_console, transient=False)
