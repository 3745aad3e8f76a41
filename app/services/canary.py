"""The canary: a live learner's strength, checked in process against fixed references.

After every ``PARLOUR_CANARY_EVERY`` learned games (``after_learning``) a worker thread of this
process (never the event loop) reads the learner's table under its lock and plays it
``Canary.games`` single deals against each of its references (``LiveSpec.canary``: MENACE against
Random and Perfect, Harel against SemiRandom, Baltar against Kyle at 5 slots), seats alternating,
with the fixed seed ``SEED``. Each score share (a win 1, a draw 1/2, a shared win 1/k) is compared
with its floor: the learner's origin table (beginner or trained) measured the same way, less
``Z`` standard errors of the difference of two such measurements (``Z * sqrt(2) * se``); the
origin's measurement is made once per process (the same seed gives the same figures).

What it found is kept by ``live.settle``: a table that passed becomes the learner's last good one
(a snapshot marked passed); one that failed is kept as a snapshot marked failed, the learner goes
back to its last good table, and the games learned since are quarantined (kept, listed for the
administrator, never learned from again).
"""
from __future__ import annotations

import logging
import math
import time
from concurrent.futures import Future, ThreadPoolExecutor, wait as wait_for
from dataclasses import dataclass
from threading import Lock

from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from agents.catalog import make_agent
from agents.records import GameRecord
from agents.spec import Values
from agents.tournament import play_by_observation
from app.db import writing
from app.services import live
from app.settings import get_settings

SEED = 2026
"""The canary's seed: every check plays the same deals with the same dice."""
Z = 3.0
"""Standard errors of a difference below the origin's score that still pass."""

log = logging.getLogger("parlour")


@dataclass(frozen=True)
class Score:
    share: float  # mean score share per deal
    se: float  # its standard error


def _share(record: GameRecord) -> float:
    """The learner's (player 0's) score share of one deal."""
    seat, winners = record.order.index(0), record.winners
    if not winners:
        return 0.5
    return 1.0 / len(winners) if seat in winners else 0.0


def measure(game: str, agent: str, values: Values) -> dict[str, Score]:
    """The learner built from ``values`` against each of its canary's references."""
    spec = live.live_of(game, agent)
    plan = spec.canary
    learner = spec.from_values(values)
    options = dict(plan.options) if plan.options else None
    out = {}
    for ref in plan.references:
        shares = [_share(r) for r in play_by_observation(game, [learner, make_agent(game, ref)], range(plan.games),
                                                         SEED, options)]
        mean = sum(shares) / len(shares)
        var = sum((x - mean) ** 2 for x in shares) / max(1, len(shares) - 1)
        out[ref] = Score(mean, math.sqrt(var / len(shares)))
    return out


_origins: dict[tuple[str, str, str], dict[str, Score]] = {}
_origins_lock = Lock()


def origin_scores(game: str, agent: str, origin: str) -> dict[str, Score]:
    """The origin table's own measurement (made once per process: the same seed, the same figures)."""
    with _origins_lock:
        if (game, agent, origin) not in _origins:
            bare = live.LayeredTable(live.origin_table(game, agent, origin), {})
            _origins[(game, agent, origin)] = measure(game, agent, bare)
        return _origins[(game, agent, origin)]


def floors(game: str, agent: str, origin: str) -> dict[str, float]:
    """Per reference, the lowest score share that passes: the origin's, less its margin."""
    return {ref: s.share - Z * math.sqrt(2) * s.se for ref, s in origin_scores(game, agent, origin).items()}


def check(sessions: sessionmaker[Session], game: str, agent: str) -> dict:
    """Measure the learner's table now and keep the verdict (``live.settle``). Returns the report:
    scores, floors, ``passed`` (None when a reset or rollback made the check moot), seconds."""
    key = live.live_key(game, agent)
    with sessions() as session:
        live.ensure(session, game, agent)
        with writing():
            content = live.read_content(session, key)
        started = time.perf_counter()
        if content.overlay:
            scores = measure(game, agent, live.LayeredTable(live.origin_table(game, agent, content.origin),
                                                            content.overlay))
        else:  # nothing learned (yet, or since a reset): the origin itself
            scores = origin_scores(game, agent, content.origin)
        floor = floors(game, agent, content.origin)
        below = [ref for ref in floor if scores[ref].share < floor[ref]]
        report = {"games": live.live_of(game, agent).canary.games, "seed": SEED,
                  "scores": {ref: round(s.share, 4) for ref, s in scores.items()},
                  "floors": {ref: round(f, 4) for ref, f in floor.items()},
                  "learned_games": content.games, "seconds": round(time.perf_counter() - started, 2)}
        why = "canary after {} games: {}".format(content.games, "; ".join(
            f"{ref} {scores[ref].share:.3f} < floor {floor[ref]:.3f}" for ref in below))
        with writing():
            kept = live.settle(session, content, key, not below, report, why)
    return {**report, "passed": None if kept is None else not below,
            **({"snapshot": kept.id} if kept is not None else {})}


_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="canary")
_pending: dict[tuple[str, str], Future] = {}
_pending_lock = Lock()


def after_learning(session: Session, game: str, agent: str, learned: live.Learned) -> None:
    """Schedule a check when the game just learned makes a multiple of ``PARLOUR_CANARY_EVERY``."""
    every = get_settings().canary_every
    if learned.learned and every > 0 and learned.games % every == 0:
        schedule(session.get_bind().engine, game, agent)


def schedule(engine: Engine, game: str, agent: str) -> Future:
    """Check the learner in this process's canary thread (one waiting check per learner is enough)."""
    where = (str(engine.url), live.live_key(game, agent))
    with _pending_lock:
        queued = _pending.get(where)
        if queued is not None and not queued.running() and not queued.done():
            return queued
        future = _pending[where] = _executor.submit(_run, engine, game, agent)
    return future


def _run(engine: Engine, game: str, agent: str) -> dict:
    try:
        return check(sessionmaker(engine, expire_on_commit=False), game, agent)
    except Exception:
        log.exception("the canary of %s/%s could not run", game, agent)
        raise


def wait(timeout: float = 300) -> None:
    """Until every check scheduled so far has run (tests and commands)."""
    with _pending_lock:
        futures = list(_pending.values())
    wait_for(futures, timeout)
