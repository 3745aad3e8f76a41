"""A match's life outside its turns: created (or a rematch), controlled while AIs play it alone,
resigned. A seat's token and an AI-only match's control token are handed out here, once."""
from __future__ import annotations

import secrets
import time
import uuid
from dataclasses import dataclass
from functools import partial
from typing import Any

from anyio import to_thread
from sqlalchemy.orm import Session

from agents.catalog import spec
from agents.base import Refuses
from app.models import now
from app.services import match_store, quotas
from app.services.agents import AgentPool, resolve_seat_agent
from app.services.catalog import known_game
from app.services.errors import Conflict, ServiceError, Unauthorized
from app.services.match_endings import check_playing, finish_early
from app.services.match_store import MatchRow, SeatRow
from app.services.match_tokens import check_control, hash_token, new_token, seat_needed, seat_of
from app.services.match_turns import ai_only_delay, at_once, play_human, run_ai, seat_agents
from app.services.match_views import can_resign, match_view
from app.services.notifier import notify
from engine import RESIGN, get_game


@dataclass
class SeatRequest:
    type: str
    name: str | None = None
    level: int | None = None
    agent: str | None = None


async def create(session: Session, pool: AgentPool, game_name: str, seats: list[SeatRequest],
                 options: dict[str, Any], seed: int | None, delay_ms: int, client: str,
                 hints: bool) -> dict[str, Any]:
    """``POST /api/matches``: the new match's id and secrets (``created_json``). Made on the event
    loop, as a move is (``match_turns.move``), unless an AI that moves first takes longer."""
    make = partial(create_match, session, pool, game_name, seats, options, seed, delay_ms, client=client, hints=hints)
    agents = seat_agents(game_name, [(s.level, s.agent) for s in seats if s.type == "agent"])
    if agents is None or at_once(session, game_name, agents):  # a seat no AI fits is refused without any work
        return created_json(*make())
    return created_json(*await to_thread.run_sync(make))


def create_match(session: Session, pool: AgentPool, game_name: str, seats: list[SeatRequest],
                 options: dict[str, Any] | None = None, seed: int | None = None, delay_ms: int = 700,
                 rematch_of: str | None = None, client: str | None = None,
                 hints: bool = False) -> tuple[MatchRow, dict[int | str, str | None]]:
    """A new match; returns it with the secrets to hand out: each human seat's token and, for
    an AI-only match, the control token under key ``"control"``. A match ``hints`` lets its
    people ask the coach during play; it is marked in the results and left out of the ratings.
    Without a ``seed`` the server draws one (``server_seed``) and it stays secret; a match whose
    creator gives one is replayable but neither rated nor learned from (``ratings.SEED_CHOSEN``)."""
    game = get_game(known_game(game_name))
    game.check_players(len(seats))
    options = game.resolve_options(options)
    rows: list[SeatRow] = []
    tokens: dict[int | str, str | None] = {}
    for i, req in enumerate(seats):
        if req.type in ("human", "friend"):
            token = tokens[i] = new_token()
            friend = req.type == "friend"
            rows.append(SeatRow(seat=i, kind="human", name=req.name or ("Friend" if friend else f"Player {i + 1}"),
                                agent=None, level=None, token_hash=hash_token(token), score=None, won=None,
                                invite="open" if friend else None, client=None if friend else client,
                                invite_hash=hash_token(token) if friend else None))
        elif req.type == "agent":
            rows.append(agent_seat(session, pool, game_name, i, req.level, req.agent, req.name))
        else:
            raise ServiceError(f"seat {i}: type must be 'human', 'friend' or 'agent', got {req.type!r}")
    invited = any(r.invite for r in rows)
    if invited and not any(r.kind == "human" and not r.invite for r in rows):
        raise ServiceError("a match with friends' seats needs a seat of type 'human' for its creator "
                           "(who can start it before every friend has joined)")
    seed_chosen = seed is not None
    if seed is None:
        seed = server_seed()
    if not 0 <= seed < 2 ** 62:
        raise ServiceError("seed must be a whole number from 0 to 2**62")
    if not 0 <= delay_ms <= 60_000:
        raise ServiceError("delay_ms must be between 0 and 60000")
    control_token = None if tokens else new_token()
    match = MatchRow(id=uuid.uuid4().hex, game=game_name, options=options, seed=seed, seed_chosen=seed_chosen,
                     ply=0, status="waiting" if invited else "active", ai_only=not tokens,
                     delay_ms=ai_only_delay(delay_ms) if not tokens else delay_ms, paused=False, steps=0,
                     last_move_at=time.time(), rematch_of=rematch_of, client=client,
                     control_hash=hash_token(control_token) if control_token else None, learning=None,
                     hints=hints, ending=None, created_at=now(), finished_at=None, seats=tuple(rows),
                     state=game.new_match(len(seats), seed, options))

    def check_limits() -> None:
        if client is not None:
            quotas.check_creations(session, client)
            if not tokens:
                quotas.check_budget(session, client)

    match_store.insert_match(session, match, check_limits)
    if tokens:
        match, _ = run_ai(session, pool, match)
    return match, {**tokens, "control": control_token}


def server_seed() -> int:
    """A match's seed when its creator gives none: 62 random bits from the system's source, never
    served. Each deal, reshuffle and AI's draw of chance has a generator of its own, seeded with
    the seed's text and a label (``engine.base.chance``; Python hashes a text seed with SHA-512),
    so the hands shown at the end of one deal give away the next one only to someone who tries
    seeds one by one, up to 2**62 of them (2**48 before)."""
    return secrets.randbits(62)


def agent_seat(session: Session, pool: AgentPool, game_name: str, i: int, level: int | None,
               agent: str | None, name: str | None = None) -> SeatRow:
    """An AI's seat at ``level`` (or of ``agent``); 409 when that AI refuses the seat."""
    agent_id, level = resolve_seat_agent(game_name, level, agent)
    s = spec(game_name, agent_id)
    player = pool.get(session, game_name, agent_id)
    if isinstance(player, Refuses) and player.refuses(i):
        raise Conflict(f"{s.title} has no beads left in its first box and refuses to play "
                       "first until it is reset")
    return SeatRow(seat=i, kind="agent", name=name or s.title, agent=agent_id, level=level, token_hash=None,
                   score=None, won=None, invite=None, client=None)


def created_json(match: MatchRow, secrets: dict[int | str, str | None]) -> dict[str, Any]:
    """The new match's id and secrets: the token of each person's seat that is not a friend's, and
    for each friend's seat the path of its invite link (the token rides in the fragment, which
    browsers never send to a server). An invite's token is good only for joining
    (``invites.join`` gives the seat a new one), so it is not among ``tokens``."""
    control = secrets.pop("control", None)
    invites = {str(s.seat): f"/play/{match.id}#join={s.seat}.{secrets[s.seat]}" for s in match.seats if s.invite}
    tokens = {str(k): v for k, v in secrets.items() if str(k) not in invites}
    return {"id": match.id, "status": match.status, "tokens": tokens,
            **({"invites": invites} if invites else {}), **({"control_token": control} if control else {})}


def rematch(session: Session, pool: AgentPool, match_id: str, token: str | None, client: str,
            swap: bool) -> dict[str, Any]:
    """``POST .../rematch``: a new match with the same seats (rotated with ``swap``); the caller
    must hold a seat's token unless the match was AI-only. The other people at the table get
    friends' seats (their invite links go to the caller, whose hold on those seats ends as each
    is joined)."""
    old = match_store.read(session, match_id)
    caller = seat_of(old, token)
    if not old.ai_only and caller is None:
        raise Unauthorized("a rematch needs the token of a seat of this match")
    seats = [SeatRequest("friend" if s.kind == "human" and caller is not None and s.seat != caller else s.kind,
                         s.name, s.level, s.agent) for s in old.seats]
    if swap:
        seats = seats[1:] + seats[:1]
    match, secrets = create_match(session, pool, old.game, seats, old.options, None, old.delay_ms,
                                  rematch_of=old.id, client=client, hints=old.hints)
    return created_json(match, secrets)


def control(session: Session, match_id: str, token: str | None, action: str, delay_ms: int | None) -> dict[str, Any]:
    """``POST .../control``: pause, resume, step or change the pace of an AI-only match; its
    controls after."""
    match = match_store.read(session, match_id)
    if not match.ai_only:
        raise Conflict("only AI-only matches can be paused and stepped")
    check_control(match, token)
    paused, steps, delay = match.paused, match.steps, match.delay_ms
    if action == "pause":
        paused = True
    elif action == "resume":
        if match.paused:  # a paused match did not count in its creator's budget
            quotas.check_budget(session, match.client, but=match.id)
        paused, steps = False, 0
    elif action == "step":
        paused, steps = True, steps + 1
    elif action != "speed":
        raise ServiceError("control action is one of pause, resume, step, speed")
    if delay_ms is not None:
        if not 0 <= delay_ms <= 60_000:
            raise ServiceError("delay_ms must be between 0 and 60000")
        delay = ai_only_delay(delay_ms)
    match = match_store.set_controls(session, match, paused, steps, delay)
    notify(match.id)
    return {"paused": match.paused, "steps": match.steps, "delay_ms": match.delay_ms}


def resign(session: Session, pool: AgentPool, match_id: str, token: str | None) -> dict[str, Any]:
    """``POST .../resign``: the seat concedes, on its turn or not; its view after. Where the rules
    have a resignation (noughts and crosses, on the resigner's turn) it is played as a move, so
    learners learn from it; otherwise the match is finished as it stands: every other seat wins,
    the points so far are kept."""
    match = match_store.read(session, match_id)
    seat = seat_needed(match, token, "resigning needs the seat's token: Authorization: Bearer <token>")
    game = get_game(match.game)
    check_playing(session, match)
    if game.current_player(match.state) == seat and can_resign(game, match.state, seat):
        match, _ = play_human(session, pool, match, seat, RESIGN, None)
    else:
        match = finish_early(session, match, {"kind": "resigned", "seat": seat},
                             [s.seat for s in match.seats if s.seat != seat])
    return match_view(session, match, seat)
