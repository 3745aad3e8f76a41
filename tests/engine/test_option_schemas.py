"""Every whole-number option has both bounds, and ``Game.options_schema`` (what the API's schema
says of a match's options) accepts exactly the options ``new_match`` takes, judged as the schema
fuzz judges them (jsonschema_rs)."""
import random

import pytest

from engine import GAMES, GameError, Option, get_game
from engine.racko.rules import fewest_cards

jsonschema_rs = pytest.importorskip("jsonschema_rs")


def test_a_whole_number_option_needs_both_bounds():
    with pytest.raises(TypeError, match="minimum and a maximum"):
        Option("turns", 10, "turns in a deal", minimum=1)
    with pytest.raises(TypeError, match="minimum and a maximum"):
        Option("turns", 10, "turns in a deal", maximum=99)
    assert Option("turns", 10, "turns in a deal", minimum=1, maximum=99).check(99) == 99
    for name in GAMES:
        for option in get_game(name).options:
            if type(option.default) is int:
                assert option.minimum <= option.default <= option.maximum, (name, option.name)
                assert option.maximum < 2 ** 31, (name, option.name)  # any encoder, any integer column


def _values(option: Option, rng: random.Random) -> list:
    """Values at and beyond an option's edges, and of the wrong type."""
    if option.choices is not None:
        return [*option.choices, "none of them", 1, None]
    if type(option.default) is bool:
        return [True, False, 0, "yes", None]
    low, high = option.minimum, option.maximum
    return [low, high, low - 1, high + 1, rng.randint(low, high), 2 ** 64, True, str(low), 1.5]


@pytest.mark.parametrize("name", GAMES)
def test_the_options_schema_takes_what_the_game_takes(name):
    game = get_game(name)
    rng = random.Random(name)
    for players in range(game.min_players, game.max_players + 1):
        schema = jsonschema_rs.validator_for(game.options_schema(players))
        for _ in range(200):
            options = {o.name: rng.choice(_values(o, rng)) for o in game.options if rng.random() < 0.4}
            if rng.random() < 0.1:
                options["no_such_option"] = 1
            if game.presets and rng.random() < 0.3:
                options["preset"] = rng.choice([*game.presets, "no such preset"])
            try:
                game.new_match(players, 1, options)
                taken = True
            except GameError:
                taken = False
            assert schema.is_valid(options) == taken, (players, options)


def test_rack_o_decks_must_hold_the_racks():
    """max_card is 0 (automatic) or at least every rack plus two cards, per players and rack size."""
    game = get_game("racko")
    for players in range(game.min_players, game.max_players + 1):
        schema = jsonschema_rs.validator_for(game.options_schema(players))
        for rack in (None, 3, 4, 9, 10, 11, 19, 20):
            floor = fewest_cards(players, rack or 10)
            for max_card in (None, 0, 1, floor - 1, floor, floor + 1, 400):
                options = {k: v for k, v in (("rack_size", rack), ("max_card", max_card)) if v is not None}
                try:
                    game.rules(players, options)
                    taken = True
                except GameError:
                    taken = False
                assert taken == (max_card in (None, 0) or max_card >= floor), (players, options)
                assert schema.is_valid(options) == taken, (players, options)
