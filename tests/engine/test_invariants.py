"""The shared invariant sweep, run for every registered game.

Each game has an entry in SWEEPS (players, number of seeds, options, whether
whole matches are swept, zero-sum, ids that must be refused). A registered game
without an entry fails.
"""
import pytest

from engine import GAMES, get_game
from tests.engine.invariants import sweep

SWEEPS = {
    "tictactoe": [dict(players=2, seeds=200, zero_sum=True, illegal_ids=("cell:4", "cell:9", "pass"))],
}


@pytest.mark.parametrize("name", GAMES)
def test_every_game_has_a_sweep(name):
    assert name in SWEEPS, f"{name} is registered but has no invariant sweep in SWEEPS"


@pytest.mark.parametrize("name,config", [(n, c) for n, cs in SWEEPS.items() for c in cs],
                         ids=lambda v: v if isinstance(v, str) else f"{v['players']}p")
def test_invariant_sweep(name, config):
    config = dict(config)
    seeds = range(7_654_321, 7_654_321 + config.pop("seeds"))
    checked = sweep(get_game(name), seeds=seeds, **config)
    assert checked > len(seeds)
