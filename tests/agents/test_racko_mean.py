"""The mean of several Diablo-like networks (``MeanNetwork``): its value on a feature row is the
mean of its members' values, and a mean of one network is that network."""
import random

import numpy as np
import pytest

from agents.racko.lookahead import Lookahead
from agents.racko.network import MeanNetwork, Network
from engine import get_game


def random_net(sizes, seed):
    net = Network.initial(sizes, seed)
    rng = np.random.default_rng(seed + 100)
    net.layers = [(w, rng.normal(0.0, 0.5, b.shape)) for w, b in net.layers]  # biases too
    return net


@pytest.mark.parametrize("sizes", [[17, 34, 30, 1], [17, 34, 1]])
@pytest.mark.parametrize("count", [2, 3])
def test_a_mean_network_values_each_row_at_its_members_mean(sizes, count):
    members = [random_net(sizes, seed) for seed in range(count)]
    feats = np.random.default_rng(7).uniform(-1.0, 2.0, (200, 17))
    mean = MeanNetwork(members)
    expected = np.mean([m(feats) for m in members], axis=0)
    assert mean(feats).shape == (200,)
    np.testing.assert_allclose(mean(feats), expected, rtol=0, atol=1e-12)
    assert mean.shape == sizes and len(mean.members) == count


def test_a_mean_of_one_network_is_that_network():
    net = random_net([17, 34, 30, 1], 5)
    net.meta_rack_size = 10
    feats = np.random.default_rng(8).uniform(-1.0, 2.0, (300, 17))
    mean = MeanNetwork([net])
    assert np.array_equal(mean(feats), net(feats)) and mean.meta_rack_size == 10


def test_a_mean_needs_members_alike():
    with pytest.raises(ValueError):
        MeanNetwork([])
    with pytest.raises(ValueError):
        MeanNetwork([random_net([17, 34, 30, 1], 1), random_net([17, 34, 1], 2)])


def test_the_top_level_on_a_mean_of_two_values_each_decision_by_the_mean():
    """Lookahead planning its draw weighs every action the same on a mean of a network with
    itself as on that network (the mean is exact), and plays the same deal alike."""
    game, net = get_game("racko"), random_net([17, 8, 6, 1], 4)
    alone, doubled = (Lookahead({5: n}, plan=True, plan_draw=1) for n in (net, MeanNetwork([net, net])))
    state, rng, checked = game.new_deal(2, 5, {"rack_size": 5, "max_card": 25}), random.Random(3), 0
    while not game.is_over(state) and checked < 12:
        view, legal = game.observe(state, game.current_player(state)), game.legal_actions(state)
        assert alone.explain(view, legal).values == pytest.approx(doubled.explain(view, legal).values, abs=1e-12)
        assert alone.decide(view) == doubled.decide(view)
        checked += 1
        state = game.apply(state, rng.choice(legal))
    assert checked == 12
