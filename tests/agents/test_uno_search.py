"""The Monte Carlo search level: its samples, what the log lets it infer, its choices."""
import random
from collections import Counter

from agents.uno.inference import Void, voids
from agents.tournament import run
from agents.uno.heuristics import Offensive
from agents.uno.search import Determiniser, MonteCarloSearch, playout_value, sensible
from engine import get_game
from engine.uno.cards import FULL_DECK
from engine.uno.rules import Table
from engine.uno.view import CODE_OF_ID
from tests.engine.test_uno import act, position

G = get_game("uno")


def codes(*ids):
    return [CODE_OF_ID[c] for c in ids]


def test_samples_keep_what_the_seat_sees_and_deal_the_rest():
    s = act(position([["r5", "rd2", "g7"], ["g1", "b3", "y4"], ["y9", "b1"]], "r3"), "play:r5")
    view = G.observe(s, 1)
    sampler = Determiniser(view, random.Random(1))
    seen = []
    for k in range(30):
        t = sampler.sample(random.Random(k))
        assert sorted(t.hands[1]) == sorted(s.hands[1])
        assert [len(h) for h in t.hands] == [len(h) for h in s.hands] and len(t.pile) == len(s.pile)
        assert Counter(c for h in t.hands for c in h) + Counter(t.pile) + Counter(t.discard) == Counter(FULL_DECK)
        assert G.observe(t.freeze(), 1)["hand"] == view["hand"]
        seen.append(tuple(sorted(t.hands[0])))
    assert len(set(seen)) > 20  # the other hands really vary


def test_a_draw_tells_what_a_player_lacks():
    s = act(position([["r5", "rd2", "g7"], ["g1", "b3", "y4"], ["r9", "b1"]], "r3", pile=["g9"]),
            "play:r5", "draw", "pass")
    view = G.observe(s, 2)
    assert voids(view) == {1: Void(colour=0, rank=5, cards=4)}  # its 3 cards and the g9 it kept
    sampler = Determiniser(view, random.Random(2))
    for k in range(30):
        hand = sampler.sample(random.Random(k)).hands[1]
        assert all(Void(0, 5, 4).allows(c) for c in hand)
    later = act(s, "play:r9")  # still known to seat 0 after seat 2 plays
    assert voids(G.observe(later, 0)) == {1: Void(colour=0, rank=5, cards=4)}


def test_sensible_moves():
    assert sensible([5, 120, 128], codes("r5")) == [128]  # catch a missed UNO at once
    assert sensible([5, 65, 120], codes("r5", "g1")) == [65, 120]  # call UNO when it can be called
    wild_plays = [52, 53, 54, 55]
    assert sensible(wild_plays + [120], codes("wild", "g1", "b2")) == [54, 55, 120]  # colours it holds
    assert sensible(wild_plays + [120], codes("wild")) == wild_plays + [120]


def test_search_finds_the_winning_draw_two():
    s = position([["r5", "rd2"], ["g1"]], "r3")
    searcher = MonteCarloSearch(3000)
    legal = G.legal_actions(s)
    action = searcher.act(G.observe(s, 0), legal, random.Random(3))
    assert action.id == "play:rd2"
    explanation = searcher.explain(G.observe(s, 0), legal)
    assert explanation.values["play:rd2"] == 1.0 and explanation.values["play:r5"] < 1.0
    assert set(explanation.values) == {"play:r5", "play:rd2", "draw"}


def test_one_sensible_move_needs_no_search():
    s = position([["b5", "g7"], ["g1"]], "r3")
    searcher = MonteCarloSearch(10_000)
    assert searcher.act(G.observe(s, 0), G.legal_actions(s), random.Random(0)).id == "draw"
    assert searcher.explain(G.observe(s, 0), G.legal_actions(s)).values == {}


def test_in_a_whole_game_it_plays_for_the_deal_points():
    """To 500 points a move is worth the points the deal gives: going out for sure scores the
    other hand (its g1 and the two cards the Draw Two gives it), not a chance of 1."""
    s = position([["r5", "rd2"], ["g1"]], "r3", single=False)
    searcher = MonteCarloSearch(3000)
    legal = G.legal_actions(s)
    assert searcher.act(G.observe(s, 0), legal, random.Random(3)).id == "play:rd2"
    explanation = searcher.explain(G.observe(s, 0), legal)
    assert explanation.label == "expected points from the deal"
    assert explanation.values["play:rd2"] > max(3, explanation.values["play:r5"])  # in points, not a chance
    deal_only = MonteCarloSearch(3000, objective="deal").explain(G.observe(s, 0), legal)
    assert deal_only.label == "estimated chance to win the deal" and deal_only.values["play:rd2"] == 1.0


def test_a_playout_scores_the_deal_won_its_points_or_the_points_relative_to_the_others():
    s = act(position([["r5"], ["g1", "b2"], ["y3", "y4"]], "r3"), "play:r5")  # seat 0 goes out: 10 points
    table = Table.thaw(s)
    assert [playout_value(table, 0, False, False), playout_value(table, 1, False, False)] == [1.0, 0.0]
    assert [playout_value(table, p, True, False) for p in range(3)] == [10, -3, -7]  # minus its own hand
    assert [playout_value(table, p, True, True) for p in range(3)] == [10, -5, -5]  # the winner's 10 over two


def test_the_playouts_give_the_other_seats_their_own_rule():
    """With ``others`` the other seats' playouts follow that rule (here Offensive): on the same
    sampled deals (the explanation's fixed stream) the values change, and the note says so."""
    s = position([["r5", "r6"], ["r1", "rd2", "g9"]], "r3")
    legal = G.legal_actions(s)
    tactician = MonteCarloSearch(3000).explain(G.observe(s, 0), legal)
    offensive = MonteCarloSearch(3000, others=Offensive()).explain(G.observe(s, 0), legal)
    assert "the tactician rule for it and the offensive rule for the others" in offensive.note
    assert tactician.values != offensive.values


def test_the_top_level_wins_whole_games_against_random():
    """The shipped top level on a small sample: 8 whole games to 500 against Random (about 40 s of CPU).
    It catches a broken search, not a small loss of strength: BetterOffensive, the rule it falls back
    to, wins 75% of whole games against Random (the calibration), and at that rate 5 or more of 8 come
    with probability 0.89, at Random's own level 0.36. This seed gives 6 (its strength against
    BetterOffensive and the perceptron is measured on docs/measurements/uno.md, in hundreds of games)."""
    result = run("uno", ["mcts-bo", "random"], 8, seed=5)
    assert result.stats[0].wins >= 5, result.stats[0]
