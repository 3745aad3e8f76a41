"""Tournaments: any seats, any number of games, on any ``concurrent.futures.Executor``.

Seats rotate over every arrangement of the players (``seating``): each run of
``n`` games shifts every player through every seat, and each run of ``n!`` games
uses every cyclic order once, so no player keeps the first seat *or its
neighbours* (in Uno the player after one who hoards Draw Twos suffers). Each game's chance and each agent's randomness derive from the
tournament seed and the game number, so a tournament replays exactly whatever
the executor (a local process pool, or a Dask cluster's executor).

A tournament counts whole matches or single deals (``whole_match``); by default the
unit the game names (``GameType.whole_matches``: Uno counts whole games to 500,
as its write-up and a person at the table do; the others count deals). The result
names its unit beside its figures.

Uno's card players are played straight on the rules table (``agents.uno.arena``:
the same games, several times faster); every other agent through ``observe``/``act``.

A game that needs more seats than players are named (Queen of Spades takes four)
seats them alternating when their number divides the seats (``seat_count``): two
players sit A B A B, and game ``i`` shifts them ``i`` seats on, so the pairs take
turns leading; each player then scores the mean of its seats.

The result reports per player: win share (a game with k winners gives each 1/k)
with its standard error, draws, mean points with their standard error, mean moves
per game (every seat's actions; in a game whose ``GameType.actions_per_move`` is above 1, e.g. Rack-O's
draw + place, that player's own moves), the win share by seat position, and the
first player's lead over it (the difference of their win shares, with the standard
error of the game-by-game difference: the test of "the first player beats this one").
"""
from __future__ import annotations

import random
from concurrent.futures import Executor, as_completed
from typing import Any, Callable, Mapping, Sequence

from agents.arenas import fast_arena
from agents.catalog import make_agent
from agents.records import GameRecord, TournamentResult, arrangement, seat_count, summarise
from agents.spec import Values
from engine import Game, chance, get_game, play_out


def play_games(game_name: str, players: Sequence[str], indices: Sequence[int], seed: int,
               options: dict | None = None, whole_match: bool = False,
               values: Mapping[str, Values] | None = None) -> list[GameRecord]:
    """Play the games numbered ``indices``; runs in a worker process."""
    agents = [make_agent(game_name, p, (values or {}).get(p)) for p in players]
    arena = fast_arena(game_name, agents)
    if arena is not None:
        return arena(agents, indices, seed, options, whole_match)
    return play_by_observation(game_name, agents, indices, seed, options, whole_match)


def play_by_observation(game_name: str, agents: Sequence, indices: Sequence[int], seed: int,
                        options: dict | None = None, whole_match: bool = False) -> list[GameRecord]:
    """The games numbered ``indices``, each agent acting on its seat's observation."""
    game = get_game(game_name)
    per_move = game.type.actions_per_move  # moves counted per player
    records = []
    for i in indices:
        actions = [0] * seat_count(game, len(agents))

        def count(_state, seat, _action, tally=actions):
            tally[seat] += 1

        order, state, history = play_one(game, agents, i, seed, options, whole_match, on_move=count)
        seat_moves = None if per_move == 1 else tuple(a // per_move for a in actions)
        records.append(GameRecord(i, order, tuple(game.scores(state)), tuple(game.winners(state)),
                                  len(history), seat_moves))
    return records


def play_one(game: Game, agents: Sequence, i: int, seed: int, options: dict | None = None, whole_match: bool = False,
             on_move: Callable | None = None) -> tuple[tuple[int, ...], Any, list[str]]:
    """Game number ``i`` of a tournament of ``agents`` (its seats, deal and agents' randomness): the
    seating (``order[seat]`` = the agent's index), the final state and the moves made."""
    n = seat_count(game, len(agents))
    order = arrangement(i, len(agents), n)
    state = (game.new_match if whole_match else game.new_deal)(n, chance(seed, "game", i).getrandbits(48), options)
    state, history = play_out(game, state, [agents[order[seat]] for seat in range(n)],
                              random.Random(f"{seed}:agents:{i}"), on_move=on_move)
    return order, state, history


def run(game: str, players: Sequence[str], games: int, seed: int = 1, options: dict | None = None,
        executor: Executor | None = None, whole_match: bool | None = None,
        values: Mapping[str, Values] | None = None, chunk: int = 100,
        progress: Callable[[int], None] | None = None) -> TournamentResult:
    """Play ``games`` games (whole matches or single deals; ``None``: the game's unit);
    with an executor they run in chunks in parallel."""
    g = get_game(game)
    seat_count(g, len(players))
    g.resolve_options(options)
    if whole_match is None:
        whole_match = g.type.whole_matches
    if games < 1:
        raise ValueError("a tournament needs at least one game")
    if executor is not None:  # at least eight chunks, so a few slow games still spread over the workers
        chunk = max(1, min(chunk, -(-games // 8)))
    chunks = [list(range(i, min(i + chunk, games))) for i in range(0, games, chunk)]
    records: list[GameRecord] = []
    if executor is None:
        for c in chunks:
            records += play_games(game, players, c, seed, options, whole_match, values)
            if progress:
                progress(len(c))
    else:
        futures = [executor.submit(play_games, game, list(players), c, seed, options, whole_match, values)
                   for c in chunks]
        for f in as_completed(futures):
            got = f.result()
            records += got
            if progress:
                progress(len(got))
    records.sort(key=lambda r: r.index)
    return summarise(game, players, seed, options, records, whole_match)
