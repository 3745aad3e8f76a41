"""The coach's verdicts: exact for noughts and crosses, from the seat's view in the card games."""
import random

import pytest

from agents.catalog import coach
from agents.coach import is_mistake, review, summary
from engine import get_game

BLUNDER_GAME = ["cell:4", "cell:0", "cell:8", "cell:2", "cell:6", "cell:1"]
"""X takes the centre, O a corner, X the opposite corner, O threatens the top row, and X does not
block (cell:6 instead of cell:1): O wins. X's third move is the blunder: a draw thrown to a loss."""


def reviews_of(game_name: str, moves: list[str], seat: int) -> list[dict]:
    game, the_coach = get_game(game_name), coach(game_name)
    state, out = game.new_match(2, 0), []
    for ply, action in enumerate(moves):
        if ply % 2 == seat:
            out.append(review(the_coach, ply, game.observe(state, seat), game.legal_actions(state), action,
                              random.Random(ply)).to_json())
        state = game.apply_id(state, action)
    assert game.is_over(state)
    return out


def test_the_known_blunder_is_flagged_exactly_with_its_exact_loss():
    entries = reviews_of("tictactoe", BLUNDER_GAME, seat=0)
    the_coach = coach("tictactoe")
    assert [e["ply"] for e in entries] == [0, 2, 4]
    flagged = [e for e in entries if is_mistake(the_coach, e["loss"])]
    assert [(e["ply"], e["action"], e["best"], e["value"], e["best_value"], e["loss"]) for e in flagged] == [
        (4, "cell:6", "cell:1", -1.0, 0.0, 1.0)]
    assert all(e["loss"] == 0 and e["value"] == e["best_value"] == 0 for e in entries[:2])
    assert summary(the_coach, entries) == "1 mistake; the worst on move 5 cost 1 in game value"
    # O's moves were all perfect: O never gave anything away
    assert all(e["loss"] == 0 for e in reviews_of("tictactoe", BLUNDER_GAME, seat=1))


def test_a_forced_move_and_a_resignation_cost_nothing_and_are_not_judged():
    game, the_coach = get_game("tictactoe"), coach("tictactoe")
    state = game.new_match(2, 0)
    for a in ["cell:0", "cell:1", "cell:2", "cell:4", "cell:3", "cell:5", "cell:7", "cell:6"]:
        state = game.apply_id(state, a)
    forced = review(the_coach, 8, game.observe(state, 0), game.legal_actions(state), "cell:8", random.Random(0))
    assert (forced.best, forced.value, forced.loss) == ("cell:8", None, 0.0)
    resigned = review(the_coach, 8, game.observe(state, 0), game.legal_actions(state), "resign", random.Random(0))
    assert (resigned.best, resigned.loss) == (None, None)


@pytest.mark.parametrize("game_name,players", [("uno", 2), ("yaniv", 2), ("racko", 2), ("queen_of_spades", 4)])
def test_card_game_reviews_read_only_the_observation_and_rate_the_move_made(game_name, players):
    """The coach is handed the seat's observation (never the state); values of the same view are the
    same whatever the hidden cards are (a redeal of everything the seat cannot see)."""
    game, the_coach = get_game(game_name), coach(game_name)
    rng = random.Random(5)
    state = game.new_deal(players, 11)
    reviewed = 0
    while not game.is_over(state) and reviewed < 2:
        seat, legal = game.current_player(state), game.legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        if len(legal) > 1:
            view = game.observe(state, seat)
            other = game.resample_hidden(state, seat, random.Random(reviewed))
            assert game.observe(other, seat) == view
            a = review(the_coach, 0, view, legal, action.id, random.Random(1))
            b = review(the_coach, 0, game.observe(other, seat), game.legal_actions(other), action.id, random.Random(1))
            assert a == b
            assert a.best in {x.id for x in legal} and a.best_value is not None
            if game_name != "yaniv":  # Harel rates only its own kind of throw
                assert a.value is not None and a.loss >= 0
            reviewed += 1
        state = game.apply(state, action)
    assert reviewed == 2
