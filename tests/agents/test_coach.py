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
            assert a.value is not None and a.loss >= 0
            reviewed += 1
        state = game.apply(state, action)
    assert reviewed == 2


def yaniv_position(hand: list[str], pile: str, other: list[str]):
    """A two-player Yaniv deal with seat 0 to move holding ``hand``, ``pile`` on the discard pile
    and ``other`` in seat 1's hand (the rest of the deck in the stock)."""
    from engine.yaniv.cards import DECK_SIZE, parse_card
    index = lambda cards: tuple(sorted(parse_card(c).index for c in cards))  # noqa: E731
    used = set(index(hand + other + [pile]))
    state = get_game("yaniv").new_deal(2, 3)
    return state._replace(hands=(index(hand), index(other)), top=index([pile]), below=(), to_move=0,
                          known=((), ()), stock=tuple(c for c in range(DECK_SIZE) if c not in used))


def test_the_yaniv_coach_rates_runs_and_parts_of_sets():
    """Every legal Yaniv move gets a value, a run and one card of a pair (not among Harel's
    actions) included; throwing the run beats throwing the 2, and so does keeping the pair whole."""
    from agents.yaniv.coach import values
    game = get_game("yaniv")
    state = yaniv_position(["3c", "4c", "5c", "9d", "9h"], "Ks", ["2s", "7h", "8d", "Jd", "Qc"])
    legal = game.legal_actions(state)
    rated = values(game.observe(state, 0), legal, None, random.Random(0))
    assert set(rated) == {a.id for a in legal}
    assert rated["drop:3c,4c,5c|take:stock"] > rated["drop:3c|take:stock"]
    assert rated["drop:9d,9h|take:stock"] > rated["drop:9d|take:stock"]
    entry = review(coach("yaniv"), 4, game.observe(state, 0), legal, "drop:9d|take:Ks", random.Random(0))
    assert entry.value is not None and entry.loss > 0 and entry.best != "drop:9d|take:Ks"


def test_the_yaniv_coach_rates_a_safe_call_best_and_a_risky_one_below_certain():
    from agents.yaniv.coach import values
    game = get_game("yaniv")
    low = yaniv_position(["Ac", "2d"], "Ks", ["Jd", "Qc", "Kh", "9s", "8s"])  # 3 points against 48
    rated = values(game.observe(low, 0), game.legal_actions(low), None, random.Random(0))
    assert rated["yaniv"] > 0.95  # no Assaf possible: the call wins for certain, the best move
    assert max(rated, key=rated.get) == "yaniv"
    risky = yaniv_position(["5c", "2d"], "Ks", ["Ad"])  # 7 points against a hand of one card
    rated = values(game.observe(risky, 0), game.legal_actions(risky), None, random.Random(0))
    assert 0.2 < rated["yaniv"] < 0.7  # about the chance that one unseen card is worth more than 7
    assert all(0 <= v <= 1 for v in rated.values())  # chances


def test_a_decision_the_coachs_level_makes_by_rule_is_not_rated():
    from agents.coach import Coach
    game = get_game("tictactoe")
    state = game.new_match(2, 0)
    legal = game.legal_actions(state)
    view = game.observe(state, 0)

    def rated(values: dict) -> Coach:
        return Coach("perfect", "", 0.5, lambda *_: values)

    by_rule = review(rated({}), 0, view, legal, "cell:4", random.Random(0))
    assert (by_rule.best, by_rule.value, by_rule.loss) == (None, None, None)
    only = review(rated({"cell:4": 0.0}), 0, view, legal, "cell:4", random.Random(0))
    assert (only.best, only.value, only.loss) == ("cell:4", None, 0.0)
    other = review(rated({"cell:4": 0.0}), 0, view, legal, "cell:0", random.Random(0))
    assert (other.best, other.value, other.loss) == ("cell:4", None, None)


def test_the_uno_coach_judges_as_the_top_level_plays_at_the_tables_size():
    """At two and three seats the search's chance to win; from four the top level's networks, in points:
    their best is the move the level makes, and their values are the level's own."""
    from agents.catalog import make_agent
    three, four, five = coach("uno", 3), coach("uno", 4), coach("uno", 5)
    assert three is coach("uno") and three.agent == "mcts-bo" and "chance" in three.unit
    assert four is five and five.agent == "mcts-dmc" and five.unit.startswith("expected points")
    game, level, rng = get_game("uno"), make_agent("uno", "mcts-dmc"), random.Random(4)
    compared = 0
    for deal in range(3):
        state = game.new_deal(5, 300 + deal)
        while not game.is_over(state):
            seat, legal = game.current_player(state), game.legal_actions(state)
            view = game.observe(state, seat)
            action = level.act(view, legal, rng)
            values = five.values(view, legal, None, random.Random(0))
            if len(values) > 1:
                assert max(values, key=values.__getitem__) == action.id
                assert values == level.explain(view, legal).values
                compared += 1
            state = game.apply(state, action)
    assert compared >= 20
