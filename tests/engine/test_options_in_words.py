"""What the lobby and the rules pages say about options: every option of every game is named in words
(and each of its choices); the game lengths: every one is a valid set of options, "full match" is the defaults, and
"one deal" really ends the match after its first deal (each game's strongest quick rule player in
every seat, a few seeds; pure random play can run a deal to its move limit with no winner)."""
import random

import pytest

from agents.catalog import make_agent
from engine import GAMES as ALL_GAMES, get_game
from engine.base import play_out

GAMES = {"uno": 2, "yaniv": 3, "racko": 2, "queen_of_spades": 4}
PLAYERS = {"uno": "tactician", "yaniv": "greedyrandom", "racko": "kyle", "queen_of_spades": "rules"}


@pytest.mark.parametrize("name", ALL_GAMES)
def test_every_option_is_named_in_words(name):
    for option in get_game(name).options:
        assert option.title and option.title != option.name, f"{name}: {option.name} has no title in words"
        if option.choices:
            assert option.choice_titles and len(option.choice_titles) == len(option.choices), option.name


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
                 on_move=lambda s, seat, action, deals=deals: deals.add(game.observe(s, None, reveal=True)["deal"]))
        assert deals == {first}, f"{name} seed {seed} dealt again"
