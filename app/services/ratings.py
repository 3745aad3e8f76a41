"""Ratings of every agent and every named person, per game, with openskill's Plackett-Luce
model: the library computes every rating; this module only decides who played and who won.

Conventions:

- a match counts unless ``unrated_reason`` names why not (its seed chosen by its creator,
  hints, abandoned);
- a player is ``agent:<agent id>`` or ``person:<the name at the seat>`` (there are no
  accounts: people are told apart by the name they give);
- a finished match ranks its winners first, together, and everyone else next, together (a
  draw: all first); points are not compared (games count them differently);
- a player in several seats of one match (an agent against itself) is rated once, with the
  mean of its seats' new ratings; a match with one distinct player changes nothing;
- ``ordinal`` is openskill's conservative rating, mu - 3 sigma (kept in the API);
- what people are shown is ``rating``, on the scale chess players know (lichess, Elo):
  ``1500 + 42 (mu - 25)``, the same map for people and AI levels. 42 points a unit of mu make
  openskill's prior (mu 25, sigma 25/3) Glicko's newcomer (1500, deviation 350), and for settled
  ratings a gap means about the odds it means in Elo (openskill's own win prediction gives 43 to
  47 points a unit). A rating is ``provisional`` (shown "1500?") until ``PROVISIONAL_GAMES``
  rated matches in that game; the leaderboard lists settled ratings first, each part best first.

A match is rated inside the transaction that records its last move, which only one request
can commit (the optimistic check on the ply), so each finished match counts exactly once; the
history has at most one row per match and player (a unique constraint) all the same.
Tournaments rate their agents game by game, in the order the games were numbered.
"""
from __future__ import annotations

from typing import Iterable, Sequence

from openskill.models import PlackettLuce
from sqlalchemy import bindparam, case, insert, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from app import paging
from app.models import Rating, RatingEvent, now
from app.services.errors import NotFound, ServiceError

MODEL = PlackettLuce()
CENTRE, POINTS_PER_MU = 1500, 42
PROVISIONAL_GAMES = 10
MODEL_NAME = (f"openskill Plackett-Luce (mu 25, sigma 25/3; ordinal = mu - 3 sigma); rating = {CENTRE} + "
              f"{POINTS_PER_MU} (mu - 25), provisional until {PROVISIONAL_GAMES} rated matches")


def rating(mu: float) -> int:
    """The rating people are shown for openskill's ``mu`` (a newcomer: 1500)."""
    return round(CENTRE + POINTS_PER_MU * (mu - MODEL.mu))


def shown(mu: float, sigma: float, games: int) -> dict:
    """The fields every rating carries for people: ``rating``, ``provisional`` and ``display``
    ("1500?" while provisional, "1512" after), with ``mu``, ``sigma`` and ``ordinal`` beneath."""
    value, provisional = rating(mu), games < PROVISIONAL_GAMES
    return {"rating": value, "provisional": provisional, "display": f"{value}?" if provisional else str(value),
            "mu": mu, "sigma": sigma, "ordinal": ordinal(mu, sigma)}


def player_of(seat) -> str:
    return f"agent:{seat.agent}" if seat.kind == "agent" else f"person:{seat.name}"


def ordinal(mu: float, sigma: float) -> float:
    return MODEL.rating(mu=mu, sigma=sigma).ordinal()


def update(current: dict[str, tuple[float, float]], players: Sequence[str],
           winners: Iterable[int]) -> dict[str, tuple[float, float]]:
    """The new (mu, sigma) of each distinct player after one game; ``players[seat]`` sat at
    each seat, ``winners`` are seats. Players missing from ``current`` start at the model's prior."""
    if len(set(players)) < 2:
        return {}
    winners = set(winners)
    ranks: list[float] = [1 if (seat in winners or not winners) else 2 for seat in range(len(players))]
    prior = (MODEL.mu, MODEL.sigma)
    teams = [[MODEL.rating(*current.get(p, prior))] for p in players]
    rated = MODEL.rate(teams, ranks=ranks)
    seats_of: dict[str, list[int]] = {}
    for seat, p in enumerate(players):
        seats_of.setdefault(p, []).append(seat)
    return {p: (sum(rated[s][0].mu for s in seats) / len(seats), sum(rated[s][0].sigma for s in seats) / len(seats))
            for p, seats in seats_of.items()}


# Built once: building a statement costs more than running it (a match is rated as it finishes).
_LOAD = (select(Rating.player, Rating.mu, Rating.sigma, Rating.games, Rating.wins)
         .where(Rating.game == bindparam("game"), Rating.player.in_(bindparam("players", expanding=True)))
         .with_for_update())
_UPSERT = {}
for _dialect, _insert in (("postgresql", pg_insert), ("sqlite", sqlite_insert)):
    _stmt = _insert(Rating)
    _UPSERT[_dialect] = _stmt.on_conflict_do_update(
        index_elements=["game", "player"], set_={c: _stmt.excluded[c] for c in ("mu", "sigma", "games", "wins",
                                                                                 "updated_at")})
_HISTORY = insert(RatingEvent)


def _load(session: Session, game: str, players: Iterable[str]) -> dict[str, tuple[float, float, int, float]]:
    rows = session.connection().execute(_LOAD, {"game": game, "players": sorted(set(players))})
    return {r.player: (r.mu, r.sigma, r.games, r.wins) for r in rows}


def _store(session: Session, game: str, values: dict[str, tuple[float, float, int, float]]) -> None:
    if not values:
        return
    at = now()
    session.connection().execute(_UPSERT[session.get_bind().dialect.name], [
        {"game": game, "player": player, "mu": mu, "sigma": sigma, "games": games, "wins": wins, "updated_at": at}
        for player, (mu, sigma, games, wins) in values.items()])


SEED_CHOSEN = "seed chosen by the creator (it fixes every deal and every AI's chance)"
"""Why a match whose creator chose its seed is neither rated nor learned from: with the engine's
public code the seed gives every hand dealt, the friend's and the AIs', and every AI's draw of
chance, so the creator could know them all."""


def unrated_reason(match) -> str | None:
    """Why ``match`` (a row or ``read_match``'s rows) does not count for the ratings, or for a
    person's record against the levels; None when it does (or will, once it finishes)."""
    if match.seed_chosen:
        return SEED_CHOSEN
    if match.hints:
        return "played with hints (the coach could be asked during play)"
    if (match.ending or {}).get("kind") == "abandoned":
        return "abandoned (nobody won)"
    return None


def rate_match(session: Session, game: str, match_id: str, seats, winners: Iterable[int]) -> None:
    """Rate a finished match (call inside the transaction that finishes it; no commit here)."""
    players = [player_of(s) for s in seats]
    winners = set(winners)
    stored = _load(session, game, players)
    new = update({p: v[:2] for p, v in stored.items()}, players, winners)
    if not new:
        return
    won = {players[s] for s in winners}
    values = {p: (mu, sigma, stored.get(p, (0, 0, 0, 0.0))[2] + 1, stored.get(p, (0, 0, 0, 0.0))[3] + (p in won))
              for p, (mu, sigma) in new.items()}
    _store(session, game, values)
    at = now()
    session.connection().execute(_HISTORY, [{"game": game, "player": p, "match_id": match_id, "mu": mu,
                                             "sigma": sigma, "at": at} for p, (mu, sigma) in new.items()])


def rate_tournament(session: Session, game: str, players: Sequence[str], records, tournament_id: int) -> None:
    """Rate a tournament's agents game by game (``records``: ``agents.records.GameRecord``),
    store their final ratings and one history row each (no commit here)."""
    names = [f"agent:{p}" for p in players]
    stored = _load(session, game, names)
    current = {p: v[:2] for p, v in stored.items()}
    games = {p: stored.get(p, (0, 0, 0, 0.0))[2] for p in names}
    wins = {p: stored.get(p, (0, 0, 0, 0.0))[3] for p in names}
    for r in sorted(records, key=lambda r: r.index):
        seated = [names[r.order[seat]] for seat in range(len(r.order))]
        current.update(update(current, seated, r.winners))
        for p in set(seated):
            games[p] += 1
        for p in {seated[s] for s in r.winners}:
            wins[p] += 1
    rated = [p for p in dict.fromkeys(names) if p in current]
    _store(session, game, {p: (*current[p], games[p], wins[p]) for p in rated})
    at = now()
    if rated:
        session.connection().execute(_HISTORY, [{"game": game, "player": p, "tournament_id": tournament_id,
                                                 "mu": current[p][0], "sigma": current[p][1], "at": at}
                                                for p in rated])


def board(session: Session, game: str | None, limit: int = 200,
          cursor: str | None = None) -> tuple[list[dict], str | None]:
    """Rated players (of ``game``, or of every game), by game: settled ratings first, then
    provisional ones, each best first; up to ``limit`` after ``cursor``, and the cursor of the
    next page (None: the last)."""
    from agents.catalog import levels, spec
    from engine import GameError

    order = (Rating.game, case((Rating.games < PROVISIONAL_GAMES, 1), else_=0), -Rating.mu, Rating.player)
    q = select(Rating)
    if game:
        q = q.where(Rating.game == game)
    start = paging.after(order, cursor, str, int, float, str)
    if start is not None:
        q = q.where(start)
    found = list(session.scalars(q.order_by(*order).limit(limit + 1)))
    more, found = len(found) > limit, found[:limit]
    out = []
    for r in found:
        kind, _, ident = r.player.partition(":")
        entry = {"game": r.game, "player": r.player, "kind": kind, "id": ident, "name": ident, "level": None,
                 **shown(r.mu, r.sigma, r.games), "games": r.games, "wins": r.wins,
                 "updated_at": r.updated_at.isoformat()}
        if kind == "agent":
            try:
                entry["name"] = spec(r.game, ident).title
                ids = levels(r.game)
                entry["level"] = ids.index(ident) + 1 if ident in ids else None
            except GameError:
                pass  # an agent no longer shipped keeps its rating under its id
        out.append(entry)
    last = found[-1] if more else None
    return out, None if last is None else paging.encode(last.game, int(last.games < PROVISIONAL_GAMES), -last.mu,
                                                        last.player)


def history(session: Session, game: str, player: str, limit: int = 500) -> list[dict]:
    """A player's rating after each rated match or tournament, oldest first (the last ``limit``)."""
    rows = session.scalars(select(RatingEvent).where(RatingEvent.game == game, RatingEvent.player == player)
                           .order_by(RatingEvent.id.desc()).limit(limit))
    return [{"at": e.at.isoformat(), "rating": rating(e.mu), "mu": e.mu, "sigma": e.sigma,
             "ordinal": ordinal(e.mu, e.sigma), "match": e.match_id, "tournament": e.tournament_id}
            for e in reversed(list(rows))]


def player_history(session: Session, game: str, player: str) -> dict:
    """The rating history of the player of ``game`` that ``player`` names (``resolve_player``)."""
    key = resolve_player(session, game, player)
    return {"game": game, "player": key, "points": history(session, game, key)}


def resolve_player(session: Session, game: str, text: str) -> str:
    """The rated player of ``game`` that ``text`` names: a key (``person:<name>``,
    ``agent:<id>``) or a name as the pages show it: a person's name, an agent's title or id.
    404 when nobody rated in ``game`` has it; 422 when a person and an agent share it."""
    from agents.catalog import agent_specs

    if text.startswith(("person:", "agent:")):
        candidates = [text]
    else:
        candidates = [f"person:{text}"] + [f"agent:{s.id}" for s in agent_specs(game) if text in (s.id, s.title)]
    rated = set(session.scalars(select(Rating.player).where(Rating.game == game, Rating.player.in_(candidates))))
    found = [c for c in candidates if c in rated]
    if not found:
        raise NotFound(f"nobody called {text!r} is rated in {game} (names as the leaderboard shows them)")
    if len(found) > 1:
        raise ServiceError(f"{text!r} is the name of more than one rated player in {game}: give one of "
                           f"{', '.join(found)}", field="query.player")
    return found[0]
