"""Where a searching AI thinks: in a helper process of this server process, at a lower CPU
priority (``NICENESS``), one search at a time.

A search (Monte Carlo over sampled deals, expectimax) is a fraction of a second to seconds of
Python. Run in a thread of the server process it held the interpreter lock: the event loop
waited for the lock at every step of every other request, and thirty watched AI-only matches
between search levels took another client's view from 8 ms to a 1,053 ms median. In a helper
process the search shares only the machine's cores, where the operating system gives the
server's own threads the priority.

The helper sees what the seat sees and nothing more: the seat's observation, its legal actions
and the key of its random generator (``"<match seed>:ai:<ply>"``, as before), so a move is the
same wherever it is thought. It builds each agent once (searching agents keep no state in the
database) and is started again if it dies.
"""
from __future__ import annotations

import multiprocessing
import os
import random
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Sequence

from agents.base import Explanation, explain
from agents.catalog import make_agent

NICENESS = 10
"""How much lower than the server's the helper's CPU priority is (``nice``)."""

_executor: ProcessPoolExecutor | None = None
_lock = threading.Lock()
_agents: dict[tuple[str, str], Any] = {}  # in the helper: the agents it built


def think(game: str, agent_id: str, observation: dict, legal: Sequence[Any],
          rng_key: str) -> tuple[Any, Explanation | None]:
    """The action a searching agent chooses, and its explanation, thought in the helper."""
    for attempt in (1, 2):
        try:
            return _helper().submit(_act, game, agent_id, observation, list(legal), rng_key).result()
        except BrokenProcessPool:  # the helper died (killed, out of memory): a new one, once
            _drop(wait=False)
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def start(wait: bool = False) -> None:
    """Start the helper now (at server start-up), so that no first search waits for it; with
    ``wait``, return once it answers."""
    started = _helper().submit(os.getpid)
    if wait:
        started.result()


def stop() -> None:
    """Stop the helper (at server shutdown); the next search starts a new one."""
    _drop()


def _helper() -> ProcessPoolExecutor:
    global _executor
    with _lock:
        if _executor is None:
            _executor = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                            initializer=_begin, initargs=(os.getpid(),))
        return _executor


def _drop(wait: bool = True) -> None:
    global _executor
    with _lock:
        if _executor is not None:
            _executor.shutdown(wait=wait, cancel_futures=True)
        _executor = None


def _begin(parent: int) -> None:
    """In the helper, first: lower its priority, and end it when the server process is gone
    (however it ended: a server killed outright never tells its helper)."""
    os.nice(NICENESS)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()


def _act(game: str, agent_id: str, observation: dict, legal: list, rng_key: str) -> tuple[Any, Explanation | None]:
    """In the helper: act, then explain the same decision (a search explains from the search it made)."""
    agent = _agents.get((game, agent_id))
    if agent is None:
        agent = _agents[game, agent_id] = make_agent(game, agent_id)
    action = agent.act(observation, legal, random.Random(rng_key))
    return action, explain(agent, observation, legal)
