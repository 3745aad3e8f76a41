"""The coach's reviews of a person's moves: computed once in the background, stored, served.

``Reviewer`` (one per server process, ``app.state.reviewer``) reviews on a single worker
thread, one decision at a time, storing each verdict as it comes (``MoveReview``), so the
count stored is the progress. A review is started by asking for the analysis; what is
stored by the game's current judge (``MoveReview.judge``) is never computed again, and a
review runs in one process at a time: it first claims the (match, seat) in the database
(``ReviewClaim``, a primary key two processes cannot both insert), renews the claim after each
verdict and drops it when done; a claim left by a process that died is taken over after
``CLAIM_TTL_S``. The coach sees each decision as the seat saw it:
``game.observe(state, seat)`` and the legal moves, never the state itself.
"""
from __future__ import annotations

import logging
import random
import threading
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from agents.catalog import coach as game_coach, spec
from agents.coach import Coach, is_mistake, review, summary
from app.db import writing
from app.models import Move, MoveReview, ReviewClaim
from app.services import match_store
from app.services.errors import Conflict, NotFound, Unauthorized
from app.services.match_store import MatchRow
from app.services.match_tokens import seat_of
from app.services.match_views import replay_states
from engine import RESIGN, Game, get_game

log = logging.getLogger("parlour.coach")
HINTS_KEPT = 256
CLAIM_TTL_S = 120.0
"""A review claim not renewed for this long belongs to a process that died (one decision takes
at most 2 s to review: ``parlour bench``)."""


def review_rng(match_id: str, ply: int) -> random.Random:
    """The coach's sampling for one decision: from the match id and ply (never the match's seed)."""
    return random.Random(f"coach:{match_id}:{ply}")


def claim(session: Session, match_id: str, seat: int) -> bool:
    """Claim the review of ``seat``'s moves for this process; False when another process holds a
    live claim (a stale one is taken over)."""
    now = time.time()
    with writing():
        session.execute(delete(ReviewClaim).where(ReviewClaim.match_id == match_id, ReviewClaim.seat == seat,
                                                  ReviewClaim.claimed_at < now - CLAIM_TTL_S))
        session.add(ReviewClaim(match_id=match_id, seat=seat, claimed_at=now))
        try:
            session.commit()
            return True
        except IntegrityError:
            session.rollback()
            return False


def release(session: Session, match_id: str, seat: int) -> None:
    with writing():
        session.execute(delete(ReviewClaim).where(ReviewClaim.match_id == match_id, ReviewClaim.seat == seat))
        session.commit()


def review_missing(session: Session, match_id: str, seat: int, at_most: int | None = None) -> int:
    """Review and store the moves of ``seat`` not reviewed yet (the first ``at_most`` of them),
    unless another process is at it; returns how many were added."""
    try:
        match = match_store.read(session, match_id)
    except NotFound:
        return 0
    if not claim(session, match_id, seat):
        return 0
    try:
        return _review_claimed(session, match, seat, at_most)
    finally:
        release(session, match_id, seat)


def _review_claimed(session: Session, match: MatchRow, seat: int, at_most: int | None) -> int:
    match_id = match.id
    game, the_coach = get_game(match.game), game_coach(match.game, len(match.seats))
    moves = match_store.moves_after(session, match_id, -1)
    mine = (MoveReview.match_id == match_id, MoveReview.seat == seat)
    with writing():  # verdicts of another judge are computed again
        session.execute(delete(MoveReview).where(*mine, MoveReview.judge.is_distinct_from(the_coach.agent)))
        session.commit()
    done = set(session.scalars(select(MoveReview.ply).where(*mine)))
    added = 0
    for state, move in replay_states(game, match, moves):
        if move.seat != seat or move.ply in done:
            continue
        if added == at_most:
            break
        verdict = review(the_coach, move.ply, game.observe(state, seat), game.legal_actions(state), move.action,
                         review_rng(match_id, move.ply))
        with writing():
            try:
                session.add(MoveReview(match_id=match_id, seat=seat, judge=the_coach.agent, **verdict.to_json()))
                session.execute(update(ReviewClaim).where(ReviewClaim.match_id == match_id,
                                                          ReviewClaim.seat == seat).values(claimed_at=time.time()))
                session.commit()
                added += 1
            except IntegrityError:  # stored by a process whose claim had gone stale
                session.rollback()
    return added


SLICE = 8
"""Decisions a review job reviews before it goes to the back of the queue (``Reviewer``)."""


class Reviewer:
    """Reviews matches on one background thread; at most one job per (match, seat) at a time.
    The jobs take turns, ``SLICE`` decisions each: one person's review of a 750-move match held
    every other review back for half an hour (a probe, session 21); now a short one waits for a
    slice of each job ahead of it."""

    def __init__(self, sessions: sessionmaker[Session]):
        self.sessions = sessions
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="coach")
        self.running: set[tuple[str, int]] = set()
        self.lock = threading.Lock()
        self.hints: OrderedDict[tuple[str, int, int], dict] = OrderedDict()

    def start(self, match_id: str, seat: int) -> None:
        key = (match_id, seat)
        with self.lock:
            if key in self.running:
                return
            self.running.add(key)
        self.executor.submit(self._run, key)

    def _run(self, key: tuple[str, int]) -> None:
        more = False
        try:
            with self.sessions() as session:
                more = review_missing(session, *key, at_most=SLICE) == SLICE
        except Exception:  # a failed job is logged; the next request for the analysis starts it again
            log.exception("reviewing match %s seat %s failed", *key)
        if more:
            try:
                self.executor.submit(self._run, key)  # behind the jobs that came meanwhile
                return
            except RuntimeError:  # shut down
                pass
        with self.lock:
            self.running.discard(key)

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)


def _check(match: MatchRow, seat: int | None, what: str) -> int:
    """The seat asking (401 without a token); 409 while the match is played without hints."""
    if seat is None:
        raise Unauthorized(f"{what} needs a seat's token: Authorization: Bearer <token>")
    if match.status == "active" and not match.hints:
        raise Conflict(f"the match is still being played; {what} is given when it ends "
                       "(or during it, for a match created with hints)")
    return seat


def analysis(session: Session, reviewer: Reviewer, match_id: str, token: str | None) -> dict:
    """The coach's review of the moves of the seat ``token`` holds: ``status`` "done", or "running"
    with ``done`` of ``total`` reviewed (the job is started if it is not running)."""
    match = match_store.read(session, match_id)
    seat = _check(match, seat_of(match, token), "the analysis")
    the_coach = game_coach(match.game, len(match.seats))
    total = session.scalar(select(func.count()).where(Move.match_id == match.id, Move.seat == seat)) or 0
    rows = list(session.scalars(select(MoveReview).where(MoveReview.match_id == match.id, MoveReview.seat == seat,
                                                         MoveReview.judge == the_coach.agent)
                                .order_by(MoveReview.ply)))
    game = get_game(match.game)
    entries = [entry(game, the_coach, r) for r in rows]
    running = len(rows) < total
    if running:
        reviewer.start(match.id, seat)
    return {"status": "running" if running else "done", "done": len(rows), "total": total,
            "game": match.game, "seat": seat, "agent": the_coach.agent,
            "agent_title": spec(match.game, the_coach.agent).title, "unit": the_coach.unit,
            "threshold": the_coach.threshold, "hints": match.hints, "entries": entries,
            "summary": None if running else summary(the_coach, entries)}


def entry(game: Game, the_coach: Coach, row: MoveReview) -> dict:
    return {"ply": row.ply, "action": row.action, "best": row.best, "value": row.value,
            "best_value": row.best_value, "loss": row.loss, "mistake": is_mistake(the_coach, row.loss),
            "label": label(game, row.action), "best_label": label(game, row.best)}


def label(game: Game, action_id: str | None) -> str | None:
    if action_id is None:
        return None
    return "resigns" if action_id == RESIGN else game.action_label(game.parse_action(action_id))


def hint(session: Session, reviewer: Reviewer, match_id: str, token: str | None) -> dict:
    """In a match with hints, the coach's values for the current decision of the seat ``token``
    holds (kept per ply); ``best`` is None when the coach does not rate it (its level decides it by rule)."""
    match = match_store.read(session, match_id)
    seat = _check(match, seat_of(match, token), "a hint")
    if not match.hints:
        raise Conflict("this match was not created with hints")
    game, state = get_game(match.game), match.state
    if match.status != "active" or game.current_player(state) != seat:
        raise Conflict("a hint is given for your own decision, when it is your turn")
    key = (match.id, match.ply, seat)
    with reviewer.lock:
        if key in reviewer.hints:
            return reviewer.hints[key]
    the_coach = game_coach(match.game, len(match.seats))
    legal = game.legal_actions(state)
    values = the_coach.values(game.observe(state, seat), legal, None, review_rng(match.id, match.ply)) \
        if len(legal) > 1 else {}
    best = max(values, key=values.__getitem__) if values else (legal[0].id if len(legal) == 1 else None)
    out = {"ply": match.ply, "agent": the_coach.agent, "agent_title": spec(match.game, the_coach.agent).title,
           "unit": the_coach.unit, "best": best,
           "values": {k: round(v, 4) for k, v in values.items()},
           "labels": {a.id: game.action_label(a) for a in legal}}
    with reviewer.lock:
        reviewer.hints[key] = out
        while len(reviewer.hints) > HINTS_KEPT:
            reviewer.hints.popitem(last=False)
    return out
