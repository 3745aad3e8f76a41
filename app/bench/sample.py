"""A sample of finished matches written straight into a database, for the benchmarks of heavy
reads: noughts and crosses played out by random moves (people against each level, live MENACE
among them, and AI-only matches), with their moves, and one rating per person.

``seed(url, matches)`` migrates the database first; it writes what the server would have
written, without the server (thousands of matches in a second or two).
"""
from __future__ import annotations

import random
import uuid
from datetime import timedelta

from sqlalchemy import insert

from agents.catalog import levels
from app.db import make_engine, migrate, session_factory
from app.models import LiveAgent, Match, Move, Rating, Seat, now
from engine import get_game

GAME = "tictactoe"


def seed(url: str, matches: int, people: int = 200, rng_seed: int = 1) -> None:
    """``matches`` finished matches of noughts and crosses, the oldest an hour ago, by
    ``people`` names in turn ("person 1", ...; every fifth match AI-only), with one rating each;
    live MENACE's row reset before the first."""
    migrate(url)
    engine = make_engine(url)
    rng = random.Random(rng_seed)
    game = get_game(GAME)
    ids = levels(GAME)
    start = now() - timedelta(hours=1)
    match_rows, seat_rows, move_rows = [], [], []
    for i in range(matches):
        seed_value = rng.getrandbits(48)
        state = game.new_match(2, seed_value, {})
        moves = []
        while not game.is_over(state):
            action = rng.choice(game.legal_actions(state))
            moves.append((game.current_player(state), action))
            state = game.apply(state, action)
        scores, winners = game.scores(state), set(game.winners(state))
        match_id = uuid.uuid4().hex
        ai_only = i % 5 == 4
        created = start + timedelta(seconds=i * 3600 / max(1, matches))
        match_rows.append(dict(id=match_id, game=GAME, options={}, seed=seed_value, state=game.to_json(state),
                               ply=len(moves), status="finished", ai_only=ai_only, delay_ms=700, paused=False,
                               steps=0, last_move_at=created.timestamp(), client=None, hints=False,
                               created_at=created, finished_at=created + timedelta(seconds=1)))
        for seat in range(2):
            who: dict[str, object]
            if seat == 0 and not ai_only:
                who = {"kind": "human", "name": f"person {i % people}", "agent": None, "level": None}
            else:
                level = rng.randrange(1, len(ids) + 1)
                who = {"kind": "agent", "name": ids[level - 1], "agent": ids[level - 1], "level": level}
            seat_rows.append(dict(match_id=match_id, seat=seat, score=float(scores[seat]), won=seat in winners,
                                  token_hash=None, invite=None, client=None, **who))
        move_rows += [dict(match_id=match_id, ply=ply, seat=seat, action=action.id, label=game.action_label(action),
                           explanation=None, created_at=created) for ply, (seat, action) in enumerate(moves)]
    with session_factory(engine)() as session:
        if session.get(LiveAgent, f"{GAME}/menace-live") is None:
            session.add(LiveAgent(agent=f"{GAME}/menace-live", version=1, games=0, origin="beginner",
                                  reset_at=start - timedelta(minutes=1)))
        for table, rows in ((Match, match_rows), (Seat, seat_rows), (Move, move_rows)):
            for k in range(0, len(rows), 5000):
                session.execute(insert(table), rows[k:k + 5000])
        session.execute(insert(Rating), [
            dict(game=GAME, player=f"person:person {p}", mu=25 + rng.gauss(0, 3), sigma=8 - rng.random() * 4,
                 games=1, wins=0.0, updated_at=start) for p in range(people)])
        session.commit()
    engine.dispose()
