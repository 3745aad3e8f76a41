"""How a match ends other than by a move: finished early (resigned, abandoned), and what follows
every end: the live learners seated in it learn from it."""
from __future__ import annotations

import time
from typing import Any

from sqlalchemy.orm import Session

from agents.base import Episode
from agents.catalog import spec
from app.db import writing
from app.services import canary, live, match_store, ratings
from app.services.errors import Conflict
from app.services.match_store import MatchRow
from app.services.match_views import replay_states
from app.services.notifier import notify
from app.settings import get_settings
from engine import Game, get_game


def abandon_after_s() -> int:
    return get_settings().abandon_after_s


def check_playing(session: Session, match: MatchRow) -> None:
    """409 unless the match is being played; one nobody moved in for ``PARLOUR_ABANDON_AFTER_S``
    is finished as abandoned first."""
    if match.status == "waiting":
        raise Conflict("the match has not started: it waits for the invited players to join "
                       "(or for its creator to start it with AIs in the empty seats)")
    if match.status != "active":
        raise Conflict("the match is over")
    idle = time.time() - match.last_move_at
    if idle < 1:  # the setting is whole seconds: no need to read it
        return
    after = abandon_after_s()
    if after <= 0 or idle < after:
        return
    finish_early(session, match, {"kind": "abandoned", "after_s": after}, [])
    raise Conflict(f"the match was abandoned: no move for {after} s")


def abandon_stale(session: Session) -> int:
    """Finish as abandoned every match with no move for ``PARLOUR_ABANDON_AFTER_S`` (nobody wins,
    nothing is rated or learned); returns how many."""
    after = abandon_after_s()
    return 0 if after <= 0 else match_store.abandon_stale(session, after)


def finish_early(session: Session, match: MatchRow, ending: dict[str, Any], winners: list[int]) -> MatchRow:
    """Finish a match before its rules end it: resigned, the points so far and ``winners``
    marked won and rated against the others; abandoned, no points, no winner, not rated."""
    game = get_game(match.game)
    scores = [float(x) for x in game.scores(match.state)] if winners else [None] * len(match.seats)
    results = {s.seat: (scores[s.seat], s.seat in winners if winners else None) for s in match.seats}
    rated = bool(winners) and ratings.unrated_reason(match) is None

    def rate() -> None:
        ratings.rate_match(session, match.game, match.id, match.seats, winners)

    finished = match_store.finish(session, match, ending, results, rate if rated else None)
    if finished is None:
        raise Conflict("the match moved on meanwhile; reload it")
    notify(match.id)
    return finished


def learn_from(session: Session, match: MatchRow, game: Game) -> MatchRow:
    """Every live learner seated in the finished match learns from it, atomically, within its
    limits (``live.apply_updates``), unless its creator chose the seed; ``learning`` says for
    each what happened. Every ``PARLOUR_CANARY_EVERY`` learned games the learner's strength
    is checked in the background. Returns the match with its ``learning``."""
    learners = [(s, s.agent) for s in match.seats if s.agent is not None and spec(match.game, s.agent).live is not None]
    if not learners:
        return match
    if match.seed_chosen:
        return match_store.note_learning(session, match, {
            str(s.seat): {"agent": agent, "learned": False, "reason": f"not learned from: {ratings.SEED_CHOSEN}"}
            for s, agent in learners})
    moves = match_store.moves_after(session, match.id, -1)
    winners = game.winners(match.state)
    outcome = {}
    for s, agent in learners:
        episode = Episode(seat=s.seat, score=float(s.score or 0), won=s.seat in winners, drawn=not winners)
        for state, move in replay_states(game, match, moves):
            if move.seat == s.seat:
                episode.steps.append((game.observe(state, s.seat), move.action))
        try:
            learner = live.make_live_agent(session, match.game, agent, own_copy=True)
            updates = learner.learn(episode)
            with writing():
                learned = live.apply_updates(session, match.game, agent, updates, clients=people_clients(match),
                                             match_id=match.id)
        except live.Loading:  # reset or rolled back to another table while this request ran
            learned = live.Learned(False, "the learner was reset while this game was played")
        canary.after_learning(session, match.game, agent, learned)
        note = {"reason": f"not learned from: {learned.reason}"} if not learned.learned else (
            {"held_back": learned.reason} if learned.reason else {})
        outcome[str(s.seat)] = {"agent": agent, "learned": learned.learned, **note}
    return match_store.note_learning(session, match, outcome)


def people_clients(match: MatchRow) -> list[str]:
    """The (hashed) addresses of the people at the table: each counts the game toward its own
    learning limit (the creator's, then every friend who joined)."""
    clients = [match.client or ""] + [s.client for s in match.seats if s.kind == "human" and s.client]
    return list(dict.fromkeys(clients))
