"""Lookahead planning the draw (``plan_draw``): the draw's two values, recomputed here one rack at a
time from their definition on small deals (5 slots, 25 cards) with a small random network."""
import random

import pytest

from agents.racko.common import code_of_slot
from agents.racko.diablo import candidate_slots, view_seen
from agents.racko.features import unseen_prefix
from agents.racko.lookahead import Lookahead, rack_values
from agents.racko.network import Network
from engine import get_game
from engine.racko import ACTIONS, DRAW_DECK, DRAW_DISCARD

G = get_game("racko")
OPTIONS = {"rack_size": 5, "max_card": 25}
NET = Network.initial([17, 6, 1], seed=3)


def placed(rack, card, slot):
    return rack[:slot] + [card] + rack[slot + 1:]


def by_hand(view, width, deck_width):
    """(taking the discard, drawing from the deck) by their definition."""
    seen = view_seen(view)
    unseen = [c for c in range(1, 26) if c not in seen]
    prefix, turns, rack = unseen_prefix(25, seen), view["turns"][view["seat"]], view["rack"]

    def now(r):
        return float(rack_values(NET, [r], 25, turns, prefix)[0])

    def deck(r, cards):  # the mean over the cards of the better of keeping r and each usable slot
        return sum(max([now_after(r)] + [now_after(placed(r, c, j)) for j in candidate_slots(c, 5, 25)])
                   for c in cards) / len(cards)

    def now_after(r):
        return float(rack_values(NET, [r], 25, turns + 1, prefix)[0])

    def best(options, keep, cards):  # the ``keep`` options first by their score now (ties: the first)
        ranked = sorted(options, key=lambda r: -now(r))[:keep]
        return max(deck(r, cards) for r in ranked)

    d = view["discard_top"]
    take = best([placed(rack, d, j) for j in candidate_slots(d, 5, 25)], width, unseen)
    draws = [best([rack] + [placed(rack, c, j) for j in range(5)], deck_width, [u for u in unseen if u != c])
             for c in unseen]
    return take, sum(draws) / len(draws)


@pytest.mark.parametrize("width,deck_width", [(3, 1), (2, 2)])
def test_the_draw_is_valued_after_the_next_deck_draw_for_both_piles(width, deck_width):
    agent = Lookahead(NET, plan=True, width=width, plan_draw=deck_width)
    state, rng, checked = G.new_deal(2, 5, OPTIONS), random.Random(2), 0
    while not G.is_over(state) and checked < 4:
        view, legal = G.observe(state, G.current_player(state)), G.legal_actions(state)
        if view["phase"] == "draw":
            why = agent.explain(view, legal)
            take, deck = by_hand(view, width, deck_width)
            assert why.values == {"draw:discard": pytest.approx(take), "draw:deck": pytest.approx(deck)}
            assert agent.decide(view) == (DRAW_DISCARD if take > deck else DRAW_DECK)
            checked += 1
        state = G.apply(state, rng.choice(legal))
    assert checked == 4



def test_a_rack_o_worth_more_than_a_point_makes_it_keep_the_most_ways_to_finish():
    """``finish``: a Rack-O's worth in the search. Rack 2 25 1 20 24 (5 slots, 25 cards), a 10 drawn from
    the deck, the 4 on the discard pile: the 10 in slot 2 leaves slot 3 to fill with one of 11-19 (9 of
    the 18 unseen cards finish), in slot 3 it leaves slot 2 to fill with one of 3, 5-9 (6 finish).
    Worth 100, the Rack-Os outweigh every score of the small network (each under 1): it plays slot 2,
    worth 9/18 of 100 and less than 9 more, and slot 3 is worth 6/18 of 100 and less than 12 more."""
    view = G.observe(G.new_deal(2, 5, OPTIONS), 0)
    view.update(phase="place", rack=[2, 25, 1, 20, 24], drawn=10, drawn_from="deck", discard_pile=[4],
                discard_top=4, known=[[], []])
    legal = [ACTIONS[code_of_slot(s)] for s in range(-1, 5)]
    agent = Lookahead(NET, plan=True, width=6, finish=100.0)
    values = agent.explain(view, legal).values
    assert ACTIONS[agent.decide(view)].id == "place:2" == max(values, key=values.get)
    assert 50 <= values["place:2"] < 59 and 100 / 3 <= values["place:3"] < 100 / 3 + 12
