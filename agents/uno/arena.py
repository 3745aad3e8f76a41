"""Fast Uno tournaments: the same deals, seats and decisions as ``agents.tournament``,
played straight on the rules ``Table`` with each player's ``choose`` (or ``choose_on``).

``agents.tournament.play_games`` builds an observation per move and calls ``act``;
a ``CardPlayer``'s ``act`` is ``choose`` on the hand and legal codes from that
observation, so playing ``choose`` on the table directly gives the very same games
(a test checks it) several times faster. Training loops use this.
"""
from __future__ import annotations

import random
from typing import Callable, Sequence

from agents.records import GameRecord, TournamentResult, seating, summarise
from engine.base import chance
from engine.uno import Uno
from engine.uno.rules import OVER, Table

GAME = Uno()


def mover(player) -> Callable[[Table, int, random.Random], int]:
    """How ``player`` moves on the table: a ``CardPlayer`` from its hand and the legal codes
    (``choose``); a player with ``choose_on(table, seat, rng)`` (the Deep Monte-Carlo player,
    which reads only what its seat sees: tested) from the table."""
    on_table = getattr(player, "choose_on", None)
    if on_table is not None:
        return on_table
    choose = player.choose
    return lambda table, seat, rng: choose(table.hands[seat], table.legal(), rng)


def play_deal(table: Table, seats: Sequence, rng: random.Random) -> int:
    """Play ``table`` to its end; returns the number of moves."""
    moves = 0
    movers = [mover(p) for p in seats]
    while table.phase != OVER:
        seat = table.turn
        table.step(movers[seat](table, seat, rng))
        moves += 1
    return moves


def play_records(players: Sequence, indices: Sequence[int], seed: int,
                 options: dict | None = None, whole_match: bool = False) -> list[GameRecord]:
    """The games numbered ``indices`` of a tournament (same seeding as agents.tournament)."""
    rules = GAME.rules(len(players), options)
    n = len(players)
    records = []
    for i in indices:
        order = seating(i, n)
        seats = [players[order[seat]] for seat in range(n)]
        table = Table.new(n, chance(seed, "game", i).getrandbits(48), rules, single=not whole_match)
        moves = play_deal(table, seats, random.Random(f"{seed}:agents:{i}"))
        state = table.freeze()
        records.append(GameRecord(i, order, tuple(GAME.scores(state)), tuple(GAME.winners(state)), moves))
    return records


def run(players: Sequence, games: int, seed: int = 1, options: dict | None = None,
        names: Sequence[str] | None = None, whole_match: bool = False) -> TournamentResult:
    """A tournament of ``players`` (agent objects) over ``games`` deals, in this process."""
    records = play_records(players, range(games), seed, options, whole_match)
    return summarise("uno", list(names or [p.name for p in players]), seed, options, records, whole_match)
