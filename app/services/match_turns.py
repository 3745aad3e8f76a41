"""The turns of a match: a person's move (checked), the AI seats' replies, and the pace of an
AI-only match, whose moves its watchers' event streams make (``app.services.match_events``)."""
from __future__ import annotations

import random
import time
from typing import Any

from anyio import to_thread
from sqlalchemy.orm import Session

from agents.base import Explanation, explain
from agents.catalog import spec
from app.services import live, match_store, quotas, ratings, thinking
from app.services.agents import AgentPool, resolve_seat_agent
from app.services.errors import Conflict, ServiceError, clip
from app.services.match_endings import check_playing, learn_from
from app.services.match_moves import MoveRow
from app.services.match_store import MatchRow
from app.services.match_tokens import seat_needed
from app.services.match_views import Book, match_view, stored_json
from app.services.notifier import notify
from app.settings import get_settings
from engine import RESIGN, ActionSyntaxError, Game, GameError, get_game

MAX_AI_MOVES_PER_REQUEST = 5_000
ON_LOOP_AI_MOVES = 100
"""The most AI replies a move makes on the event loop (about a millisecond each). A move may set
off many more: a person knocked out of Yaniv leaves the AIs to play the match out, some 1,500
moves in one request (8 s during which the server answered nobody, a probe found in session 21).
Past this many the replies are chosen again in a worker thread (``move``); nothing is stored
before the last reply."""


class ManyReplies(Exception):
    """Raised by ``run_ai`` on the event loop past ``ON_LOOP_AI_MOVES`` replies."""

Made = list[tuple[MoveRow, Any]]
"""Moves made one after the other, each with the state after it."""


async def move(session: Session, pool: AgentPool, match_id: str, token: str | None, action_id: str,
               ply: int | None) -> dict[str, Any]:
    """``POST /api/matches/{id}/moves``: the seat's move and the AI seats' replies; the seat's new
    view, with ``moves`` holding only the moves made now and ``made`` the same moves, each with
    the seat's view after it.

    Replies that take about a millisecond are made on the event loop: under load a hop to one
    of 40 worker threads doubled a move's CPU (thread switches, the GIL passed back and forth)
    and let the moves overtake each other. A seat that searches thinks in a thread, and so does
    a live learner whose table this process has not built yet (Harel's takes seconds)."""
    match = match_store.read(session, match_id)

    def play(at_most: int = MAX_AI_MOVES_PER_REQUEST) -> dict[str, Any]:
        seat = seat_needed(match, token, "moves need the seat's token: Authorization: Bearer <token>")
        new, made = play_human(session, pool, match, seat, action_id, ply, at_most)
        book = Book.of(get_game(new.game), new, seat)
        return {**match_view(session, new, seat, view=made[-1][1], since=made[0][0].ply),
                "made": [{**stored_json(book, m), "view": view} for m, view in made]}

    if replies_at_once(session, match):
        try:
            return play(ON_LOOP_AI_MOVES)
        except ManyReplies:
            pass  # nothing was stored: the same moves again, in a thread
    return await to_thread.run_sync(play)


def play_human(session: Session, pool: AgentPool, match: MatchRow, seat: int, action_id: str,
               ply: int | None, at_most: int = MAX_AI_MOVES_PER_REQUEST
               ) -> tuple[MatchRow, list[tuple[MoveRow, dict[str, Any]]]]:
    """A person's move (checked), then the AI seats' replies (``run_ai``, ``at_most``). Returns the
    match after them and the moves made, each with the mover's seat's view after it (so a page can
    show them one by one).

    One order of checks, the same in every game: the action's syntax (422, whatever the ply or
    the turn), then the state of the match (409: not started, over, abandoned, a stale ``ply``,
    not your turn), then the rules (409, with the reason)."""
    game, state = get_game(match.game), match.state
    yours = match.status == "active" and not game.is_over(state) and game.current_player(state) == seat
    action = read_action(game, action_id, state if yours else None)
    check_playing(session, match)
    if ply is not None and ply != match.ply:
        raise Conflict(f"stale move: the match is at ply {match.ply}, not {ply}; reload it")
    if game.current_player(state) != seat:
        raise Conflict("it is not your turn")
    if action is None:
        new_state, label = game.resign(state, seat), "resigns"
    else:  # IllegalActionError -> 409, the match unchanged
        new_state, label = game.apply(state, action), game.action_label(action)
    mine = MoveRow(ply=match.ply, seat=seat, action=action_id, label=label, explanation=None)
    new, made = run_ai(session, pool, match, [(mine, new_state)], at_most)
    return new, [(m, game.observe(st, seat)) for m, st in made]


def replies_at_once(session: Session, match: MatchRow) -> bool:
    """No AI seat of ``match`` searches, and the tables of its live learners are at hand: its
    replies take about a millisecond, not a budget or a table's build."""
    return at_once(session, match.game, [s.agent for s in match.seats if s.agent is not None])


def at_once(session: Session, game_name: str, agents: list[str]) -> bool:
    """Do these AIs (agent ids of the game) move in about a millisecond?"""
    specs = [spec(game_name, a) for a in dict.fromkeys(agents)]
    return not any(s.searches for s in specs) and all(live.ready(session, game_name, s.id)
                                                      for s in specs if s.live is not None)


def seat_agents(game_name: str, levels_or_agents: list[tuple[int | None, str | None]]) -> list[str] | None:
    """The agent ids of AI seats asked for by level or agent id; None when one fits no AI."""
    try:
        return [resolve_seat_agent(game_name, level, agent)[0] for level, agent in levels_or_agents]
    except GameError:
        return None


def read_action(game: Game, action_id: str, yours: Any) -> Any:
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


def _ai_choice(session: Session, pool: AgentPool, match: MatchRow, game: Game, state: Any, ply: int,
               agents: dict[str, Any]) -> tuple[MoveRow, Any] | None:
    """The move the AI seat to move in ``state`` (the match at ``ply``) chooses, with the state
    after it; None when the match is over or a person is to move. Nothing is stored. ``agents``
    keeps the agents fetched for this request."""
    if game.is_over(state):
        return None
    seat = game.current_player(state)
    if seat is None:
        return None
    row = match.seats[seat]
    if row.kind != "agent" or row.agent is None:
        return None
    observation = game.observe(state, seat)
    legal = game.legal_actions(state)
    rng_key, s = f"{match.seed}:ai:{ply}", spec(match.game, row.agent)
    if s.searches:  # seconds of CPU: thought in the helper process
        action, why = thinking.think(match.game, row.agent, observation, legal, rng_key)
        why_json = reasoning_of(game, s.description, why, legal, game.deal_of(state))
    else:
        agent = agents.get(row.agent)
        if agent is None:
            agent = agents[row.agent] = pool.get(session, match.game, row.agent)
        action = agent.act(observation, legal, random.Random(rng_key))
        why_json = reasoning(game, s.description, agent, observation, legal, game.deal_of(state))
    if action == RESIGN:
        after, action_id, label = game.resign(state, seat), RESIGN, "resigns"
    else:
        after, action_id, label = game.apply(state, action), action.id, game.action_label(action)
    return MoveRow(ply=ply, seat=seat, action=action_id, label=label, explanation=why_json), after


def reasoning(game: Game, rule: str, agent: Any, observation: dict[str, Any], legal: list[Any],
              deal: int) -> dict[str, Any]:
    """What is stored of an AI's reasoning for a move, all of it (what a viewer is given of it
    is decided when it is served: ``match_views.moves_json``): the values it gives its options
    (``explain``) with their labels, its ``rule`` in words (``reason``, so the panel always says
    why, values or none) and the ``deal`` the move is made in."""
    return reasoning_of(game, rule, explain(agent, observation, legal), legal, deal)


def reasoning_of(game: Game, rule: str, why: Explanation | None, legal: list[Any], deal: int) -> dict[str, Any]:
    """``reasoning`` from the explanation the agent gave (None: it gives none), wherever it thought."""
    if why is None:
        return {"label": "", "values": {}, "note": "", "labels": {}, "reason": rule, "deal": deal}
    return {**why.to_json(), "labels": {a.id: game.action_label(a) for a in legal if a.id in why.values},
            "reason": rule, "deal": deal}


def _record(session: Session, match: MatchRow, game: Game, made: Made) -> MatchRow:
    """Store moves made one after the other from the match's ply, in one transaction; Conflict
    when another request moved first (then nothing is stored). A move that ends the match rates
    it in the same transaction, and its live learners learn from it. Returns the match after them."""
    state = made[-1][1]
    results, winners = None, []
    if game.is_over(state):
        scores, winners = game.scores(state), game.winners(state)
        results = {s.seat: (float(scores[s.seat]), s.seat in winners) for s in match.seats}

    def rate() -> None:
        ratings.rate_match(session, match.game, match.id, match.seats, winners)

    rated = results is not None and ratings.unrated_reason(match) is None
    new = match_store.advance(session, match, [m for m, _ in made], state, results, rate if rated else None)
    if new is None:
        raise Conflict("the match moved on before this move; reload it")
    notify(match.id)
    return new if results is None else learn_from(session, new, game)


def ai_move(session: Session, pool: AgentPool, match: MatchRow) -> MatchRow:
    """Let the AI seat to move play once and store it (a watched AI-only match); the match after it."""
    game = get_game(match.game)
    if match.status != "active":
        return match
    step = _ai_choice(session, pool, match, game, match.state, match.ply, {})
    return match if step is None else _record(session, match, game, [step])


def run_ai(session: Session, pool: AgentPool, match: MatchRow, made: Made | None = None,
           at_most: int = MAX_AI_MOVES_PER_REQUEST) -> tuple[MatchRow, Made]:
    """AI seats move until a person is to move or the match ends, after ``made`` (moves chosen
    but not stored yet: a person's); all are stored together, in one transaction (Conflict when
    the match moved on meanwhile: then none is). Returns the match after them and (move, state
    after it) for each. With ``at_most`` under ``MAX_AI_MOVES_PER_REQUEST`` (the event loop's
    bound), ManyReplies past that many replies, and nothing is stored."""
    game = get_game(match.game)
    made = list(made or [])
    if match.status != "active":
        return match, made
    state = made[-1][1] if made else match.state
    agents: dict[str, Any] = {}
    for k in range(MAX_AI_MOVES_PER_REQUEST):
        step = _ai_choice(session, pool, match, game, state, match.ply + len(made), agents)
        if step is None:
            break
        if k == at_most:
            raise ManyReplies
        made.append(step)
        state = step[1]
    return (_record(session, match, game, made) if made else match), made


def ai_only_delay(delay_ms: int) -> int:
    """The pause an AI-only match asking for ``delay_ms`` gets: at least PARLOUR_AI_ONLY_MIN_DELAY_MS."""
    return max(delay_ms, get_settings().ai_only_min_delay_ms)


def due_in(match: MatchRow) -> float | None:
    """Seconds until the next move of a watched AI-only match is due (0: now); None when no
    move will come without a control (not AI-only, over, or paused with no step granted). A
    step granted while paused waits the shortest pause too (PARLOUR_AI_ONLY_MIN_DELAY_MS)."""
    if not match.ai_only or match.status != "active" or (match.paused and match.steps <= 0):
        return None
    delay = ai_only_delay(0 if match.paused else match.delay_ms)
    return max(0.0, match.last_move_at + delay / 1000 - time.time())


def resuming_held(session: Session, match: MatchRow) -> str | None:
    """Why the next move of an AI-only match that is not running (its first move, or the first
    after nobody watched it for a while) may not be made now: its creator runs
    PARLOUR_AI_ONLY_RUNNING others already. None when it may. A paused match's steps are not held."""
    if match.paused or (match.ply > 0 and match.last_move_at + match.delay_ms / 1000 + quotas.IDLE_GRACE_S >= time.time()):
        return None  # stepped by its controller, or running already: it counts in its creator's budget
    return quotas.over_budget(session, match.client, but=match.id)
