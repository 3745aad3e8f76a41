"""A fair game in one click: the level of a game's ladder (its levels, easiest first) to seat
against a person, and why, in words.

How the level is chosen, as a club pairs its players:

- after a finished match against AI levels (the last one in that game, the person's name at a
  seat; abandoned matches and matches with hints left out, as the ratings leave them out), one
  step from the highest level seated there: up after a win, down after a loss, the same after
  a draw, never past either end of the ladder;
- before any such match, the level whose rating (``app.services.ratings``, the same scale as
  people's) is nearest the person's own rating in that game, when both are rated;
- otherwise (a newcomer, or no level rated yet) the middle of the ladder.

Every opponent's seat gets that level (a game's fewest players: two in most games).
"""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from agents.catalog import levels, spec
from app.models import Match, Rating, Seat
from app.services import ratings
from app.services.errors import ServiceError
from app.services.people import clean_name
from engine import get_game


@dataclass(frozen=True)
class Rung:
    level: int
    title: str
    rating: dict | None  # ratings.shown(...) when the level is rated in the game


def ladder(session: Session, game: str) -> list[Rung]:
    """The game's levels, easiest first, each with its rating when it has one."""
    ids = levels(game)
    rows = session.scalars(select(Rating).where(Rating.game == game,
                                                Rating.player.in_([f"agent:{a}" for a in ids])))
    rated = {r.player.removeprefix("agent:"): ratings.shown(r.mu, r.sigma, r.games) for r in rows}
    return [Rung(i + 1, spec(game, a).title, rated.get(a)) for i, a in enumerate(ids)]


def last_result(session: Session, game: str, name: str) -> tuple[str, int] | None:
    """How the person called ``name`` did in their last finished match of ``game`` against AI
    levels (``"win"``, ``"loss"`` or ``"draw"``) and the highest level seated there; None
    when there is none."""
    q = (select(Match).where(Match.game == game, Match.status == "finished", Match.hints.is_(False),
                             Match.seats.any((Seat.kind == "human") & (Seat.name == name)),
                             Match.seats.any((Seat.kind == "agent") & Seat.level.is_not(None)))
         .order_by(Match.finished_at.desc()).execution_options(yield_per=20))
    for m in session.scalars(q):
        if (m.ending or {}).get("kind") == "abandoned":
            continue
        me = next(s for s in m.seats if s.kind == "human" and s.name == name)
        level = max(s.level for s in m.seats if s.kind == "agent" and s.level is not None)
        return ("win" if me.won else "loss" if any(s.won for s in m.seats) else "draw"), level
    return None


def fair(session: Session, game: str, player: str | None) -> dict:
    """The seats of a fair game for the person called ``player`` (None: no name given; 422 for
    a name ``clean_name`` refuses), the level chosen and why (in the create-match seats' shape:
    POST it to /api/matches as is)."""
    try:
        name = None if player is None else clean_name(player)
    except ValueError as err:
        raise ServiceError(str(err), field="query.player") from None
    rungs = ladder(session, game)
    top = len(rungs)
    title = get_game(game).title

    def at(level: int) -> str:
        rung = rungs[level - 1]
        rated = f" (rated {rung.rating['display']})" if rung.rating else ""
        return f"{rung.title} at level {level} of {top}{rated}"

    last = last_result(session, game, name) if name else None
    mine = None
    if name:
        row = session.get(Rating, (game, f"person:{name}"))
        mine = ratings.shown(row.mu, row.sigma, row.games) if row else None
    rated = [(r, r.rating) for r in rungs if r.rating is not None]
    if last is not None:
        outcome, was = last[0], min(last[1], top)  # a level stored before the ladder was shortened
        step = {"win": 1, "loss": -1, "draw": 0}[outcome]
        level = min(top, max(1, was + step))
        verb, before = {"win": "won", "loss": "lost", "draw": "drew"}[outcome], f"{rungs[was - 1].title} at level {was}"
        if outcome == "draw":
            why = f"You drew your last game, against {before}: the same level again, {at(level)}."
        elif level == was:
            end = "the top" if step > 0 else "the foot"
            why = (f"You {verb} your last game, against {before}, {end} of the ladder: the same level again, "
                   f"{at(level)}.")
        else:
            way = "up" if step > 0 else "down"
            why = f"You {verb} your last game, against {before}: one step {way}, to {at(level)}."
    elif mine is not None and rated:
        nearest, its = min(rated, key=lambda pair: (abs(pair[1]["rating"] - mine["rating"]), pair[0].level))
        level = nearest.level
        why = (f"Your rating {mine['display']} in {title} is nearest {nearest.title} ({its['display']}): "
               f"level {level} of {top}.")
    else:
        level = (top + 1) // 2
        start = f"you start in the middle of the ladder, with {at(level)}."
        why = (f"You have not played {title} against the AIs yet: {start}" if name else
               f"Without your name there are no results to go by: {start}")
    opponents = get_game(game).min_players - 1
    seats = [{"type": "human", **({"name": name} if name else {})}] + [{"type": "agent", "level": level}] * opponents
    return {"seats": seats, "why": why, "level": level}
