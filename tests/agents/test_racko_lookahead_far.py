"""Lookahead valuing its best placements two deck draws ahead (``far``): the values recomputed
here one rack at a time from their definition on small deals (5 slots, 25 cards) with a small
random network."""
import random

import pytest

from agents.racko.diablo import candidate_slots, view_seen
from agents.racko.features import unseen_prefix
from agents.racko.lookahead import Lookahead, rack_values
from agents.racko.network import Network
from engine import get_game

G = get_game("racko")
OPTIONS = {"rack_size": 5, "max_card": 25}
NET = Network.initial([17, 6, 1], seed=3)


def placed(rack, card, slot):
    return rack[:slot] + [card] + rack[slot + 1:]


def by_hand(view, far, cards, width):
    """The far value of each of the ``far`` best placements (by their value after the next deck draw)
    of the best three after the turn, by action code."""
    seen = view_seen(view)
    unseen = [c for c in range(1, 26) if c not in seen]
    prefix, turns, rack, card = unseen_prefix(25, seen), view["turns"][view["seat"]], view["rack"], view["drawn"]

    def score(r, t):
        return float(rack_values(NET, [r], 25, t, prefix)[0])

    def deck(r, t, pool):  # after one deck draw: the better of keeping r and each usable slot, averaged
        return sum(max([score(r, t)] + [score(placed(r, c, j), t) for j in candidate_slots(c, 5, 25)])
                   for c in pool) / len(pool)

    def deck2(r):
        n = len(unseen)
        outer = unseen if cards >= n else [unseen[0], unseen[round((n - 1) / 2)], unseen[-1]]
        total = 0.0
        for c in outer:
            plays = sorted((placed(r, c, j) for j in range(5)), key=lambda p: -score(p, turns + 1))[:width]
            rest = [u for u in unseen if u != c]
            total += max(deck(p, turns + 2, rest) for p in [r] + plays)
        return total / len(outer)

    options = {-1: rack} | {100 + j: placed(rack, card, j) for j in range(5)}  # -1: the card discarded
    top = sorted(options, key=lambda k: -score(options[k], turns))[:3]
    near = sorted(top, key=lambda k: -deck(options[k], turns + 1, unseen))[:far]
    return {k: deck2(options[k]) for k in near}


@pytest.mark.parametrize("far,cards,width", [(2, 25, 1), (3, 25, 2), (2, 3, 1)])
def test_placements_are_valued_after_two_deck_draws(far, cards, width):
    assert cards == 3 or cards >= 25  # by_hand spreads three cards, or takes all
    agent = Lookahead(NET, plan=True, plan_draw=1, far=far, far_cards=cards, far_width=width)
    state, rng, checked = G.new_deal(2, 5, OPTIONS), random.Random(2), 0
    while not G.is_over(state) and checked < 2:
        view, legal = G.observe(state, G.current_player(state)), G.legal_actions(state)
        if view["phase"] == "place" and view["drawn_from"] == "deck":
            expected = by_hand(view, far, cards, width)
            ids = {k: ("discard" if k == -1 else f"place:{k - 99}") for k in expected}
            why = agent.explain(view, legal)
            assert why.values == {ids[k]: pytest.approx(v) for k, v in expected.items()}
            best = max(expected, key=expected.__getitem__)
            assert next(a.id for a in legal if a.code == agent.decide(view)) == ids[best]
            checked += 1
        state = G.apply(state, rng.choice(legal))
    assert checked == 2
