"""Noughts-and-crosses rules (docs/rules.md, section 1)."""
import json

import pytest

from engine import IllegalActionError, OptionError, StateError, get_game

G = get_game("tictactoe")


def play(*cells):
    state = G.new_match(2, 1)
    for c in cells:
        state = G.apply_id(state, f"cell:{c}")
    return state


def test_cells_are_numbered_row_by_row_and_x_moves_first():
    state = play(2)
    assert G.observe(state, None)["cells"] == ["", "", "X", "", "", "", "", "", ""]
    state = G.apply_id(state, "cell:6")
    assert G.observe(state, None)["cells"][6] == "O"
    assert G.action_label(G.parse_action("cell:2")) == "top right"
    assert G.action_label(G.parse_action("cell:8")) == "bottom right"


@pytest.mark.parametrize("line", [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)])
def test_every_line_wins_at_once(line):
    others = [c for c in range(9) if c not in line]
    moves = [line[0], others[0], line[1], others[1], line[2]]
    state = play(*moves)
    assert G.is_over(state) and G.winners(state) == [0] and G.scores(state) == [1.0, -1.0]
    assert G.observe(state, 0)["line"] == list(line)
    assert G.legal_actions(state) == []


def test_a_full_board_without_a_line_is_a_draw():
    state = play(0, 1, 2, 4, 3, 5, 7, 6, 8)  # X: 0 2 3 7 8, O: 1 4 5 6
    assert all(G.observe(state, None)["cells"]) and G.is_over(state)
    assert G.winners(state) == [] and G.scores(state) == [0.0, 0.0]


def test_a_line_made_with_the_ninth_mark_wins_rather_than_draws():
    state = play(0, 1, 4, 2, 5, 3, 6, 7, 8)  # X: 0 4 5 6 8, the ninth mark completes 0-4-8
    assert G.winners(state) == [0] and G.scores(state) == [1.0, -1.0]


def test_illegal_moves_name_the_reason_and_change_nothing():
    state = play(4)
    before = json.dumps(G.to_json(state))
    with pytest.raises(IllegalActionError, match="already taken"):
        G.apply_id(state, "cell:4")
    with pytest.raises(IllegalActionError, match="0 to 8"):
        G.apply_id(state, "cell:12")
    with pytest.raises(IllegalActionError):
        G.apply_id(state, "play:r7")
    assert json.dumps(G.to_json(state)) == before
    with pytest.raises(IllegalActionError, match="over"):
        G.apply_id(play(0, 3, 1, 4, 2), "cell:8")


def test_resignation_loses_and_only_the_mover_may_resign():
    state = G.apply_id(play(4), "resign")
    assert G.is_over(state) and G.winners(state) == [0]
    with pytest.raises(IllegalActionError):
        G.resign(play(4), 0)


def test_options_and_players_are_checked():
    with pytest.raises(OptionError, match="2 players"):
        G.new_match(3, 1)
    with pytest.raises(OptionError, match="unknown option"):
        G.new_match(2, 1, {"size": 4})
    with pytest.raises(StateError):
        G.from_json({"cells": [3] * 9})
