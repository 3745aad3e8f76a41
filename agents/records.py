"""The bookkeeping of tournaments: who sits where in game ``i``, what one game leaves
(``GameRecord``), and the per-player statistics a tournament reports (``summarise``).

Nothing here plays a game, so a game's own fast arena (``agents.arenas``) builds its records
with these without importing the tournament runner.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Sequence

from engine import GameError, get_game


def seating(i: int, n: int) -> tuple[int, ...]:
    """Game ``i``'s arrangement of ``n`` players: ``order[seat]`` = the player in that seat.

    Player 0 fixed, the others in the ``k``-th of their (n-1)! orders (k = i // n,
    lexicographic), then the whole table shifted ``i`` seats on."""
    rest, base = list(range(1, n)), [0]
    k = (i // n) % math.factorial(n - 1)
    for j in range(n - 1, 0, -1):
        index, k = divmod(k, math.factorial(j - 1))
        base.append(rest.pop(index))
    return tuple(base[(seat + i) % n] for seat in range(n))


def seat_count(game, players: int) -> int:
    """Seats at the table for ``players`` named players: as many as named when the game takes
    that many; when it takes more and their number divides its seats, each player sits in every
    ``players``-th seat (two players at a four-seat table: A B A B)."""
    if not isinstance(players, int) or players < 1:
        raise GameError(f"a tournament needs players, got {players!r}")
    if players < game.min_players and players >= 2 and game.min_players % players == 0:
        return game.min_players
    game.check_players(players)
    return players


def arrangement(i: int, players: int, seats: int) -> tuple[int, ...]:
    """Game ``i``'s ``order[seat]`` = the player in that seat: every arrangement in turn
    (``seating``) when each player has one seat, else alternating and shifted ``i`` seats on."""
    if seats == players:
        return seating(i, players)
    return tuple((seat + i) % players for seat in range(seats))


def seating_note(players: int, seats: int) -> str:
    if seats == players:
        return "every arrangement of the players around the table in turn"
    pattern = " ".join("ABCDEFGH"[seat % players] for seat in range(seats))
    return f"{pattern} around the table, shifted one seat each game (so each side leads in turn)"


@dataclass(frozen=True)
class GameRecord:
    index: int
    order: tuple[int, ...]  # order[seat] = index of the player in that seat
    scores: tuple[float, ...]
    winners: tuple[int, ...]  # seats
    moves: int
    seat_moves: tuple[int, ...] | None = None  # per seat, in games that count moves per player


def unit_name(game_name: str, whole_match: bool, options: dict | None = None) -> str:
    """What a tournament counts, in words: "whole games to 500" or "single deals"."""
    if not whole_match:
        return "single deals"
    target = get_game(game_name).resolve_options(options).get("target_score")
    return f"whole games to {target}" if target is not None else "whole games"


@dataclass
class PlayerStats:
    player: str
    games: int = 0
    wins: float = 0.0
    wins_sq: float = 0.0
    draws: int = 0
    points: float = 0.0  # per game: the mean over the player's seats
    points_sq: float = 0.0
    moves: float = 0.0
    by_seat: list[list[float]] = field(default_factory=list)  # [win share sum, games] per seat
    lead: float = 0.0  # sum over games of (the first player's win share - this player's)
    lead_sq: float = 0.0

    @staticmethod
    def _se(total: float, total_sq: float, games: int) -> float:
        if games < 2:
            return 0.0
        mean = total / games
        return math.sqrt(max(0.0, total_sq / games - mean * mean) / (games - 1))

    @property
    def win_share(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def win_se(self) -> float:
        return self._se(self.wins, self.wins_sq, self.games)

    @property
    def points_se(self) -> float:
        """Standard error of the mean points per game."""
        return self._se(self.points, self.points_sq, self.games)

    @property
    def first_lead(self) -> tuple[float, float]:
        """How far the first player's win share is ahead of this player's, with its standard
        error from the game-by-game differences (the shares of one game are not independent)."""
        return (self.lead / self.games if self.games else 0.0), self._se(self.lead, self.lead_sq, self.games)

    def to_json(self) -> dict:
        out = asdict(self)
        for kept_internal in ("wins_sq", "lead", "lead_sq", "points_sq"):
            del out[kept_internal]
        lead, lead_se = self.first_lead
        out.update(win_share=self.win_share, win_se=self.win_se, first_lead=lead, first_lead_se=lead_se,
                   mean_points=self.points / self.games if self.games else 0.0, points_se=self.points_se,
                   mean_moves=self.moves / self.games if self.games else 0.0,
                   draw_share=self.draws / self.games if self.games else 0.0,
                   seat_win_share=[s / g if g else None for s, g in self.by_seat])
        del out["by_seat"]
        return out


@dataclass
class TournamentResult:
    game: str
    players: list[str]
    games: int
    seed: int
    options: dict
    stats: list[PlayerStats]
    seats: int = 0  # seats at the table (more than players when they alternate)
    records: list[GameRecord] = field(default_factory=list, repr=False)  # each game, for ratings
    whole_match: bool = False

    @property
    def seating(self) -> str:
        return seating_note(len(self.players), self.seats or len(self.players))

    @property
    def unit(self) -> str:
        return unit_name(self.game, self.whole_match, self.options)

    def to_json(self) -> dict:
        return {"game": self.game, "players": self.players, "games": self.games, "seed": self.seed,
                "options": self.options, "seats": self.seats or len(self.players), "seating": self.seating,
                "whole_match": self.whole_match, "unit": self.unit,
                "stats": [s.to_json() for s in self.stats]}


def summarise(game: str, players: Sequence[str], seed: int, options: dict | None,
              records: Sequence[GameRecord], whole_match: bool = False) -> TournamentResult:
    n = len(players)
    seats = len(records[0].order) if records else n
    stats = [PlayerStats(p, by_seat=[[0.0, 0] for _ in range(seats)]) for p in players]
    for r in records:
        seat_share = [0.0] * seats
        for seat in r.winners:
            seat_share[seat] = 1.0 / len(r.winners)
        shares, points, moves, count = [0.0] * n, [0.0] * n, [0.0] * n, [0] * n
        for seat, who in enumerate(r.order):
            shares[who] += seat_share[seat]
            points[who] += r.scores[seat]
            if r.seat_moves is not None:
                moves[who] += r.seat_moves[seat]
            count[who] += 1
            stats[who].by_seat[seat][0] += seat_share[seat]
            stats[who].by_seat[seat][1] += 1
        for who in range(n):
            if not count[who]:
                continue
            s, share, pts = stats[who], shares[who], points[who] / count[who]
            s.lead += shares[0] - share
            s.lead_sq += (shares[0] - share) ** 2
            s.games += 1
            s.wins += share
            s.wins_sq += share * share
            s.draws += not r.winners
            s.points += pts
            s.points_sq += pts * pts
            s.moves += r.moves if r.seat_moves is None else moves[who] / count[who]
    return TournamentResult(game, list(players), len(records), seed, dict(options or {}), stats, seats,
                            list(records), whole_match)


def share_with_error(share: float, se: float) -> str:
    """Percent with its standard error in the last digit's units: 0.324, 0.016 -> '32(2)'."""
    pct, err = 100 * share, 100 * se
    if err <= 0:
        return f"{pct:.0f}(0)"
    decimals = max(0, -math.floor(math.log10(err)))
    scaled_err = round(err * 10 ** decimals)
    if scaled_err >= 10 and decimals > 0:
        decimals -= 1
        scaled_err = round(err * 10 ** decimals)
    return f"{pct:.{decimals}f}({scaled_err})"
