"""Where tournaments and training spread their games: a Dask cluster's executor, or a local
process pool (``agents.tournament.run`` takes any ``concurrent.futures.Executor``)."""
from __future__ import annotations

import os
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Iterator


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
