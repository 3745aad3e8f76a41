"""Queen of Spades agents: the rule player's inputs, its choices in set positions, legal play
through the catalog, its margin over Random, and tournaments with two players at four seats."""
import random

from agents import tournament
from agents.records import summarise
from agents.catalog import levels, make_agent
from agents.queen_of_spades.rules_player import RulePlayer, choose, decide
from agents.queen_of_spades.seen import of_table, of_view
from engine import get_game
from engine.queen_of_spades import Table
from tests.engine.test_queen_of_spades import dealt, play

G = get_game("queen_of_spades")


def test_views_and_tables_give_the_same_inputs():
    rng = random.Random(3)
    for seed in range(20):
        state = G.new_deal(4, seed)
        while not G.is_over(state):
            seat = state.to_move
            legal = G.legal_actions(state)
            from_view = of_view(G.observe(state, seat), [a.card for a in legal])
            assert from_view == of_table(Table.thaw(state))
            state = G.apply(state, legal[rng.randrange(len(legal))])


def test_it_ducks_the_queen_and_drops_it_when_it_cannot_follow():
    hands = ["AH 9C 8C 7C AD KD QD JD", "9H 7H AC KC QC JC 10C 10D",
             "KH QH JH 10H 8H JS KS QS", "AS 10S 9S 8S 7S 9D 8D 7D"]
    state = play(dealt(hands), "AH")
    assert G.apply(state, RulePlayer().act(G.observe(state, 1), G.legal_actions(state), random.Random())).trick[-1][1] \
        == G.parse_action("play:9H").card  # the highest heart under the ace
    state = play(dealt(["AC 9C 8C 7C AD KD QD JD", "9H 7H AH KC QC JC 10C 10D",
                        "KH QH JH 10H 8H JS KS QS", "AS 10S 9S 8S 7S 9D 8D 7D"]), "9C", "KC")
    action = RulePlayer().act(G.observe(state, 2), G.legal_actions(state), random.Random())
    assert action.id == "play:QS"
    explanation = RulePlayer().explain(G.observe(state, 2), G.legal_actions(state))
    assert set(explanation.values) == {a.id for a in G.legal_actions(state)}
    assert "Q♠" in explanation.note


def test_it_goes_over_a_player_taking_every_trick():
    table = Table.new(4, 0)
    table.hands = [[3, 24, 25, 26, 27], [1, 7, 8, 9, 11], [10, 12, 13, 14, 15], [16, 17, 18, 19, 20]]
    table.played = sum(1 << c for c in range(32)) & ~sum(1 << c for h in table.hands for c in h)
    table.tricks, table.tricks_done, table.leader, table.to_move = [3, 0, 0, 0], 3, 0, 0
    table.step(3)  # seat 0, with every trick so far, leads the J♣; seat 1 holds K♣ and 7♣
    seen = of_table(table)
    assert seen.legal == [1, 7]
    scores, why = decide(seen)
    assert choose(seen) == 1 and "stop" in why
    table.tricks = [1, 1, 1, 0]  # nobody is taking every trick: the Q♠ is out, so it ducks
    assert choose(of_table(table)) == 7


def test_every_level_plays_legal_cards_through_the_catalog():
    result = tournament.run("queen_of_spades", levels("queen_of_spades")[:2] * 2, 8, seed=3)
    assert result.games == 8 and all(s.games == 8 for s in result.stats)
    assert abs(sum(s.points for s in result.stats)) < 1e-9


def test_two_players_sit_alternating_and_the_pairs_take_turns_leading():
    records = tournament.play_games("queen_of_spades", ["rules", "random"], range(4), seed=1)
    assert [r.order for r in records] == [(0, 1, 0, 1), (1, 0, 1, 0)] * 2
    result = summarise("queen_of_spades", ["rules", "random"], 1, None, records)
    assert result.seats == 4 and "A B A B" in result.seating
    a, b = result.stats
    assert abs(a.points + b.points) < 1e-9  # zero-sum: one pair's mean is minus the other's


def test_the_rule_player_beats_random_clearly():
    result = tournament.run("queen_of_spades", ["rules", "random"], 600, seed=11)
    rules = result.stats[0]
    mean, se = rules.points / rules.games, rules.points_se
    assert se > 0 and mean > 0.1 and mean > 5 * se, (mean, se)


def test_make_agent_builds_both():
    assert make_agent("queen_of_spades", "rules").name == "rules"
    assert make_agent("queen_of_spades", "random").name == "random"
