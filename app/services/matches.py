"""Matches: create, view per seat, play a move, let AI seats reply, finish and learn.

Everything lives in the database; a move is recorded with an optimistic check on
the ply (``UPDATE ... WHERE ply = expected``), so two requests racing for the same
turn cannot both land, whichever process serves them.
"""
from __future__ import annotations

import hashlib
import random
import re
import secrets
import time
import uuid
from dataclasses import dataclass
from types import SimpleNamespace
from typing import NamedTuple

import orjson

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from agents.base import Episode, Explanation, explain
from agents.catalog import spec
from app.db import writing
from app.statements import Statement
from app.settings import get_settings
from app.models import Match, Move, Seat, now
from app.services.memory import MEMORY
from app.services.notifier import notify
from app.services.people import display_names
from app.services import canary, live, quotas, ratings, thinking
from app.services.catalog import known_game
from app.services.agents import AgentPool, resolve_seat_agent
from app.services.errors import Conflict, Forbidden, NotFound, ServiceError, Unauthorized
from engine import RESIGN, ActionSyntaxError, Game, GameError, get_game

MATCH_ID = re.compile("[0-9a-f]{32}")
"""The form of every match id (``uuid4().hex``): any other names no match, and is never looked up."""
MAX_AI_MOVES_PER_REQUEST = 5_000
LOG_TAIL = 60
MOVE_COLUMNS = (Move.ply, Move.seat, Move.action, Move.label, Move.explanation)
"""What a view shows of a move, read as plain rows (no ORM objects to build)."""

# The statements of every turn run on the driver's cursor (app.statements: SQLAlchemy's own
# execution cost several times the query itself).
# A match's row without its state, which the process usually remembers (app.services.memory).
_MATCH_ROW = Statement(select(*(c for c in Match.__table__.c if c.name != "state")).where(Match.id == bindparam("id")))
_MATCH_ROW_WITH_STATE = Statement(select(Match.__table__).where(Match.id == bindparam("id")))
_SEAT_ROWS = Statement(select(Seat.__table__).where(Seat.match_id == bindparam("id")).order_by(Seat.seat))
_TAIL = Statement(select(*MOVE_COLUMNS).where(Move.match_id == bindparam("id"))
                  .order_by(Move.ply.desc()).limit(bindparam("limit")))
_ADVANCE = Statement(
    update(Match.__table__)
    .where(Match.id == bindparam("match"), Match.ply == bindparam("expected"), Match.status == "active")
    .values(state=bindparam("new_state", type_=Match.state.type), ply=bindparam("new_ply"),
            last_move_at=bindparam("new_last_move_at"), status=bindparam("new_status"),
            finished_at=bindparam("new_finished_at", type_=Match.finished_at.type), steps=bindparam("new_steps")))
_INSERT_MOVE = Statement(insert(Move.__table__))
_SEAT_RESULT = Statement(
    update(Seat.__table__).where(Seat.match_id == bindparam("match"), Seat.seat == bindparam("number"))
    .values(score=bindparam("new_score"), won=bindparam("new_won")))
_LEARNING = Statement(update(Match.__table__).where(Match.id == bindparam("match"))
                      .values(learning=bindparam("new_learning", type_=Match.learning.type)))
_AFTER = Statement(select(*MOVE_COLUMNS).where(Move.match_id == bindparam("id"), Move.ply > bindparam("after"))
                   .order_by(Move.ply))


@dataclass
class SeatRequest:
    type: str
    name: str | None = None
    level: int | None = None
    agent: str | None = None


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def unknown_match(match_id: str) -> NotFound:
    return NotFound(f"no match {clip(match_id)!r}")


def get_match(session: Session, match_id: str) -> Match:
    if not MATCH_ID.fullmatch(match_id):
        raise unknown_match(match_id)
    match = session.get(Match, match_id)
    if match is None:
        raise unknown_match(match_id)
    return match


def read_match(session: Session, match_id: str) -> SimpleNamespace:
    """A match to read (view, stream, move), as plain rows: the same attributes as ``Match`` and
    its ``seats``, without building ORM objects, its state parsed. The state and the seats of an
    active match come from this process's memory when it has them (one query instead of three)."""
    if not MATCH_ID.fullmatch(match_id):
        raise unknown_match(match_id)
    conn = session.connection()
    row = _MATCH_ROW.first(conn, id=match_id)
    if row is None:
        raise unknown_match(match_id)
    state = MEMORY.state(match_id, row["ply"])
    if state is None:  # the row again with its state: both from the same moment
        row = _MATCH_ROW_WITH_STATE.first(conn, id=match_id)
        if row is None:
            raise NotFound(f"no match {clip(match_id)!r}")
    seats = MEMORY.seats(match_id) if row["status"] == "active" else None
    if seats is None:
        seats = tuple(_SEAT_ROWS.rows(conn, id=match_id))
        if row["status"] == "active":
            MEMORY.put_seats(match_id, seats)
    match = SimpleNamespace(**row, seats=[SimpleNamespace(**s) for s in seats])
    if state is not None:
        match._parsed_state = (match.ply, state)
    return match


def moves_after(session: Session, match_id: str, after: int) -> list[SimpleNamespace]:
    return [SimpleNamespace(**m) for m in _AFTER.rows(session.connection(), id=match_id, after=after)]


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
    return game.type.hidden_information


# ----- creating -----
def create_match(session: Session, pool: AgentPool, game_name: str, seats: list[SeatRequest],
                 options: dict | None = None, seed: int | None = None, delay_ms: int = 700,
                 rematch_of: str | None = None, client: str | None = None,
                 hints: bool = False) -> tuple[Match, dict[int, str | None]]:
    """A new match; returns it with the secrets to hand out: each human seat's token and, for
    an AI-only match, the control token under key ``"control"``. A match ``hints`` lets its
    people ask the coach during play; it is marked in the results and left out of the ratings.
    Without a ``seed`` the server draws one (``server_seed``) and it stays secret; a match whose
    creator gives one is replayable but neither rated nor learned from (``ratings.SEED_CHOSEN``)."""
    game = get_game(known_game(game_name))
    game.check_players(len(seats))
    options = game.resolve_options(options)
    rows, tokens = [], {}
    for i, req in enumerate(seats):
        if req.type in ("human", "friend"):
            token = secrets.token_urlsafe(24)
            tokens[i] = token
            friend = req.type == "friend"
            rows.append(Seat(seat=i, kind="human", name=req.name or ("Friend" if friend else f"Player {i + 1}"),
                             token_hash=hash_token(token), invite="open" if friend else None,
                             client=None if friend else client))
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
    control_token = None if tokens else secrets.token_urlsafe(24)
    state = game.new_match(len(seats), seed, options)
    match = Match(id=uuid.uuid4().hex, game=game_name, options=options, seed=seed, seed_chosen=seed_chosen,
                  state=game.to_json(state),
                  ply=0, status="waiting" if invited else "active", ai_only=not tokens,
                  delay_ms=ai_only_delay(delay_ms) if not tokens else delay_ms, paused=False, steps=0,
                  last_move_at=time.time(), rematch_of=rematch_of, seats=rows, client=client,
                  control_hash=hash_token(control_token) if control_token else None, hints=hints)
    match.__dict__["_parsed_state"] = (0, state)
    with writing():  # counted and added under the lock: a client's limits are exact in this process
        if client is not None:
            quotas.check_creations(session, client)
            if not tokens:
                quotas.check_budget(session, client)
        session.add(match)
        session.commit()
    MEMORY.put_state(match.id, 0, state)
    MEMORY.put_tail(match.id, [], 0, LOG_TAIL)
    if tokens:
        run_ai(session, pool, match)
    return match, {**tokens, "control": control_token}


def server_seed() -> int:
    """A match's seed when its creator gives none: 62 random bits from the system's source, never
    served. Each deal, reshuffle and AI's draw of chance has a generator of its own, seeded with
    the seed's text and a label (``engine.base.chance``; Python hashes a text seed with SHA-512),
    so the hands shown at the end of one deal give away the next one only to someone who tries
    seeds one by one, up to 2**62 of them (2**48 before)."""
    return secrets.randbits(62)


def agent_seat(session: Session, pool: AgentPool, game_name: str, i: int, level: int | None,
               agent: str | None, name: str | None = None) -> Seat:
    """An AI's seat at ``level`` (or of ``agent``); 409 when that AI refuses the seat."""
    agent_id, level = resolve_seat_agent(game_name, level, agent)
    s = spec(game_name, agent_id)
    refuses = getattr(pool.get(session, game_name, agent_id), "refuses", None)
    if refuses is not None and refuses(i):
        raise Conflict(f"{s.title} has no beads left in its first box and refuses to play "
                       "first until it is reset")
    return Seat(seat=i, kind="agent", name=name or s.title, agent=agent_id, level=level)


def check_active(match) -> None:
    if match.status == "waiting":
        raise Conflict("the match has not started: it waits for the invited players to join "
                       "(or for its creator to start it with AIs in the empty seats)")
    if match.status != "active":
        raise Conflict("the match is over")


# ----- moving -----
def state_of(game: Game, match: Match):
    """The match's state as a value: parsed from its JSON once per ply and process (states
    never change; ``apply`` makes new ones), kept on the row object for the rest of the request."""
    cached = match.__dict__.get("_parsed_state")
    if cached is not None and cached[0] == match.ply:
        return cached[1]
    state = MEMORY.state(match.id, match.ply)
    if state is None:
        state = game.from_json(match.state)
        MEMORY.put_state(match.id, match.ply, state)
    match.__dict__["_parsed_state"] = (match.ply, state)
    return state


def _record(session: Session, match: Match, game: Game, made: list[tuple[SimpleNamespace, object]]) -> None:
    """Store moves made one after the other from the match's ply (each with the state after it),
    in one transaction; Conflict when another request moved first (then nothing is stored).
    ``match`` (a row object or ``read_match``'s rows) is brought up to date from what was
    written, without a reload."""
    state = made[-1][1]
    over = game.is_over(state)
    values = dict(state=game.to_json(state), ply=match.ply + len(made), last_move_at=time.time(),
                  status="finished" if over else match.status, finished_at=now() if over else match.finished_at,
                  steps=max(0, match.steps - len(made)) if match.paused else match.steps)
    results, winners = {}, set()
    if over:
        scores, winners = game.scores(state), set(game.winners(state))
        results = {s.seat: (float(scores[s.seat]), s.seat in winners) for s in match.seats}
    created_at = now()
    conn = session.connection()
    with writing():
        done = _ADVANCE.run(conn, match=match.id, expected=match.ply, **{f"new_{k}": v for k, v in values.items()})
        if not done:
            session.rollback()
            raise Conflict("the match moved on before this move; reload it")
        _INSERT_MOVE.run_many(conn, [{"match_id": match.id, "created_at": created_at, "ply": m.ply, "seat": m.seat,
                                         "action": m.action, "label": m.label, "explanation": m.explanation}
                                        for m, _ in made])
        for number, (score, won) in results.items():
            _SEAT_RESULT.run(conn, match=match.id, number=number, new_score=score, new_won=won)
        if over and ratings.unrated_reason(match) is None:
            ratings.rate_match(session, match.game, match.id, match.seats, winners)
        session.commit()
    for key, value in values.items():
        _set(match, key, value)
    for s in match.seats:
        if s.seat in results:
            _set(s, "score", results[s.seat][0])
            _set(s, "won", results[s.seat][1])
    match.__dict__["_parsed_state"] = (match.ply, state)
    MEMORY.put_state(match.id, match.ply, state)
    for m, _ in made:
        MEMORY.add_move(match.id, Played.of(m), LOG_TAIL)
    notify(match.id)
    if over:
        learn_from(session, match, game)


def _set(row, key: str, value) -> None:
    """Bring an ORM object (as already stored) or a plain row object up to date."""
    if hasattr(row, "_sa_instance_state"):
        set_committed_value(row, key, value)
    else:
        setattr(row, key, value)


def play_human(session: Session, pool: AgentPool, match: Match, seat: int, action_id: str,
               ply: int | None) -> list[tuple[SimpleNamespace, dict]]:
    """A person's move (checked), then the AI seats' replies. Returns the moves made, each
    with the mover's seat's view after it (so a page can show them one by one).

    One order of checks, the same in every game: the action's syntax (422, whatever the ply or
    the turn), then the state of the match (409: not started, over, abandoned, a stale ``ply``,
    not your turn), then the rules (409, with the reason)."""
    game = get_game(match.game)
    state = state_of(game, match)
    yours = match.status == "active" and not game.is_over(state) and game.current_player(state) == seat
    action = read_action(game, action_id, state if yours else None)
    check_active(match)
    if abandon_if_stale(session, match):
        raise Conflict(f"the match was abandoned: no move for {abandon_after_s()} s")
    if ply is not None and ply != match.ply:
        raise Conflict(f"stale move: the match is at ply {match.ply}, not {ply}; reload it")
    if game.current_player(state) != seat:
        raise Conflict("it is not your turn")
    if action is None:
        new_state, label = game.resign(state, seat), "resigns"
    else:  # IllegalActionError -> 409, the match unchanged
        new_state, label = game.apply(state, action), game.action_label(action)
    mine = SimpleNamespace(ply=match.ply, seat=seat, action=action_id, label=label, explanation=None)
    made = run_ai(session, pool, match, [(mine, new_state)])
    return [(m, game.observe(st, seat)) for m, st in made]


def replies_at_once(session: Session, match: Match) -> bool:
    """No AI seat of ``match`` searches, and the tables of its live learners are at hand: its
    replies take about a millisecond, not a budget or a table's build."""
    return _at_once(session, match.game, [s.agent for s in match.seats if s.kind == "agent"])


def creates_at_once(session: Session, game_name: str, seats: list[SeatRequest]) -> bool:
    """As ``replies_at_once`` for the AI seats asked for (an AI that moves first replies at once).
    A seat no AI fits is refused by ``create_match`` without any work: at once too."""
    try:
        agents = [resolve_seat_agent(game_name, s.level, s.agent)[0] for s in seats if s.type == "agent"]
    except GameError:
        return True
    return _at_once(session, game_name, agents)


def _at_once(session: Session, game_name: str, agents: list[str]) -> bool:
    specs = [spec(game_name, a) for a in dict.fromkeys(agents)]
    return not any(s.searches for s in specs) and all(live.ready(session, game_name, s.id)
                                                      for s in specs if s.live is not None)


def read_action(game: Game, action_id: str, yours):
    """The action with id ``action_id`` (None: resigning), or 422 when it is no action of the
    game: one it cannot read (``cell 0``), or reads differently from how it writes it (action
    ids are canonical ASCII: ``cell:4``, not ``cell:٤``, ``cell:04`` or ``CELL:4``). The
    message shows the ids' format, with the caller's legal ids as examples when ``yours`` is
    the state and it is their turn (None otherwise: another seat's legal ids could show its
    hand). Whether the action is legal now is not asked here."""
    if action_id == RESIGN:
        return None

    def hint() -> str:
        legal = [a.id for a in game.legal_actions(yours)[:4]] if yours is not None else []
        examples = f" (for example {', '.join(legal)})" if legal else ""
        return f"ids are written exactly as listed in legal_actions{examples} or 'resign'"

    try:
        parsed = game.parse_action(action_id) if action_id.isascii() else None
    except ActionSyntaxError as err:
        raise ServiceError(f"action {clip(action_id)!r} is not an action of {game.title}: {clip(err.reason, 200)}; "
                           f"{hint()}", field="body.action") from None
    except (GameError, ValueError, TypeError, KeyError, IndexError, AttributeError):
        raise ServiceError(f"action {clip(action_id)!r} is not an action of {game.title}; {hint()}",
                           field="body.action") from None
    if parsed is None or getattr(parsed, "id", None) != action_id:
        raise ServiceError(f"action {clip(action_id)!r} is not in canonical form: {hint()}", field="body.action")
    return parsed


def clip(text: str, limit: int = 40) -> str:
    """At most ``limit`` characters of someone's input, for a message."""
    return text if len(text) <= limit else text[:limit] + "…"


def _ai_choice(session: Session, pool: AgentPool, match: Match, game: Game, state, ply: int,
               agents: dict) -> tuple[SimpleNamespace, object] | None:
    """The move the AI seat to move in ``state`` (the match at ``ply``) chooses, with the state
    after it; None when the match is over or a person is to move. Nothing is stored. ``agents``
    keeps the agents fetched for this request."""
    if game.is_over(state):
        return None
    seat = game.current_player(state)
    row = match.seats[seat]
    if row.kind != "agent":
        return None
    observation = game.observe(state, seat)
    legal = game.legal_actions(state)
    rng_key, s = f"{match.seed}:ai:{ply}", spec(match.game, row.agent)
    rule = s.description
    if s.searches:  # seconds of CPU: thought in the helper process
        action, why = thinking.think(match.game, row.agent, observation, legal, rng_key)
        why_json = reasoning_of(game, rule, why, legal, game.deal_of(state))
    else:
        agent = agents.get(row.agent)
        if agent is None:
            agent = agents[row.agent] = pool.get(session, match.game, row.agent)
        action = agent.act(observation, legal, random.Random(rng_key))
        why_json = reasoning(game, rule, agent, observation, legal, game.deal_of(state))
    if action == RESIGN:
        after, action_id, label = game.resign(state, seat), RESIGN, "resigns"
    else:
        after, action_id, label = game.apply(state, action), action.id, game.action_label(action)
    return SimpleNamespace(ply=ply, seat=seat, action=action_id, label=label, explanation=why_json), after


def reasoning(game: Game, rule: str, agent, observation: dict, legal: list, deal: int) -> dict:
    """What is stored of an AI's reasoning for a move, all of it (what a viewer is given of it
    is decided when it is served: ``moves_json``): the values it gives its options (``explain``)
    with their labels, its ``rule`` in words (``reason``, so the panel always says why, values
    or none) and the ``deal`` the move is made in."""
    return reasoning_of(game, rule, explain(agent, observation, legal), legal, deal)


def reasoning_of(game: Game, rule: str, why: Explanation | None, legal: list, deal: int) -> dict:
    """``reasoning`` from the explanation the agent gave (None: it gives none), wherever it thought."""
    if why is None:
        return {"label": "", "values": {}, "note": "", "labels": {}, "reason": rule, "deal": deal}
    return {**why.to_json(), "labels": {a.id: game.action_label(a) for a in legal if a.id in why.values},
            "reason": rule, "deal": deal}


def ai_move(session: Session, pool: AgentPool, match: Match) -> tuple[SimpleNamespace, object] | None:
    """Let the AI seat to move play once and store it (a watched AI-only match); returns (the
    move, the new state), or None when no AI is to move."""
    game = get_game(match.game)
    if match.status != "active":
        return None
    step = _ai_choice(session, pool, match, game, state_of(game, match), match.ply, {})
    if step is not None:
        _record(session, match, game, [step])
    return step


def run_ai(session: Session, pool: AgentPool, match: Match,
           made: list[tuple[SimpleNamespace, object]] | None = None) -> list[tuple[SimpleNamespace, object]]:
    """AI seats move until a person is to move or the match ends, after ``made`` (moves chosen
    but not stored yet: a person's); all are stored together, in one transaction (Conflict when
    the match moved on meanwhile: then none is). Returns (move, state after it) for each."""
    game = get_game(match.game)
    made = list(made or [])
    if match.status != "active":
        return made
    state, agents = (made[-1][1] if made else state_of(game, match)), {}
    for _ in range(MAX_AI_MOVES_PER_REQUEST):
        step = _ai_choice(session, pool, match, game, state, match.ply + len(made), agents)
        if step is None:
            break
        made.append(step)
        state = step[1]
    if made:
        _record(session, match, game, made)
    return made


def ai_only_delay(delay_ms: int) -> int:
    """The pause an AI-only match asking for ``delay_ms`` gets: at least PARLOUR_AI_ONLY_MIN_DELAY_MS."""
    return max(delay_ms, get_settings().ai_only_min_delay_ms)


def due(match: Match) -> bool:
    """An AI-only match being watched: is the next move due?"""
    return due_in(match) == 0.0


def due_in(match: Match) -> float | None:
    """Seconds until the next move of a watched AI-only match is due (0: now); None when no
    move will come without a control (not AI-only, over, or paused with no step granted). A
    step granted while paused waits the shortest pause too (PARLOUR_AI_ONLY_MIN_DELAY_MS)."""
    if not match.ai_only or match.status != "active" or (match.paused and match.steps <= 0):
        return None
    delay = ai_only_delay(0 if match.paused else match.delay_ms)
    return max(0.0, match.last_move_at + delay / 1000 - time.time())


def resuming_held(session: Session, match: Match) -> str | None:
    """Why the next move of an AI-only match that is not running (its first move, or the first
    after nobody watched it for a while) may not be made now: its creator runs
    PARLOUR_AI_ONLY_RUNNING others already. None when it may. A paused match's steps are not held."""
    if match.paused or (match.ply > 0 and match.last_move_at + match.delay_ms / 1000 + quotas.IDLE_GRACE_S >= time.time()):
        return None  # stepped by its controller, or running already: it counts in its creator's budget
    return quotas.over_budget(session, match.client, but=match.id)


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
        if match.paused:  # a paused match did not count in its creator's budget
            quotas.check_budget(session, match.client, but=match.id)
        match.paused, match.steps = False, 0
    elif action == "step":
        match.paused, match.steps = True, match.steps + 1
    elif action != "speed":
        raise ServiceError("control action is one of pause, resume, step, speed")
    if delay_ms is not None:
        if not 0 <= delay_ms <= 60_000:
            raise ServiceError("delay_ms must be between 0 and 60000")
        match.delay_ms = ai_only_delay(delay_ms)
    session.commit()
    notify(match.id)
    return match


# ----- ending early -----
def resign(session: Session, pool: AgentPool, match: Match, seat: int) -> None:
    """``seat`` concedes, on its turn or not. Where the rules have a resignation (noughts and
    crosses, on the resigner's turn) it is played as a move, so learners learn from it; otherwise
    the match is finished as it stands: every other seat wins, the points so far are kept."""
    game = get_game(match.game)
    state = state_of(game, match)
    check_active(match)
    if abandon_if_stale(session, match):
        raise Conflict(f"the match was abandoned: no move for {abandon_after_s()} s")
    if game.current_player(state) == seat and _can_resign(game, state, seat):
        play_human(session, pool, match, seat, RESIGN, None)
        return
    _finish_early(session, match, game, {"kind": "resigned", "seat": seat},
                  [s.seat for s in match.seats if s.seat != seat])


def abandon_after_s() -> int:
    return get_settings().abandon_after_s


def abandon_if_stale(session: Session, match: Match) -> bool:
    """Finish ``match`` as abandoned when nobody moved for ``PARLOUR_ABANDON_AFTER_S``."""
    idle = time.time() - match.last_move_at
    if match.status != "active" or idle < 1:  # the setting is whole seconds: no need to read it
        return False
    after = abandon_after_s()
    if after <= 0 or idle < after:
        return False
    _finish_early(session, match, get_game(match.game), {"kind": "abandoned", "after_s": after}, [])
    return True


def abandon_stale(session: Session) -> int:
    """Finish as abandoned every active match with no move for ``PARLOUR_ABANDON_AFTER_S``
    (nobody wins, nothing is rated or learned); returns how many."""
    after = abandon_after_s()
    if after <= 0:
        return 0
    stale = (Match.status.in_(("active", "waiting")), Match.last_move_at < time.time() - after)
    if session.scalar(select(Match.id).where(*stale).limit(1)) is None:
        return 0  # a read, not a write: the list routes call this on every request
    with writing():
        done = session.execute(
            update(Match).where(*stale)
            .values(status="finished", finished_at=now(), ending={"kind": "abandoned", "after_s": after})
            .execution_options(synchronize_session=False)).rowcount
        session.commit()
    return done


def _finish_early(session: Session, match: Match, game: Game, ending: dict, winners: list[int]) -> None:
    """Finish a match before its rules end it: resigned, the points so far and ``winners``
    marked won and rated against the others; abandoned, no points, no winner, not rated."""
    scores = [float(x) for x in game.scores(state_of(game, match))] if winners else [None] * len(match.seats)
    finished_at = now()
    conn = session.connection()
    with writing():
        done = conn.execute(update(Match.__table__).where(Match.id == match.id, Match.ply == match.ply,
                                                          Match.status == "active")
                            .values(status="finished", finished_at=finished_at, ending=ending)).rowcount
        if not done:
            session.rollback()
            raise Conflict("the match moved on meanwhile; reload it")
        for s in match.seats:
            _SEAT_RESULT.run(conn, match=match.id, number=s.seat, new_score=scores[s.seat],
                             new_won=s.seat in winners if winners else None)
        if winners and ratings.unrated_reason(match) is None:
            ratings.rate_match(session, match.game, match.id, match.seats, winners)
        session.commit()
    for key, value in (("status", "finished"), ("finished_at", finished_at), ("ending", ending)):
        _set(match, key, value)
    for s in match.seats:
        _set(s, "score", scores[s.seat])
        _set(s, "won", s.seat in winners if winners else None)
    notify(match.id)


# ----- learning -----
def replay_states(game: Game, match: Match, moves: list[Move]):
    """(state before the move, move) for every move, rebuilt from the seed."""
    state = game.new_match(len(match.seats), match.seed, match.options)
    for move in moves:
        yield state, move
        state = game.apply_id(state, move.action)


def learn_from(session: Session, match: Match, game: Game) -> None:
    """Every live learner seated in the finished match learns from it, atomically, within its
    limits (``live.apply_updates``), unless its creator chose the seed; ``match.learning`` says
    for each what happened. Every ``PARLOUR_CANARY_EVERY`` learned games the learner's strength
    is checked in the background."""
    learners = [s for s in match.seats if s.kind == "agent" and spec(match.game, s.agent).live is not None]
    if not learners:
        return
    if match.seed_chosen:
        _note_learning(session, match, {str(s.seat): {"agent": s.agent, "learned": False,
                                                      "reason": f"not learned from: {ratings.SEED_CHOSEN}"}
                                        for s in learners})
        return
    moves = moves_after(session, match.id, -1)
    final = state_of(game, match)
    winners = game.winners(final)
    outcome = {}
    for s in learners:
        episode = Episode(seat=s.seat, score=float(s.score or 0), won=s.seat in winners, drawn=not winners)
        for state, move in replay_states(game, match, moves):
            if move.seat == s.seat:
                episode.steps.append((game.observe(state, s.seat), move.action))
        try:
            learner = live.make_live_agent(session, match.game, s.agent, own_copy=True)
            updates = learner.learn(episode)
            with writing():
                learned = live.apply_updates(session, match.game, s.agent, updates, clients=people_clients(match),
                                             match_id=match.id)
        except live.Loading:  # reset or rolled back to another table while this request ran
            learned = live.Learned(False, "the learner was reset while this game was played")
        canary.after_learning(session, match.game, s.agent, learned)
        note = {"reason": f"not learned from: {learned.reason}"} if not learned.learned else (
            {"held_back": learned.reason} if learned.reason else {})
        outcome[str(s.seat)] = {"agent": s.agent, "learned": learned.learned, **note}
    _note_learning(session, match, outcome)


def _note_learning(session: Session, match: Match, outcome: dict) -> None:
    """Store what each live learner made of the finished match (``match.learning``)."""
    with writing():
        _LEARNING.run(session.connection(), match=match.id, new_learning=outcome)
        session.commit()
    _set(match, "learning", outcome)


def people_clients(match: Match) -> list[str]:
    """The (hashed) addresses of the people at the table: each counts the game toward its own
    learning limit (the creator's, then every friend who joined)."""
    clients = [match.client or ""] + [s.client for s in match.seats if s.kind == "human" and s.client]
    return list(dict.fromkeys(clients))


# ----- views -----
WITHHELD_NOTE = ("Its values for each option are shown when the deal ends: until then they would "
                 "tell what it holds.")


def _open_book(game: Game, match: Match) -> bool:
    """May every viewer see every AI's whole reasoning? In an AI-only match every hand is shown
    to those watching (``observe(..., reveal=True)``), so its reasoning tells them nothing more."""
    return match.ai_only or match.status == "finished" or not has_hidden_information(game)


class Book(NamedTuple):
    """Which AIs' reasoning a viewer of a match is shown whole now: all of it when the book is
    ``open``; otherwise a move's own seat's, and that of moves made in a deal before ``deal``
    (the one being played), whose hands the end-of-deal screen has shown."""
    open: bool
    deal: int
    viewer: int | None

    @staticmethod
    def of(game: Game, match: Match, viewer: int | None) -> "Book":
        return Book(_open_book(game, match), game.deal_of(state_of(game, match)), viewer)

    def whole(self, seat: int, deal: int | None) -> bool:
        """Is the reasoning of a move by ``seat`` in ``deal`` (None: not recorded) shown whole?"""
        return self.open or self.viewer == seat or (deal is not None and deal < self.deal)


def _withheld(move) -> dict:
    """The reasoning of an AI's move as the others at a card table are given it while its deal
    is on: the move made and the AI's rule in words, nothing computed from its hand (no value,
    no other option: the options it had would show what it holds, and every value of the
    card games' AIs is computed from the hand). ``move`` has an explanation."""
    e = move.explanation
    return {"label": "", "values": {}, "labels": {move.action: move.label}, "reason": e.get("reason", ""),
            "note": WITHHELD_NOTE, "withheld": True, **({"deal": e["deal"]} if "deal" in e else {})}


def _deal_of(explanation: dict | None) -> int | None:
    return None if explanation is None else explanation.get("deal")


def moves_json(game: Game, match: Match, moves: list, viewer: int | None) -> list:
    """Moves as this viewer may see them: dicts, or for a move this process remembers (``Played``)
    its form already written as JSON (for ``hot_json`` and the event stream, which write with orjson)."""
    book = Book.of(game, match, viewer)
    out: list[dict | orjson.Fragment] = []
    for m in moves:
        if isinstance(m, Played):
            out.append(m.full if book.whole(m.seat, m.deal) else m.withheld)
            continue
        full = {"ply": m.ply, "seat": m.seat, "action": m.action, "label": m.label, "explanation": m.explanation}
        whole = m.explanation is None or book.whole(m.seat, _deal_of(m.explanation))
        out.append(full if whole else {**full, "explanation": _withheld(m)})
    return out


def reason_json(book: Book, tail: list) -> orjson.Fragment | None:
    """``last_explanation``: the reasoning of the last AI move in ``tail`` (``Played`` moves) as
    the book's viewer may see it (None: no AI has moved)."""
    last_ai = next((m for m in reversed(tail) if m.reason is not None), None)
    if last_ai is None:
        return None
    return last_ai.reason if book.whole(last_ai.seat, last_ai.deal) else last_ai.withheld_reason


class Played(NamedTuple):
    """A move as this process remembers it (a match's log tail, ``app.services.memory``): what a
    view shows of it, written as JSON once. Bytes are not objects the garbage collector walks:
    as dicts, the tails of 300 matches were about 120,000 of them, and every full collection
    walked them all (80 to 100 ms, with every request waiting)."""
    ply: int
    seat: int
    action: str
    label: str
    deal: int | None  # the deal its AI's reasoning was made in (None: no reasoning, or not recorded)
    full: orjson.Fragment  # the move with its AI's whole reasoning
    withheld: orjson.Fragment  # with what others are given of it while its deal is on (``Book``)
    reason: orjson.Fragment | None  # ``last_explanation`` in the same two forms (None: no explanation)
    withheld_reason: orjson.Fragment | None

    @staticmethod
    def of(move) -> "Played":
        """The remembered form of a move row (``ply``, ``seat``, ``action``, ``label``, ``explanation``)."""
        full = {"ply": move.ply, "seat": move.seat, "action": move.action, "label": move.label,
                "explanation": move.explanation}
        if move.explanation is None:
            written = _kept(full)
            return Played(move.ply, move.seat, move.action, move.label, None, written, written, None, None)
        withheld = _withheld(move)
        head = {"ply": move.ply, "seat": move.seat, "action": move.action}
        return Played(move.ply, move.seat, move.action, move.label, _deal_of(move.explanation), _kept(full),
                      _kept({**full, "explanation": withheld}), _kept({**head, **move.explanation}),
                      _kept({**head, **withheld}))


def _kept(value) -> orjson.Fragment:
    """``value`` written as JSON to keep: copied to a bytes object of its own size, because the
    one orjson returns holds at least 4 KB (a 100-byte move kept that way cost 4 KB)."""
    return orjson.Fragment(bytes(memoryview(orjson.dumps(value))))


def seats_json(seats) -> list[dict]:
    """The seats as anyone may see them, each with its ``display_name`` (distinct in the match)."""
    shown = display_names(seats)
    return [{"seat": s.seat, "type": s.kind, "name": s.name, "display_name": shown[i], "agent": s.agent,
             "level": s.level, "score": s.score, "won": s.won, "invite": s.invite} for i, s in enumerate(seats)]


def match_view(session: Session, match: Match, seat: int | None, view: dict | None = None,
               since: int | None = None) -> dict:
    """What ``seat`` (None: a spectator) sees of the match now; ``view``: the seat's observation of
    the current state when the caller has it already (a move's last view). ``moves`` are the last
    ``LOG_TAIL`` moves, or with ``since`` those from that ply on (a move's answer: the page has
    the ones before)."""
    game = get_game(match.game)
    state = state_of(game, match)
    ending = match.ending
    over = game.is_over(state) or ending is not None
    to_move = None if over else game.current_player(state)
    legal = []
    if seat is not None and seat == to_move and match.status == "active":
        legal = [{"id": a.id, "label": game.action_label(a)} for a in game.legal_actions(state)]
    tail = log_tail(session, match)
    return {
        "id": match.id, "game": match.game, "status": match.status, "ply": match.ply, "hints": match.hints,
        "seat": seat, "to_move": to_move, "ai_only": match.ai_only, "options": match.options,
        "delay_ms": match.delay_ms, "paused": match.paused,
        "created_at": match.created_at.isoformat(), "rematch_of": match.rematch_of,
        "seats": seats_json(match.seats),
        "view": view if view is not None else game.observe(state, seat, reveal=match.ai_only),
        "legal_actions": legal,
        "can_resign": bool(legal) and _can_resign(game, state, seat),
        "moves": moves_json(game, match, tail if since is None else [m for m in tail if m.ply >= since], seat),
        "last_explanation": reason_json(Book.of(game, match, seat), tail),
        "result": result_json(game, match, state) if over else None,
        **rated_json(match),
        "learning": match.learning,
    }


def rated_json(match: Match) -> dict:
    """Whether the match counts for the ratings (``rated``) and if not, why (``unrated_reason``)."""
    reason = ratings.unrated_reason(match)
    return {"rated": reason is None, "unrated_reason": reason}


def log_tail(session: Session, match: Match) -> list:
    """The last ``LOG_TAIL`` moves, oldest first (from this process's memory when it has them all)."""
    tail = MEMORY.tail(match.id, match.ply, LOG_TAIL)
    if tail is None:
        rows = _TAIL.rows(session.connection(), id=match.id, limit=LOG_TAIL)[::-1]
        tail = [Played.of(SimpleNamespace(**m)) for m in rows if m["ply"] < match.ply]  # none made since the read
        MEMORY.put_tail(match.id, tail, match.ply, LOG_TAIL)
    return tail


def result_json(game: Game, match: Match, state) -> dict:
    """The result of a finished match; one ended early says how (``ending``), its winners are
    the seats marked won (the others, when someone resigned; nobody, when abandoned)."""
    if match.ending is None:
        return {"scores": game.scores(state), "winners": game.winners(state), "ending": None}
    return {"scores": game.scores(state), "winners": [s.seat for s in match.seats if s.won],
            "ending": match.ending}


def _can_resign(game: Game, state, seat: int | None) -> bool:
    try:
        game.resign(state, seat)
    except GameError:
        return False
    return True


def replay(session: Session, match: Match, seat: int | None) -> dict:
    """Every move with the acting AI's explanation and the view after it. Hands are shown
    only when the match is over or AI-only; an AI's reasoning as ``moves_json`` shows it."""
    game = get_game(match.game)
    reveal = match.ai_only or match.status == "finished"
    moves = list(session.scalars(select(Move).where(Move.match_id == match.id).order_by(Move.ply)))
    steps = []
    for (state, move), shown in zip(replay_states(game, match, moves), moves_json(game, match, moves, seat)):
        after = game.apply_id(state, move.action)
        steps.append({**shown, "view": game.observe(after, seat, reveal=reveal)})
    start = game.new_match(len(match.seats), match.seed, match.options)
    return {"id": match.id, "game": match.game, "status": match.status, "hints": match.hints,
            "seats": seats_json(match.seats),
            "start": game.observe(start, seat, reveal=reveal), "moves": steps}
