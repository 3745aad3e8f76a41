"""Lookahead planning the draw (``plan_draw``): the draw's two values, recomputed here one rack at a
time from their definition on small deals (5 slots, 25 cards) with a small random network."""
import random

import pytest

from agents.racko.diablo import candidate_slots, view_seen
from agents.racko.features import unseen_prefix
from agents.racko.lookahead import Lookahead, rack_values
from agents.racko.network import Network
from engine import get_game
from engine.racko import DRAW_DECK, DRAW_DISCARD

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


def test_rack_values_scores_a_large_search_in_bounded_batches_with_the_same_values(monkeypatch):
    """A search at 20 slots asks for tens of thousands of racks at once, and one batch of them took
    over 20 GB: ``rack_values`` scores at most ``CHUNK_SLOTS`` / r² racks a batch, and every value
    is the one the rack gets alone."""
    import agents.racko.lookahead as lookahead

    rng = random.Random(21)
    racks = [rng.sample(range(1, 81), 20) for _ in range(40)]
    net = Network.initial([17, 6, 1], seed=4)
    prefix = unseen_prefix(80, racks[0])
    alone = [float(rack_values(net, [r], 80, 3, prefix)[0]) for r in racks]
    sizes: list[int] = []
    expand = lookahead.expand
    monkeypatch.setattr(lookahead, "expand", lambda rs, n: sizes.append(len(rs)) or expand(rs, n))
    monkeypatch.setattr(lookahead, "CHUNK_SLOTS", 6 * 400)  # 6 racks of 20 slots a batch
    together = rack_values(net, racks, 80, 3, prefix)
    assert sizes == [6] * 6 + [4]
    assert list(together) == pytest.approx(alone, abs=1e-12)


def test_at_a_large_table_the_search_stays_within_its_budget_and_says_what_it_weighed():
    """20 slots: the draw is weighed as ``lookahead-plan`` weighs it (a planned draw there took up to
    10 s a decision); with more than 50 unseen cards every expectation averages over 50 of them, evenly
    spread (with all 379 at 400 cards, a move took minutes). A 10-slot table of two still plans its
    draw over every card."""
    from agents.racko.lookahead import AVERAGED_CARDS, PLANNED_DRAW_BUDGET

    player = Lookahead(NET, plan=True, plan_draw=1)
    for options, planned, averaged in [({"rack_size": 10, "max_card": 40}, True, None),
                                       ({"rack_size": 20, "max_card": 0}, False, AVERAGED_CARDS),
                                       ({"rack_size": 20, "max_card": 400}, False, AVERAGED_CARDS)]:
        state = G.new_match(2, 3, G.resolve_options(options))
        view = G.observe(state, G.current_player(state))
        unseen = (options["max_card"] or 80) - options["rack_size"] - 1  # all but its rack and the discard
        assert (min(unseen, AVERAGED_CARDS) ** 2 * options["rack_size"] <= PLANNED_DRAW_BUDGET) == planned
        why = player.explain(view, G.legal_actions(state))
        assert ("and the next deck draw" in why.label) == planned, why.label
        assert ("too many to plan the draw" in why.note) == (not planned), why.note
        if averaged:
            assert f"{averaged} of the " in why.note and "evenly spread" in why.note, why.note
        else:
            assert "evenly spread" not in why.note
        assert set(why.values) == {a.id for a in G.legal_actions(state)}
