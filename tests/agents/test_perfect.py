"""Perfect (minimax, random among equally good moves): never loses."""
from __future__ import annotations

import random
from collections import Counter

from agents.tictactoe.perfect import Perfect, move_values, value
from agents.tournament import run
from engine import get_game

GAME = get_game("tictactoe")


def state_of(cells):
    return GAME.from_json({"cells": list(cells)})


def test_values_of_known_positions():
    assert value((0,) * 9) == 0  # noughts and crosses is a draw
    # X to move with two in a row (0, 1) and O on 3, 4: X wins at 2; blocking at 5 only draws
    values = move_values((1, 1, 0, 2, 2, 0, 0, 0, 0))
    assert values == {2: 1, 5: 0, 6: -1, 7: -1, 8: -1}
    # O to move must block X's row at 2
    values = move_values((1, 1, 0, 0, 2, 0, 0, 0, 0))
    assert values[2] == 0 and all(v == -1 for c, v in values.items() if c != 2)
    # after X corner, O's only drawing replies are the centre
    assert {c for c, v in move_values((1, 0, 0, 0, 0, 0, 0, 0, 0)).items() if v == 0} == {4}


def test_takes_the_win_and_blocks():
    rng = random.Random(0)
    for cells, best in [((1, 1, 0, 2, 2, 0, 0, 0, 0), 2), ((1, 1, 0, 0, 2, 0, 0, 0, 0), 2),
                        ((2, 0, 0, 1, 2, 0, 1, 0, 0), 8)]:
        state = state_of(cells)
        seat = GAME.current_player(state)
        for _ in range(20):
            assert Perfect().act(GAME.observe(state, seat), GAME.legal_actions(state), rng).cell == best


def test_random_among_equally_good_moves():
    state = GAME.new_match(2, 0)
    rng = random.Random(7)
    seen = Counter(Perfect().act(GAME.observe(state, 0), GAME.legal_actions(state), rng).cell
                   for _ in range(1800))
    assert set(seen) == set(range(9))  # every opening draws, so every cell is played
    assert all(120 < n < 280 for n in seen.values())  # 200 expected each, sd about 13


def test_explain_gives_each_legal_move_its_value():
    state = state_of((1, 1, 0, 2, 2, 0, 0, 0, 0))
    explanation = Perfect().explain(GAME.observe(state, 0), GAME.legal_actions(state))
    assert explanation.values == {"cell:2": 1.0, "cell:5": 0.0, "cell:6": -1.0, "cell:7": -1.0, "cell:8": -1.0}


def test_never_loses_to_random():
    stats = run("tictactoe", ["perfect", "random"], 1000, seed=5).stats
    perfect, rand = stats
    assert perfect.wins + perfect.draws == 1000  # no losses, as X or as O
    assert rand.wins == 0
    assert perfect.win_share > 0.8  # about 0.87: it also wins most games


def test_draws_against_itself():
    result = run("tictactoe", ["perfect", "perfect"], 300, seed=6)
    assert all(s.draws == s.games == 300 for s in result.stats)
