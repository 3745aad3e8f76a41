"""Rollout (``agents.racko.rollout``): close decisions of lookahead-deep settled by simulated rounds.
Its worlds are consistent with the view, its move reads only the view (the same when the hidden
cards are dealt again), and it is reproducible for a given seed."""
import random

import pytest

from agents.racko.diablo import view_seen
from agents.racko.rollout import Rollout, world_of_view
from agents.racko.shipped import diablo_nets
from engine import get_game
from engine.racko import ACTIONS, DRAW_DISCARD, PLACE, Rules, Table
from engine.racko.rules import DRAW, OVER

G = get_game("racko")


def agent(**kw) -> Rollout:
    return Rollout(diablo_nets("diablo2"), **kw)


def simulated_views(count: int, seed: int = 7) -> list:
    """States of deals of rollout (seat 0) against itself where seat 0's decision was simulated."""
    a, deal = agent(), 0
    found: list = []
    while len(found) < count:
        s = G.new_deal(2, seed + deal)
        deal += 1
        while not G.is_over(s) and len(found) < count:
            seat = G.current_player(s)
            view = G.observe(s, seat)
            code, means = a.settle(view)
            if seat == 0 and means is not None:
                found.append(s)
            s = G.apply(s, ACTIONS[code])
    return found


@pytest.fixture(scope="module")
def states():
    return simulated_views(4)


def test_one_card_short_it_takes_the_discard_that_finishes_and_wins():
    t = Table.new(2, 5, Rules())
    mine = [2, 5, 8, 11, 14, 17, 20, 23, 26, 1]  # slot 10 breaks it; the discard 30 finishes it there
    rest = [c for c in range(1, 41) if c not in mine and c != 30]
    random.Random(1).shuffle(rest)
    t.racks = [mine, rest[:10]]
    t.deck, t.discard = rest[10:], [30]
    t.dealt = tuple(map(tuple, t.racks))
    s = t.freeze()
    a = agent(gap=1.0)  # every choice simulated: the rollouts must see it too
    view = G.observe(s, 0)
    assert a.decide(view) == DRAW_DISCARD
    means = a.settle(view)[1]
    assert means is not None and means[DRAW_DISCARD] == 1.0
    s = G.apply(s, ACTIONS[DRAW_DISCARD])
    assert a.decide(G.observe(s, 0)) == PLACE + 9
    s = G.apply(s, ACTIONS[PLACE + 9])
    assert G.is_over(s) and G.winners(s) == [0]


def test_a_world_is_a_deal_consistent_with_the_view(states):
    for s in states:
        view = G.observe(s, 0)
        for k in range(5):
            w = world_of_view(view, random.Random(k))
            assert w.racks[0] == view["rack"] and w.discard == view["discard_pile"] and len(w.deck) == view["deck_size"]
            cards = [c for rack in w.racks for c in rack] + w.deck + w.discard + ([w.drawn] if w.drawn else [])
            assert sorted(cards) == list(range(1, 41))
            for slot, card in view["known"][1]:
                assert w.racks[1][slot - 1] == card
            assert set(w.deck) | {c for k2, c in enumerate(w.racks[1]) if not w.known[1][k2]} == \
                set(range(1, 41)) - set(view_seen(view)) - {c for _slot, c in view["known"][1]}
            assert G.observe(w.freeze(), 0)["rack"] == view["rack"]
            assert (w.phase == DRAW) == (view["phase"] == "draw") and w.phase != OVER and w.to_move == 0


def test_its_move_is_the_same_when_the_hidden_cards_are_dealt_again(states):
    rng = random.Random(3)
    for s in states:
        code, means = agent().settle(G.observe(s, 0))
        assert means is not None
        for _ in range(3):
            other = G.resample_hidden(s, 0, rng)
            assert other.racks[1] != s.racks[1] or other.deck != s.deck  # the hidden cards did change
            assert agent().settle(G.observe(other, 0)) == (code, means)


def test_reproducible_for_a_seed_and_the_seed_is_used(states):
    views = [G.observe(s, 0) for s in states]
    first = [agent().settle(v) for v in views]
    assert [agent().settle(v) for v in views] == first
    assert [agent(seed=1).settle(v) for v in views] != first  # other worlds: other means somewhere
