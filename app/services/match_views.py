"""What a seat (or a spectator) sees of a match: its view now, its moves with the AI's reasoning
as that viewer may be given it, and the replay. Nothing here writes."""
from __future__ import annotations

from typing import Any, Iterator, NamedTuple, Protocol, Sequence

import orjson
from sqlalchemy.orm import Session

from app.services import match_store, ratings
from app.services.match_moves import MoveRow, Played, deal_of, withheld
from app.services.match_store import MatchRow
from app.services.match_tokens import seat_of
from app.services.people import display_names
from engine import Game, GameError, get_game


class Book(NamedTuple):
    """Which AIs' reasoning a viewer of a match is shown whole now: all of it when the book is
    ``open``; otherwise a move's own seat's, and that of moves made in a deal before ``deal``
    (the one being played), whose hands the end-of-deal screen has shown."""
    open: bool
    deal: int
    viewer: int | None

    @staticmethod
    def of(game: Game, match: MatchRow, viewer: int | None) -> Book:
        """In an AI-only match every hand is shown to those watching (``observe(..., reveal=True)``),
        so its reasoning tells them nothing more."""
        shown = match.ai_only or match.status == "finished" or not game.type.hidden_information
        return Book(shown, game.deal_of(match.state), viewer)

    def whole(self, seat: int, deal: int | None) -> bool:
        """Is the reasoning of a move by ``seat`` in ``deal`` (None: not recorded) shown whole?"""
        return self.open or self.viewer == seat or (deal is not None and deal < self.deal)


def moves_json(game: Game, match: MatchRow, moves: Sequence[MoveRow | Played],
               viewer: int | None) -> list[dict[str, Any] | orjson.Fragment]:
    """Moves as this viewer may see them: dicts, or for a move this process remembers (``Played``)
    its form already written as JSON (for answers and the event stream, which write with orjson)."""
    book = Book.of(game, match, viewer)
    return [(m.full if book.whole(m.seat, m.deal) else m.withheld) if isinstance(m, Played) else stored_json(book, m)
            for m in moves]


def stored_json(book: Book, move: MoveRow) -> dict[str, Any]:
    """A stored move as the book's viewer may see it."""
    full = move.whole_json()
    if move.explanation is None or book.whole(move.seat, deal_of(move.explanation)):
        return full
    return {**full, "explanation": withheld(move)}


def reason_json(book: Book, tail: Sequence[Played]) -> orjson.Fragment | None:
    """``last_explanation``: the reasoning of the last AI move in ``tail`` as the book's viewer
    may see it (None: no AI has moved)."""
    last_ai = next((m for m in reversed(tail) if m.reason is not None), None)
    if last_ai is None:
        return None
    return last_ai.reason if book.whole(last_ai.seat, last_ai.deal) else last_ai.withheld_reason


class ShownSeat(Protocol):
    """What a seat shows anyone: a ``SeatRow``, or an ORM ``Seat`` of a listed match."""
    @property
    def seat(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def agent(self) -> str | None: ...
    @property
    def level(self) -> int | None: ...
    @property
    def score(self) -> float | None: ...
    @property
    def won(self) -> bool | None: ...
    @property
    def invite(self) -> str | None: ...


def seats_json(seats: Sequence[ShownSeat]) -> list[dict[str, Any]]:
    """The seats as anyone may see them, each with its ``display_name`` (distinct in the match)."""
    shown = display_names(seats)
    return [{"seat": s.seat, "type": s.kind, "name": s.name, "display_name": shown[i], "agent": s.agent,
             "level": s.level, "score": s.score, "won": s.won, "invite": s.invite} for i, s in enumerate(seats)]


def seat_view(session: Session, match_id: str, token: str | None) -> dict[str, Any]:
    """``GET /api/matches/{id}``: the view of the seat ``token`` holds (no token: a spectator's)."""
    match = match_store.read(session, match_id)
    return match_view(session, match, seat_of(match, token))


def match_view(session: Session, match: MatchRow, seat: int | None, view: dict[str, Any] | None = None,
               since: int | None = None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) sees of the match now; ``view``: the seat's observation of
    the current state when the caller has it already (a move's last view). ``moves`` are the last
    ``LOG_TAIL`` moves, or with ``since`` those from that ply on (a move's answer: the page has
    the ones before)."""
    game, state = get_game(match.game), match.state
    over = game.is_over(state) or match.ending is not None
    to_move = None if over else game.current_player(state)
    legal = []
    if seat is not None and seat == to_move and match.status == "active":
        legal = [{"id": a.id, "label": game.action_label(a)} for a in game.legal_actions(state)]
    tail = match_store.tail(session, match)
    return {
        "id": match.id, "game": match.game, "status": match.status, "ply": match.ply, "hints": match.hints,
        "seat": seat, "to_move": to_move, "ai_only": match.ai_only, "options": match.options,
        "delay_ms": match.delay_ms, "paused": match.paused,
        "created_at": match.created_at.isoformat(), "rematch_of": match.rematch_of,
        "seats": seats_json(match.seats),
        "view": view if view is not None else game.observe(state, seat, reveal=match.ai_only),
        "legal_actions": legal,
        "can_resign": seat is not None and bool(legal) and can_resign(game, state, seat),
        "moves": moves_json(game, match, tail if since is None else [m for m in tail if m.ply >= since], seat),
        "last_explanation": reason_json(Book.of(game, match, seat), tail),
        "result": result_json(game, match) if over else None,
        **rated_json(match),
        "learning": match.learning,
    }


def rated_json(match: Any) -> dict[str, Any]:
    """Whether the match (a ``MatchRow`` or a listed row) counts for the ratings (``rated``) and if
    not, why (``unrated_reason``)."""
    reason = ratings.unrated_reason(match)
    return {"rated": reason is None, "unrated_reason": reason}


def result_json(game: Game, match: MatchRow) -> dict[str, Any]:
    """The result of a finished match; one ended early says how (``ending``), its winners are
    the seats marked won (the others, when someone resigned; nobody, when abandoned)."""
    if match.ending is None:
        return {"scores": game.scores(match.state), "winners": game.winners(match.state), "ending": None}
    return {"scores": game.scores(match.state), "winners": [s.seat for s in match.seats if s.won],
            "ending": match.ending}


def can_resign(game: Game, state: Any, seat: int) -> bool:
    try:
        game.resign(state, seat)
    except GameError:
        return False
    return True


def replay_states(game: Game, match: MatchRow, moves: Sequence[MoveRow]) -> Iterator[tuple[Any, MoveRow]]:
    """(state before the move, move) for every move, rebuilt from the seed."""
    state = game.new_match(len(match.seats), match.seed, match.options)
    for move in moves:
        yield state, move
        state = game.apply_id(state, move.action)


def replay(session: Session, match_id: str, token: str | None) -> dict[str, Any]:
    """Every move with the acting AI's explanation and the view after it. Hands are shown
    only when the match is over or AI-only; an AI's reasoning as ``moves_json`` shows it."""
    match = match_store.read(session, match_id)
    seat = seat_of(match, token)
    game = get_game(match.game)
    reveal = match.ai_only or match.status == "finished"
    book = Book.of(game, match, seat)
    steps = []
    for state, move in replay_states(game, match, match_store.moves_after(session, match.id, -1)):
        after = game.apply_id(state, move.action)
        steps.append({**stored_json(book, move), "view": game.observe(after, seat, reveal=reveal)})
    start = game.new_match(len(match.seats), match.seed, match.options)
    return {"id": match.id, "game": match.game, "status": match.status, "hints": match.hints,
            "seats": seats_json(match.seats),
            "start": game.observe(start, seat, reveal=reveal), "moves": steps}
