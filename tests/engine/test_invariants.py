"""The shared invariant sweep, run for every registered game.

Each game has an entry in SWEEPS (players, number of seeds, options, whether
whole matches are swept, zero-sum, ids that must be refused). A registered game
without an entry fails.
"""
import pytest

from engine import GAMES, get_game
from tests.engine.invariants import sweep

SWEEPS = {
    "uno": [dict(players=p, seeds=s, deal_only=d, options=o,
                 illegal_ids=("play:wd4:r", "play:r7:uno", "pass", "challenge", "catch", "colour:g", "take"))
            for p, s, d, o in (
                (2, 3, True, {}), (4, 2, True, {"wd4_challenge": True, "uno_call": True, "max_turns": 400}),
                (3, 2, True, {"draw_until_playable": True, "opening_wild": "redraw", "max_turns": 200}),
                (10, 1, True, {"max_turns": 300}), (2, 1, False, {"target_score": 100, "max_turns": 600}),
                (4, 1, False, {"opening_wild": "redraw", "target_score": 1, "max_turns": 300}),
                (10, 1, False, {"target_score": 1, "max_turns": 150}),
                (2, 3, True, {"preset": "writeup"}), (3, 2, True, {"preset": "writeup", "max_turns": 300}),
                (4, 2, True, {"wd4_when": "no_other_card", "wd4_challenge": True, "max_turns": 300}),
                (2, 1, False, {"preset": "writeup", "target_score": 100, "max_turns": 600}))],
    "tictactoe": [dict(players=2, seeds=200, zero_sum=True, illegal_ids=("cell:4", "cell:9", "pass"))],
    "yaniv": [dict(players=p, seeds=s, deal_only=d,
                   illegal_ids=("yaniv", "drop:jk1,jk2|take:stock", "drop:Qs,Ks,As|take:stock", "pass"))
              for p, s, d in ((2, 30, True), (4, 20, True), (2, 1, False), (4, 1, False))],
    "queen_of_spades": [dict(players=4, seeds=s, deal_only=d, zero_sum=True, options=o,
                             illegal_ids=("play:XS", "play:QS", "play:7D", "pass", "play:"))
                        for s, d, o in ((25, True, {}), (15, True, {"forced_queen": True}),
                                        (1, False, {"deals": 3}), (1, False, {"score_limit": 2}))],
    "racko": [dict(players=p, seeds=s, deal_only=d, options=o,
                   illegal_ids=("discard", "draw:discard", "place:11", "place:21", "draw", "take"))
              for p, s, d, o in (
                  (2, 20, True, {"rack_size": 3}), (3, 4, True, {"rack_size": 5, "max_turns": 120}),
                  (4, 1, True, {"max_turns": 60}), (2, 2, True, {"rack_size": 3, "max_card": 8}),
                  (2, 1, False, {"rack_size": 3, "target_score": 100, "bonus": True}),
                  (4, 1, False, {"rack_size": 4, "target_score": 40, "max_turns": 40}))],
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
