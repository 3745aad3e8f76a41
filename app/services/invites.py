"""Friends at one table: a seat created as a friend's waits, with its token in an invite link,
until someone opens the link and gives a name; the match starts when every such seat is taken,
or when its creator starts it with an AI of a chosen level in each seat still empty."""
from __future__ import annotations

from sqlalchemy import exists, select, update
from sqlalchemy.orm import Session

from app.db import writing
from app.models import Match, Seat
from app.services.agents import AgentPool
from app.services.errors import Conflict, Forbidden, ServiceError
from app.services.matches import agent_seat, read_match, run_ai
from app.services.notifier import notify


def join(session: Session, pool: AgentPool, match: Match, seat: int, name: str, client: str) -> None:
    """The holder of a friend's seat's token takes it under ``name``."""
    row = match.seats[seat]
    if match.status != "waiting" and row.invite == "open":
        raise Conflict("the match is over")
    if row.invite != "open":
        raise Conflict("this seat is not waiting for anyone: it was taken already" if row.invite
                       else "this seat is not a friend's seat")
    row.name, row.invite, row.client = name, "taken", client
    _start_if_full(session, pool, match)


def start(session: Session, pool: AgentPool, match: Match, seat: int, levels: dict[int, int]) -> None:
    """The creator starts before every friend has joined: each seat still empty gets an AI of
    the level ``levels`` names for it."""
    if match.seats[seat].invite is not None or match.seats[seat].kind != "human":
        raise Forbidden("only the match's creator can start it before everyone has joined")
    if match.status != "waiting":
        raise Conflict("the match has started already")
    empty = [s.seat for s in match.seats if s.invite == "open"]
    missing = [s for s in empty if s not in levels]
    if missing or set(levels) - set(empty):
        raise ServiceError(f"give a level for each empty seat: {empty} (got {sorted(levels)})")
    for number in empty:
        old = match.seats[number]
        new = agent_seat(session, pool, match.game, number, levels[number], None)
        old.kind, old.name, old.agent, old.level = new.kind, new.name, new.agent, new.level
        old.token_hash, old.invite = None, None
    _start_if_full(session, pool, match)


def _start_if_full(session: Session, pool: AgentPool, match: Match) -> None:
    """Store the seats; the match starts (in one conditional update, so two friends joining at
    once cannot both miss it) when no seat is left open, and the AIs to move first then play."""
    with writing():
        session.commit()
        open_seats = select(Seat.seat).where(Seat.match_id == match.id, Seat.invite == "open")
        started = session.execute(update(Match).where(Match.id == match.id, Match.status == "waiting",
                                                      ~exists(open_seats)).values(status="active")
                                  .execution_options(synchronize_session=False)).rowcount
        session.commit()
    if started:
        run_ai(session, pool, read_match(session, match.id))
    notify(match.id)
