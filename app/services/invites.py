"""Friends at one table: a seat created as a friend's waits, with its token in an invite link,
until someone opens the link and gives a name; the match starts when every such seat is taken,
or when its creator starts it with an AI of a chosen level in each seat still empty.

An invite's token is good only until its seat is taken: the creator of the match (or of a
rematch) was handed it, so joining gives the seat a fresh token, which only the joiner gets,
and the invite's token is then refused as any unknown token is."""
from __future__ import annotations

import secrets
from dataclasses import replace
from typing import Any

from sqlalchemy.orm import Session

from app.services import match_store
from app.services.agents import AgentPool
from app.services.errors import Conflict, Forbidden, ServiceError
from app.services.match_lifecycle import agent_seat
from app.services.match_store import MatchRow, SeatRow
from app.services.match_tokens import hash_token, new_token, seat_needed
from app.services.match_turns import run_ai
from app.services.match_views import match_view
from app.services.notifier import notify


def join(session: Session, pool: AgentPool, match_id: str, token: str | None, name: str, client: str) -> dict[str, Any]:
    """``POST .../join``: the holder of a friend's seat's invite token takes it under ``name``. The
    seat's view, with the seat's new token under ``token`` (the invite's is dead from then on)."""
    match = match_store.read(session, match_id)
    digest = None if token is None else hash_token(token)
    if digest is not None and any(s.invite == "taken" and s.invite_hash is not None
                                  and secrets.compare_digest(s.invite_hash, digest) for s in match.seats):
        raise Conflict("this seat is not waiting for anyone: it was taken already")
    seat = seat_needed(match, token, "joining needs the invite's token: Authorization: Bearer <token>")
    row = match.seats[seat]
    if match.status != "waiting" and row.invite == "open":
        raise Conflict("the match is over")
    if row.invite != "open":
        raise Conflict("this seat is not waiting for anyone: it was taken already" if row.invite
                       else "this seat is not a friend's seat")
    fresh = new_token()
    taken = replace(row, name=name, invite="taken", client=client, token_hash=hash_token(fresh))
    return {**_fill(session, pool, match, seat, [taken]), "token": fresh}


def start(session: Session, pool: AgentPool, match_id: str, token: str | None, levels: dict[int, int]) -> dict[str, Any]:
    """``POST .../start``: the creator starts before every friend has joined; each seat still
    empty gets an AI of the level ``levels`` names for it. The creator's view."""
    match = match_store.read(session, match_id)
    seat = seat_needed(match, token, "starting needs the creator's token: Authorization: Bearer <token>")
    if match.seats[seat].invite is not None or match.seats[seat].kind != "human":
        raise Forbidden("only the match's creator can start it before everyone has joined")
    if match.status != "waiting":
        raise Conflict("the match has started already")
    empty = [s.seat for s in match.seats if s.invite == "open"]
    missing = [s for s in empty if s not in levels]
    if missing or set(levels) - set(empty):
        raise ServiceError(f"give a level for each empty seat: {empty} (got {sorted(levels)})")
    return _fill(session, pool, match, seat, [agent_seat(session, pool, match.game, n, levels[n], None) for n in empty])


def _fill(session: Session, pool: AgentPool, match: MatchRow, seat: int, changed: list[SeatRow]) -> dict[str, Any]:
    """Store the seats (409 if one of them was taken meanwhile); when none is left open the match
    starts and the AIs to move first play. The view of ``seat`` after."""
    if match_store.fill_seats(session, match, changed):
        run_ai(session, pool, match_store.read(session, match.id))
    notify(match.id)
    return match_view(session, match_store.read(session, match.id), seat)
