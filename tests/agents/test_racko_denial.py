"""Rack-O denial (``agents.racko.denial``): the next player's racks drawn from what this seat saw,
and what a card this seat discards is worth to that player."""
import random

import numpy as np

from agents.racko.diablo import view_seen
from agents.racko.denial import next_seat_racks, worth_to_next
from agents.racko.lookahead import Lookahead, rack_values
from agents.racko.shipped import diablo_nets
from engine import get_game

G = get_game("racko")


def view_with(known, placed, rack, seen_pile, max_card=20):
    """Seat 0's view of a 2-player 5-slot deal at its placement: its rack, the drawn card 20 (from
    the deck), the pile, and what it saw seat 1 take (``known``) and place (``placed``)."""
    return {"seat": 0, "turns": [len(placed), len(placed)], "options": {"rack_size": 5, "max_card": max_card},
            "rack": rack, "drawn": 20, "drawn_from": "deck", "phase": "place", "discard_top": seen_pile[-1],
            "discard_pile": seen_pile, "known": [[], known], "placed": [[], placed], "deal": 0, "turn": 2 * len(placed)}


def test_the_next_players_racks_keep_what_was_seen_and_use_only_unseen_cards():
    view = view_with([[2, 5], [5, 18]], [2, 5, 3], [17, 11, 4, 7, 14, 16, 19], [3])
    seen = set(view_seen(view))
    unseen = [c for c in range(1, 21) if c not in seen]
    racks = next_seat_racks(view, unseen, 50, np.random.default_rng(1))
    assert len(racks) == 50
    for rack in racks:
        assert rack[1] == 5 and rack[4] == 18 and len(set(rack)) == 5
        assert all(c in unseen for k, c in enumerate(rack) if k not in (1, 4))
    # slot 3 was filled from the deck: drawn near its share of the cards (target 8.6), slot 1 anywhere
    assert np.mean([abs(r[2] - 8.6) for r in racks]) < np.mean([abs(r[0] - 8.6) for r in racks])


def test_a_card_that_finishes_the_next_players_rack_is_worth_more_to_it_than_one_that_does_not():
    """Seat 1 is seen to hold 2, 5, 9 and 18 in slots 1, 2, 3 and 5: a 13 makes it a Rack-O, a 6
    fits less well, a 1 it would not take."""
    net = diablo_nets("diablo2")[5]
    view = view_with([[1, 2], [2, 5], [3, 9], [5, 18]], [1, 2, 3, 5], [1, 6, 10, 15, 16], [17, 11, 4])
    seen = view_seen(view)
    unseen = [c for c in range(1, 21) if c not in seen]
    worth = worth_to_next(lambda rs, t, p: rack_values(net, rs, 20, t, p), view, [13, 6, 1], unseen, seen,
                          8, np.random.default_rng(2))
    assert worth[0] > 0.1 and worth[0] > max(worth[1:]) and worth[2] == 0, worth


def test_denying_lookahead_weighs_its_plans_less_what_the_discard_is_worth_to_the_next_player():
    """On placements of a played deal, each value it weighs is the planning level's value less
    what the card it would discard is worth to the next player (never more), and its panel says so."""
    plan, deny = Lookahead(diablo_nets("diablo2"), plan=True), Lookahead(diablo_nets("diablo2"), plan=True, deny=1.0)
    state, rng, checked, lower = G.new_deal(2, 5, {}), random.Random(3), 0, 0
    while not G.is_over(state) and checked < 6:
        view, legal = G.observe(state, G.current_player(state)), G.legal_actions(state)
        if view["phase"] == "place":
            planned, denied = plan.explain(view, legal), deny.explain(view, legal)
            assert denied.values.keys() == planned.values.keys()
            assert all(denied.values[a] <= planned.values[a] + 1e-12 for a in planned.values)
            lower += any(denied.values[a] < planned.values[a] for a in planned.values)
            assert "worth to the next player" in denied.note
            checked += 1
        state = G.apply(state, rng.choice(legal))
    assert checked == 6 and lower > 0
