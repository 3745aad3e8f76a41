"""The lobby's game lengths: every one is a valid set of options, "full match" is the defaults, and
"one deal" really ends the match after its first deal (each game's strongest quick rule player in
every seat, a few seeds; pure random play can run a deal to its move limit with no winner)."""
import random

import pytest

from agents.catalog import make_agent
from engine import get_game
from engine.base import play_out

GAMES = {"uno": 2, "yaniv": 3, "racko": 2, "queen_of_spades": 4}
PLAYERS = {"uno": "tactician", "yaniv": "greedyrandom", "racko": "kyle", "queen_of_spades": "rules"}


@pytest.mark.parametrize("name", GAMES)
def test_lengths_are_valid_options_and_full_is_the_default(name):
    game = get_game(name)
    assert list(game.lengths) == ["one deal", "short match", "full match"]
    defaults = game.resolve_options({})
    for values in game.lengths.values():
        game.resolve_options(values)
    assert game.resolve_options(game.lengths["full match"]) == defaults
    assert game.resolve_options(game.lengths["one deal"]) != defaults


@pytest.mark.parametrize("name", GAMES)
def test_one_deal_ends_the_match_after_the_first_deal(name):
    game = get_game(name)
    for seed in range(3):
        state = game.new_match(GAMES[name], seed, game.lengths["one deal"])
        first = game.observe(state, None, reveal=True)["deal"]
        deals = set()
        agents = [make_agent(name, PLAYERS[name]) for _ in range(GAMES[name])]
        play_out(game, state, agents, random.Random(seed),
                 on_move=lambda s, seat, action: deals.add(game.observe(s, None, reveal=True)["deal"]))
        assert deals == {first}, f"{name} seed {seed} dealt again"
