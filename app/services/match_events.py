"""A match's event stream (server-sent events), as a viewer receives it: ``move`` (with the
viewer's new view) for every move as it happens, ``seats`` when a friend joins or a waiting
match starts, ``held`` while an AI-only match may not move, ``end`` when it is over. Watching an
AI-only match is what makes its moves, at its pace. A stream opened with a friend's invite token
closes, with no more events, once that seat is joined (the seat has a new token then).

A stream sleeps until a move of its match wakes it (or, for an AI-only match, until its next
move is due), whichever server process made the move (``app.services.relay``); a slow database
poll with backoff is the last resort."""
from __future__ import annotations

from typing import Any, AsyncIterator, Awaitable, Callable

import orjson
from anyio import to_thread
from sqlalchemy.orm import Session, sessionmaker

from app.limits import Lane
from app.services import match_store
from app.services.agents import AgentPool
from app.services.errors import Conflict
from app.services.match_tokens import seat_of
from app.services.match_turns import ai_move, due_in, resuming_held
from app.services.match_views import match_view, moves_json
from app.services.notifier import NOTIFIER
from engine import get_game

FALLBACK_POLL_S = (1.0, 10.0)
"""A stream not woken re-reads the database after 1 s, then 2, 4, 8, 10, 10... (in case a
wake-up from another process was lost); any wake-up starts the backoff again."""

Poll = tuple[list[dict[str, Any]], dict[str, Any] | None, tuple[Any, ...], bool, float | None]


def event_json(content: dict[str, Any]) -> str:
    """An event's data line: JSON written by orjson, as the answers holding a view are."""
    return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS).decode()


async def open_stream(sessions: sessionmaker[Session], pool: AgentPool, ai_only_moves: Lane, match_id: str,
                      token: str | None, after: int) -> AsyncIterator[str]:
    """The events of the match for the seat ``token`` holds (none: a spectator), after ply
    ``after``; 404 for no match, 403 for a wrong token, before any event. An AI-only match's
    polls make its moves: they queue in ``ai_only_moves`` (one lane per process), so however many
    are watched, the other requests compete with one such thread."""
    def check() -> tuple[int | None, str | None, bool]:
        with sessions() as session:
            match = match_store.read(session, match_id)
            seat = seat_of(match, token)
            return seat, None if seat is None else match.seats[seat].token_hash, match.ai_only

    seat, token_hash, ai_only = await to_thread.run_sync(check)
    run: Callable[..., Awaitable[Any]] = ai_only_moves.run if ai_only else to_thread.run_sync
    return _events(_Watch(sessions, pool, match_id, seat, token_hash), run, after)


class _Watch:
    """One viewer's polls of a match."""

    def __init__(self, sessions: sessionmaker[Session], pool: AgentPool, match_id: str, seat: int | None,
                 token_hash: str | None):
        self.sessions, self.pool, self.match_id, self.seat = sessions, pool, match_id, seat
        self.token_hash = token_hash  # the digest of the token the stream was opened with
        self.held: str | None = None  # why the match may not move now (its creator's budget)
        self.revoked = False  # that token is no longer the seat's (an invite's, once joined)

    def poll(self, last: int, seen: tuple[Any, ...] | None) -> Poll:
        """New moves after ``last`` (making the next move of an AI-only match if it is due), the
        viewer's view when the seats or the status changed since ``seen`` (a friend joined, the
        match started), the new ``seen``, whether the match is over, and the seconds until its
        next move is due (None: not AI-only, or held back)."""
        with self.sessions() as session:
            match = match_store.read(session, self.match_id)
            if self.seat is not None and match.seats[self.seat].token_hash != self.token_hash:
                self.revoked = True
                return [], None, (), True, None
            due = due_in(match) == 0.0
            self.held = resuming_held(session, match) if due else None
            if due and self.held is None:
                try:
                    match = ai_move(session, self.pool, match)
                except Conflict:
                    session.rollback()  # another watcher moved first
                    match = match_store.read(session, self.match_id)
            new = match_store.moves_after(session, self.match_id, last)
            out: list[dict[str, Any]] = []
            if new:
                view = match_view(session, match, self.seat)
                out = [{"move": m} for m in moves_json(get_game(match.game), match, new, self.seat)]
                out[-1]["match"] = view
            now_seen = (match.status, tuple((x.kind, x.name, x.invite) for x in match.seats))
            changed = now_seen != seen and (seen is not None or match.status == "waiting")
            seats = {"match": out[-1]["match"] if out else match_view(session, match, self.seat)} if changed else None
            return out, seats, now_seen, match.status == "finished", None if self.held else due_in(match)


async def _events(watch: _Watch, run: Callable[..., Awaitable[Any]], after: int) -> AsyncIterator[str]:
    last, seen = after, None
    fallback = FALLBACK_POLL_S[0]
    sub = NOTIFIER.subscribe(watch.match_id)
    told = None
    try:
        yield "retry: 2000\n\n"
        while True:
            sub.arm()
            items, seats, seen, over, due = await run(watch.poll, last, seen)
            if watch.revoked:
                return  # closed without a word: the seat is someone else's now
            if watch.held != told:
                told = watch.held
                yield f"event: held\ndata: {event_json({'detail': told})}\n\n"
            if seats:
                yield f"event: seats\ndata: {event_json(seats)}\n\n"
            for item in items:
                last = item["move"]["ply"]
                yield f"event: move\ndata: {event_json(item)}\n\n"
            if over:
                yield "event: end\ndata: {}\n\n"
                return
            if due is not None and due <= fallback:
                await sub.wait(due)  # the next AI move is due: no thread held meanwhile
                continue
            if await sub.wait(fallback):
                fallback = FALLBACK_POLL_S[0]
            else:
                fallback = min(2 * fallback, FALLBACK_POLL_S[1])
                yield ": waiting\n\n"  # a comment line: finds closed connections
    finally:
        sub.close()
