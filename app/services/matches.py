"""Matches: create, view per seat, play a move, let AI seats reply, finish and learn.

Everything lives in the database; a move is recorded with an optimistic check on
the ply (``UPDATE ... WHERE ply = expected``), so two requests racing for the same
turn cannot both land, whichever process serves them.
"""
from __future__ import annotations

import hashlib
import random
import secrets
import time
import uuid
from dataclasses import dataclass

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from agents.base import Episode, explain
from agents.catalog import spec
from app.models import Match, Move, Seat, now
from app.services import live
from app.services.agents import AgentPool, resolve_seat_agent
from app.services.errors import Conflict, Forbidden, NotFound, ServiceError, Unauthorized
from engine import RESIGN, Game, GameError, IllegalActionError, get_game

MAX_AI_MOVES_PER_REQUEST = 5_000
LOG_TAIL = 60


@dataclass
class SeatRequest:
    type: str
    name: str | None = None
    level: int | None = None
    agent: str | None = None


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def get_match(session: Session, match_id: str) -> Match:
    match = session.get(Match, match_id)
    if match is None:
        raise NotFound(f"no match {clip(match_id)!r}")
    return match


def seat_of(match: Match, token: str | None) -> int | None:
    """The seat a bearer token belongs to; None without a token; 403 for a wrong one."""
    if token is None:
        return None
    digest = hash_token(token)
    for s in match.seats:
        if s.token_hash is not None and secrets.compare_digest(s.token_hash, digest):
            return s.seat
    raise Forbidden("that token does not belong to a seat of this match")


def has_hidden_information(game: Game) -> bool:
    return bool(getattr(game, "has_hidden_information", False))


# ----- creating -----
def create_match(session: Session, pool: AgentPool, game_name: str, seats: list[SeatRequest],
                 options: dict | None = None, seed: int | None = None, delay_ms: int = 700,
                 rematch_of: str | None = None, client: str | None = None) -> tuple[Match, dict[int, str | None]]:
    """A new match; returns it with the secrets to hand out: each human seat's token and, for
    an AI-only match, the control token under key ``"control"``."""
    game = get_game(game_name)
    game.check_players(len(seats))
    options = game.resolve_options(options)
    rows, tokens = [], {}
    for i, req in enumerate(seats):
        if req.type == "human":
            token = secrets.token_urlsafe(24)
            tokens[i] = token
            rows.append(Seat(seat=i, kind="human", name=(req.name or f"Player {i + 1}")[:64],
                             token_hash=hash_token(token)))
        elif req.type == "agent":
            agent_id, level = resolve_seat_agent(game_name, req.level, req.agent)
            s = spec(game_name, agent_id)
            refuses = getattr(pool.get(session, game_name, agent_id), "refuses", None)
            if refuses is not None and refuses(i):
                raise Conflict(f"{s.title} has no beads left in its first box and refuses to play "
                               "first until it is reset")
            rows.append(Seat(seat=i, kind="agent", name=req.name or s.title, agent=agent_id, level=level))
        else:
            raise ServiceError(f"seat {i}: type must be 'human' or 'agent', got {req.type!r}")
    if seed is None:
        seed = secrets.randbits(48)
    if not 0 <= seed < 2 ** 62:
        raise ServiceError("seed must be a whole number from 0 to 2**62")
    if not 0 <= delay_ms <= 60_000:
        raise ServiceError("delay_ms must be between 0 and 60000")
    control_token = None if tokens else secrets.token_urlsafe(24)
    state = game.new_match(len(seats), seed, options)
    match = Match(id=uuid.uuid4().hex, game=game_name, options=options, seed=seed, state=game.to_json(state),
                  ply=0, status="active", ai_only=not tokens, delay_ms=delay_ms, paused=False, steps=0,
                  last_move_at=time.time(), rematch_of=rematch_of, seats=rows, client=client,
                  control_hash=hash_token(control_token) if control_token else None)
    session.add(match)
    session.commit()
    if tokens:
        run_ai(session, pool, match)
    return match, {**tokens, "control": control_token}


# ----- moving -----
def _record(session: Session, match: Match, game: Game, state, seat: int, action_id: str, label: str,
            explanation: dict | None):
    """Store one move (numbered by the ply before it) atomically; Conflict when another
    request moved first. Returns ``state``."""
    over = game.is_over(state)
    ply = match.ply
    values = dict(state=game.to_json(state), ply=ply + 1, last_move_at=time.time())
    if over:
        values.update(status="finished", finished_at=now())
    if match.paused and match.steps > 0:
        values["steps"] = match.steps - 1
    done = session.execute(update(Match).where(Match.id == match.id, Match.ply == ply)
                           .values(**values).execution_options(synchronize_session=False)).rowcount
    if not done:
        session.rollback()
        raise Conflict("the match moved on before this move; reload it")
    session.add(Move(match_id=match.id, ply=ply, seat=seat, action=action_id, label=label,
                     explanation=explanation))
    if over:
        scores, winners = game.scores(state), set(game.winners(state))
        for s in match.seats:
            s.score, s.won = float(scores[s.seat]), s.seat in winners
    session.commit()
    session.refresh(match)
    if over:
        learn_from(session, match, game)
    return state


def play_human(session: Session, pool: AgentPool, match: Match, seat: int, action_id: str,
               ply: int | None) -> list[tuple[Move, dict]]:
    """A person's move (checked), then the AI seats' replies. Returns the moves made, each
    with the mover's seat's view after it (so a page can show them one by one)."""
    game = get_game(match.game)
    state = game.from_json(match.state)
    if match.status != "active":
        raise Conflict("the match is over")
    if ply is not None and ply != match.ply:
        raise Conflict(f"stale move: the match is at ply {match.ply}, not {ply}; reload it")
    if game.current_player(state) != seat:
        raise Conflict("it is not your turn")
    start = match.ply
    check_canonical(game, state, action_id)
    new_state = game.apply_id(state, action_id)  # IllegalActionError -> 409, match unchanged
    label = "resigns" if action_id == RESIGN else game.action_label(game.parse_action(action_id))
    states = [_record(session, match, game, new_state, seat, action_id, label, None)]
    try:
        states += run_ai(session, pool, match)
    except Conflict:  # another request (a racing move's or a watcher's) made the AI's replies: fine
        session.rollback()
        session.refresh(match)
    moves = session.scalars(select(Move).where(Move.match_id == match.id, Move.ply >= start).order_by(Move.ply))
    return [(m, game.observe(st, seat)) for m, st in zip(moves, states)]


def check_canonical(game: Game, state, action_id: str) -> None:
    """Action ids are canonical ASCII (``cell:4``; not ``cell:٤``, ``cell:04`` or ``CELL:4``):
    an id the game reads differently from how it writes it is refused (422), one it cannot
    read at all is an illegal action (409); both messages show the legal ids' format."""
    if action_id == RESIGN:
        return
    examples = ", ".join(a.id for a in game.legal_actions(state)[:4]) or "none now"
    hint = f"ids are written exactly as listed in legal_actions (for example {examples}) or 'resign'"
    try:
        parsed = game.parse_action(action_id) if action_id.isascii() else None
    except IllegalActionError as err:
        raise IllegalActionError(clip(action_id), f"{clip(err.reason, 200)}; {hint}") from None
    except (GameError, ValueError, TypeError, KeyError, IndexError, AttributeError):
        raise IllegalActionError(clip(action_id), f"not an action of {game.title}; {hint}") from None
    if parsed is None or getattr(parsed, "id", None) != action_id:
        raise ServiceError(f"action {clip(action_id)!r} is not in canonical form: {hint}")


def clip(text: str, limit: int = 40) -> str:
    """At most ``limit`` characters of someone's input, for a message."""
    return text if len(text) <= limit else text[:limit] + "…"


def ai_move(session: Session, pool: AgentPool, match: Match):
    """Let the AI seat to move play once; returns the new state, or None when no AI is to move."""
    game = get_game(match.game)
    state = game.from_json(match.state)
    if match.status != "active" or game.is_over(state):
        return None
    seat = game.current_player(state)
    row = match.seats[seat]
    if row.kind != "agent":
        return None
    agent = pool.get(session, match.game, row.agent)
    observation = game.observe(state, seat)
    legal = game.legal_actions(state)
    rng = random.Random(f"{match.seed}:ai:{match.ply}")
    action = agent.act(observation, legal, rng)
    why = explain(agent, observation, legal)
    why_json = None
    if why is not None:
        why_json = {**why.to_json(), "labels": {a.id: game.action_label(a) for a in legal if a.id in why.values}}
    if action == RESIGN:
        return _record(session, match, game, game.resign(state, seat), seat, RESIGN, "resigns", why_json)
    return _record(session, match, game, game.apply(state, action), seat, action.id,
                   game.action_label(action), why_json)


def run_ai(session: Session, pool: AgentPool, match: Match) -> list:
    """AI seats move until a person is to move or the match ends; returns the states after each."""
    states = []
    for _ in range(MAX_AI_MOVES_PER_REQUEST):
        state = ai_move(session, pool, match)
        if state is None:
            break
        states.append(state)
    return states


def due(match: Match) -> bool:
    """An AI-only match being watched: is the next move due?"""
    if not match.ai_only or match.status != "active":
        return False
    if match.paused:
        return match.steps > 0
    return time.time() - match.last_move_at >= match.delay_ms / 1000


def control(session: Session, match: Match, token: str | None, action: str, delay_ms: int | None) -> Match:
    if not match.ai_only:
        raise Conflict("only AI-only matches can be paused and stepped")
    if token is None:
        raise Unauthorized("controlling a match needs its control token: Authorization: Bearer <control_token>")
    if match.control_hash is None or not secrets.compare_digest(match.control_hash, hash_token(token)):
        raise Forbidden("that is not this match's control token")
    if action == "pause":
        match.paused = True
    elif action == "resume":
        match.paused, match.steps = False, 0
    elif action == "step":
        match.paused, match.steps = True, match.steps + 1
    elif action != "speed":
        raise ServiceError("control action is one of pause, resume, step, speed")
    if delay_ms is not None:
        if not 0 <= delay_ms <= 60_000:
            raise ServiceError("delay_ms must be between 0 and 60000")
        match.delay_ms = delay_ms
    session.commit()
    return match


# ----- learning -----
def replay_states(game: Game, match: Match, moves: list[Move]):
    """(state before the move, move) for every move, rebuilt from the seed."""
    state = game.new_match(len(match.seats), match.seed, match.options)
    for move in moves:
        yield state, move
        state = game.apply_id(state, move.action)


def learn_from(session: Session, match: Match, game: Game) -> None:
    """Every live learner seated in the finished match learns from it, atomically, unless its
    client's learning limit is reached; ``match.learning`` says for each which happened."""
    learners = [s for s in match.seats if s.kind == "agent" and spec(match.game, s.agent).live is not None]
    if not learners:
        return
    moves = list(session.scalars(select(Move).where(Move.match_id == match.id).order_by(Move.ply)))
    final = game.from_json(match.state)
    winners = game.winners(final)
    outcome = {}
    for s in learners:
        episode = Episode(seat=s.seat, score=float(s.score or 0), won=s.seat in winners, drawn=not winners)
        for state, move in replay_states(game, match, moves):
            if move.seat == s.seat:
                episode.steps.append((game.observe(state, s.seat), move.action))
        learner = live.make_live_agent(session, match.game, s.agent, own_copy=True)
        why_not = live.apply_updates(session, match.game, s.agent, learner.learn(episode), client=match.client or "")
        outcome[str(s.seat)] = {"agent": s.agent, "learned": why_not is None,
                                **({"reason": f"not learned from: {why_not}"} if why_not else {})}
    match.learning = outcome
    session.commit()


# ----- views -----
def public_explanation(game: Game, match: Match, move: Move, viewer: int | None) -> dict | None:
    """An AI's reasoning as this viewer may see it: in card games with people at the table it
    would show the AI's hand, so until the match ends only the value of the move it made is given."""
    e = move.explanation
    if e is None:
        return None
    if match.ai_only or match.status == "finished" or not has_hidden_information(game) or viewer == move.seat:
        return e
    values = {k: v for k, v in e["values"].items() if k == move.action}
    return {"label": e["label"], "values": values, "labels": {move.action: move.label},
            "note": "the values of its other options are shown when the match ends (they would show its hand)"}


def move_json(game: Game, match: Match, move: Move, viewer: int | None) -> dict:
    return {"ply": move.ply, "seat": move.seat, "action": move.action, "label": move.label,
            "explanation": public_explanation(game, match, move, viewer)}


def seat_json(s: Seat) -> dict:
    return {"seat": s.seat, "type": s.kind, "name": s.name, "agent": s.agent, "level": s.level,
            "score": s.score, "won": s.won}


def match_view(session: Session, match: Match, seat: int | None) -> dict:
    game = get_game(match.game)
    state = game.from_json(match.state)
    over = game.is_over(state)
    to_move = None if over else game.current_player(state)
    legal = []
    if seat is not None and seat == to_move:
        legal = [{"id": a.id, "label": game.action_label(a)} for a in game.legal_actions(state)]
    tail = list(session.scalars(select(Move).where(Move.match_id == match.id)
                                .order_by(Move.ply.desc()).limit(LOG_TAIL)))[::-1]
    last_ai = next((m for m in reversed(tail) if m.explanation is not None), None)
    return {
        "id": match.id, "game": match.game, "status": match.status, "ply": match.ply,
        "seat": seat, "to_move": to_move, "ai_only": match.ai_only, "options": match.options,
        "delay_ms": match.delay_ms, "paused": match.paused,
        "created_at": match.created_at.isoformat(), "rematch_of": match.rematch_of,
        "seats": [seat_json(s) for s in match.seats],
        "view": game.observe(state, seat, reveal=match.ai_only),
        "legal_actions": legal,
        "can_resign": bool(legal) and _can_resign(game, state, seat),
        "moves": [move_json(game, match, m, seat) for m in tail],
        "last_explanation": ({"ply": last_ai.ply, "seat": last_ai.seat, "action": last_ai.action,
                              **public_explanation(game, match, last_ai, seat)} if last_ai else None),
        "result": {"scores": game.scores(state), "winners": game.winners(state)} if over else None,
        "learning": match.learning,
    }


def _can_resign(game: Game, state, seat: int | None) -> bool:
    try:
        game.resign(state, seat)
    except GameError:
        return False
    return True


def replay(session: Session, match: Match, seat: int | None) -> dict:
    """Every move with the acting AI's explanation and the view after it. Hands are shown
    only when the match is over or AI-only."""
    game = get_game(match.game)
    reveal = match.ai_only or match.status == "finished"
    moves = list(session.scalars(select(Move).where(Move.match_id == match.id).order_by(Move.ply)))
    steps = []
    for state, move in replay_states(game, match, moves):
        after = game.apply_id(state, move.action)
        steps.append({**move_json(game, match, move, seat), "view": game.observe(after, seat, reveal=reveal)})
    start = game.new_match(len(match.seats), match.seed, match.options)
    return {"id": match.id, "game": match.game, "status": match.status,
            "seats": [seat_json(s) for s in match.seats],
            "start": game.observe(start, seat, reveal=reveal), "moves": steps}
