"""The write-up's Uno players and our Tactician: what each plays, the shared mechanics, the catalog entries."""
import json
import random
from collections import Counter

import pytest

from agents.catalog import agent_specs, levels, make_agent
from agents.saved_files import SAVED
from agents.records import summarise
from agents.tournament import play_by_observation, run
from agents.uno import arena
from agents.uno.heuristics import BetterOffensive, Defensive, FirstPlayable, Offensive, RandomPlayer
from agents.uno.play import best_colour
from agents.uno.tactician import Tactician
from engine import get_game
from engine.uno import parse_action
from engine.uno.cards import CARD_IDS
from engine.uno.rules import OPENING, Table
from engine.uno.view import CODE_OF_ID
from tests.engine.test_uno import act, position

G = get_game("uno")
HEURISTICS = (RandomPlayer(), FirstPlayable(), Offensive(), Defensive(), BetterOffensive(), Tactician())


def choice(agent, state, seed=0):
    seat = G.current_player(state)
    legal = G.legal_actions(state)
    action = agent.act(G.observe(state, seat), legal, random.Random(seed))
    assert action in legal
    return action.id


HAND = ["r1", "r9", "rskip", "wild", "wd4", "b5", "b7", "g2"]


def test_offensive_plays_its_lowest_card_and_keeps_wilds_for_the_end():
    s = position([HAND, ["y1"]], "r4", colour="r")
    assert choice(Offensive(), s) == "play:r1"
    only_wilds = position([["wild", "wd4", "b5", "b7"], ["y1"]], "r4")
    assert choice(Offensive(), only_wilds) == "play:wild:b"


def test_defensive_plays_its_highest_card_wilds_first():
    s = position([HAND, ["y1"]], "r4", colour="r")
    assert choice(Defensive(), s) == "play:wild:r"  # 50 points, naming red (three red cards held)
    no_wilds = position([["r1", "r9", "rskip", "b5"], ["y1"]], "r4")
    assert choice(Defensive(), no_wilds) == "play:rskip"


def test_first_playable_plays_the_first_playable_card_it_received():
    cards = ["b5", "r9", "wild", "r1"]  # in the order they came (the rules table keeps that order)
    s = position([cards, ["y1"]], "r4")
    legal = Table.reader(s).legal()
    assert FirstPlayable().choose([CODE_OF_ID[c] for c in cards], legal, random.Random(0)) == CODE_OF_ID["r9"]
    player = FirstPlayable()  # from observations (sorted hands) it keeps the order itself
    played = choice(player, s)
    order = [CARD_IDS[c] for c in player.order]
    assert sorted(order) == sorted(cards)
    assert played.startswith("play:" + next(c for c in order if c != "b5"))
    drawn = act(position([cards, ["y1"]], "r4", pile=["g3"]), "draw")
    player.held_in_order(drawn.hands[0], random.Random(1))
    assert [CARD_IDS[c] for c in player.order] == order + ["g3"]  # a drawn card waits behind those held


def test_better_offensive_plays_its_highest_non_wild_card_first():
    s = position([HAND, ["y1"]], "r4", colour="r")
    assert choice(BetterOffensive(), s) == "play:rskip"
    assert choice(BetterOffensive(), position([["wild", "wd4", "g5"], ["y1"]], "r4")) == "play:wild:g"


def test_tactician_keeps_to_the_colour_it_holds_most():
    s = position([["r1", "r9", "b4", "b5", "b7", "wild"], ["y1"]], "r4")
    assert choice(Tactician(), s) == "play:b4"  # leaves blue in force: two more blue cards held
    reds = position([["r1", "r9", "rrev", "rskip", "b5"], ["y1"]], "r4")
    assert choice(Tactician(), reds) == "play:rskip"  # Skip first, then numbers (lowest first), Reverse last
    assert choice(Tactician(), position([["r1", "r9", "rrev", "b5"], ["y1"]], "r4")) == "play:r1"
    assert choice(Tactician(), position([["wild", "wd4", "g5"], ["y1"]], "r4")) == "play:wd4:g"


def test_tactician_beats_the_write_ups_players_at_four_players():
    names = ["tactician", "offensive", "defensive", "betteroffensive"]
    result = arena.run([make_agent("uno", n) for n in names], 24_000, seed=21, names=names)
    for other in result.stats[1:]:
        lead, se = other.first_lead
        assert lead > 2.5 * se, (other.player, lead, se)


def test_random_plays_every_playable_card_about_equally_often():
    s = position([HAND, ["y1"]], "r4", colour="r")
    counts = Counter(choice(RandomPlayer(), s, seed) for seed in range(1200))
    cards = Counter(parse_action(action_id).card.id for action_id in counts.elements())
    assert set(cards) == {"r1", "r9", "rskip", "wild"}  # wd4 is illegal while holding red
    assert all(abs(n - 300) < 3 * (1200 * 0.25 * 0.75) ** 0.5 for n in cards.values())


def test_wild_names_the_colour_held_most():
    assert best_colour([CODE_OF_ID[c] for c in ["g1", "g2", "b9", "wild"]]) == 2
    assert best_colour([CODE_OF_ID[c] for c in ["y1", "b2"]]) == 3  # tie on count: blue's cards are worth more
    assert best_colour([CODE_OF_ID[c] for c in ["g1", "g2", "b9", "b8", "b7"]], CODE_OF_ID["b9"]) == 3
    assert best_colour([CODE_OF_ID["wild"]]) == 0
    for agent in HEURISTICS:
        s = position([["wild", "g1", "g3", "b2"], ["y1"]], "r4")
        assert choice(agent, s) == "play:wild:g"


@pytest.mark.parametrize("agent", HEURISTICS, ids=lambda a: a.name)
def test_draw_only_when_unable_then_play_the_drawn_card_if_possible(agent):
    s = position([["b3", "g7"], ["y1"]], "r4", pile=["r8", "y9"])
    assert choice(agent, s) == "draw"
    drawn = act(s, "draw")
    assert choice(agent, drawn) == "play:r8"
    unplayable = act(position([["b3"], ["y1"]], "r4", pile=["y9"]), "draw")
    assert choice(agent, unplayable) == "pass"
    wild = act(position([["b3", "b5"], ["y1"]], "r4", pile=["wild"]), "draw")
    assert choice(agent, wild) == "play:wild:b"


@pytest.mark.parametrize("agent", HEURISTICS, ids=lambda a: a.name)
def test_uno_calls_catches_opening_colour_and_wd4(agent):
    opts = {"uno_call": True, "wd4_challenge": True}
    assert choice(agent, position([["r1", "b2"], ["y1"]], "r4", options=opts)).endswith(":uno")
    forgot = act(position([["r1", "r2"], ["g5", "g6"], ["y1"]], "r7", options=opts), "play:r1")
    assert choice(agent, forgot) == "catch"
    challenged = act(position([["wd4", "r5"], ["b1"], ["g2"]], "y7", options=opts), "play:wd4:g:uno")
    assert choice(agent, challenged) == "accept"
    opening = position([["g1", "g2", "y5"], ["y1"]], "wild", colour="r")._replace(colour=-1, phase=OPENING)
    assert choice(agent, opening) == "colour:g"


@pytest.mark.parametrize("agent", HEURISTICS, ids=lambda a: a.name)
def test_explanations_cover_the_playable_cards(agent):
    s = position([HAND, ["y1"]], "r4", colour="r")
    legal = G.legal_actions(s)
    explanation = agent.explain(G.observe(s, 0), legal)
    assert set(explanation.values) == {a.id for a in legal if a.id.startswith("play:")}
    assert explanation.label
    best = max(explanation.values.values())
    if agent.name != "random":
        assert explanation.values[choice(agent, s)] == best


def test_catalog_lists_the_uno_agents_and_levels():
    ids = [s.id for s in agent_specs("uno")]
    assert {"random", "offensive", "defensive", "betteroffensive"} <= set(ids)
    assert set(levels("uno")) <= set(ids) and levels("uno")[-1] == "mcts-dmc"
    assert all(make_agent("uno", i) is not None for i in ids)


def test_uno_levels_are_easiest_first_by_their_calibration_in_whole_games():
    data = json.loads((SAVED / "calibration" / "uno.json").read_text())["agents"]
    searching = {s.id for s in agent_specs("uno") if s.searches}  # calibrated on fewer games, or not yet
    card_rules = [a for a in levels("uno") if a not in searching]
    vs_tactician = [data[a]["vs"]["Tactician"] for a in card_rules]
    assert all(v["counts"] == "whole games to 500" for v in vs_tactician)
    for easier, harder in zip(vs_tactician, vs_tactician[1:]):  # none clearly weaker than the level before
        assert harder["score"] - easier["score"] > -(easier["half_width"] + harder["half_width"]), (easier, harder)


@pytest.mark.parametrize("options,whole_match", [({"uno_call": True}, False), ({}, True),
                                                 ({"preset": "writeup"}, True)])
def test_the_fast_arena_plays_the_same_games_as_observing_agents(options, whole_match):
    names = ["offensive", "random", "defensive", "betteroffensive"] if not whole_match else ["offensive", "random"]
    agents = [make_agent("uno", n) for n in names]
    games = 24 if not whole_match else 4
    slow = summarise("uno", names, 9, options, play_by_observation("uno", agents, range(games), 9, options,
                                                                    whole_match), whole_match)
    fast = arena.run(agents, games, seed=9, options=options, names=names, whole_match=whole_match)
    assert slow.to_json() == fast.to_json()
    assert run("uno", names, games, seed=9, options=options, whole_match=whole_match).to_json() == fast.to_json()
    if whole_match:
        assert sum(s.points for s in fast.stats) >= 500 * games  # each game's winner reached 500


def test_uno_tournaments_count_whole_games_to_500_unless_told_otherwise():
    games = run("uno", ["defensive", "random"], 4, seed=2)
    assert games.whole_match and games.to_json()["unit"] == "whole games to 500"
    deals = run("uno", ["defensive", "random"], 4, seed=2, whole_match=False)
    assert not deals.whole_match and deals.to_json()["unit"] == "single deals"
    assert deals.stats[0].moves < games.stats[0].moves
    to_200 = run("uno", ["defensive", "random"], 2, seed=2, options={"target_score": 200})
    assert to_200.unit == "whole games to 200"
    assert run("yaniv", ["semirandom", "greedyrandom"], 2, seed=2).unit == "single deals"  # as before


def test_offensive_beats_random_at_four_players():
    result = arena.run([Offensive(), RandomPlayer(), RandomPlayer(), RandomPlayer()], 6000, seed=5)
    offensive = result.stats[0]
    assert offensive.win_share - 0.25 > 3 * offensive.win_se, (offensive.win_share, offensive.win_se)
