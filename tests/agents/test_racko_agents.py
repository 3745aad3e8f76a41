"""Rack-O agents: Kyle's and Max's rules on hand-made racks, the forced random move, the
view path agreeing with the arena's int path, legality, and strength against Random."""
import random

import pytest

from agents.base import RandomAgent
from agents.catalog import agent_specs, levels, make_agent
from agents.racko import arena, kyle
from agents.racko import max as max_player
from agents.racko.common import forced_turn, usable_sequence_length
from agents.racko.kyle import Kyle
from agents.racko.max import Max
from engine import get_game, play_out
from engine.racko import Table

G = get_game("racko")


# ----- the forced random move -----

def test_forced_random_move_every_two_rack_sizes_of_own_turns():
    assert [t + 1 for t in range(60) if forced_turn(t, 10)] == [20, 40, 60]
    assert [t + 1 for t in range(12) if forced_turn(t, 3)] == [6, 12]


# ----- usable sequences -----

@pytest.mark.parametrize("rack,max_card,length", [
    ([4, 1, 3, 6], 10, 2),  # the code's example: 1 cannot stay (nothing below 1 for the 4's slot)
    ([1, 2, 3, 4, 5], 5, 5),
    ([5, 4, 3, 2, 1], 5, 1),  # only the 3 can stay where it is
    ([1, 2, 3, 4, 5], 40, 5),
    ([10, 11, 30, 12, 13], 40, 3),  # 11 and 12 sit two slots apart: no room between
    ([2, 3, 40, 39, 38], 40, 3),  # 40 in slot 3 leaves no room above it: 2, 3, 39
    ([1, 9, 10, 2, 3], 10, 1),  # 9 and 10 leave no room above them, 2 and 3 none below
])
def test_usable_sequence_length(rack, max_card, length):
    assert usable_sequence_length(rack, max_card) == length


def brute_usable(rack, max_card):
    """By definition: the longest subset of slots whose cards could all stay in a winning rack."""
    r = len(rack)
    best = 0
    for mask in range(1, 1 << r):
        idx = [i for i in range(r) if mask >> i & 1]
        cards = [rack[i] for i in idx]
        ok = all(c - 1 >= i and max_card - c >= r - 1 - i for c, i in zip(cards, idx))
        ok = ok and all(cards[j + 1] - cards[j] >= idx[j + 1] - idx[j] for j in range(len(idx) - 1))
        if ok:
            best = max(best, len(idx))
    return best


def test_usable_sequence_length_matches_the_definition_on_random_racks():
    rng = random.Random(5)
    for _ in range(300):
        r = rng.choice([3, 5, 7])
        n = rng.choice([2 * r + 2, 4 * r])
        rack = rng.sample(range(1, n + 1), r)
        assert usable_sequence_length(rack, n) == brute_usable(rack, n), rack


# ----- Kyle -----

def test_kyle_anchors_bands_and_consecutive_chains():
    # 40 cards, 10 slots: band of slot i is [4(i-1)+1, 4i]
    rack = [3, 20, 21, 22, 30, 5, 26, 29, 35, 38]
    anchors = kyle.anchors_at_deal(rack, 40)
    # slot 1 (3 in 1..4), 7 (26 in 25..28), 8 (29 in 29..32), 10 (38 in 37..40) by band;
    # slot 9 (35) is not in 33..36? it is: 35 in 33..36
    assert [i + 1 for i, a in enumerate(anchors) if a] == [1, 7, 8, 9, 10]
    rack = [3, 4, 5, 6, 30, 21, 26, 29, 35, 38]  # 3 anchors slot 1; 4, 5, 6 follow as a chain
    assert [i + 1 for i, a in enumerate(kyle.anchors_at_deal(rack, 40))][:4] == [1, 2, 3, 4]


def test_kyle_ranges_between_anchors():
    rack = [3, 20, 21, 22, 30, 5, 26, 29, 35, 38]
    anchors = kyle.anchors_at_deal(rack, 40)
    assert kyle.ranges(rack, anchors, 40) == [(4, 25, 1, 5)]  # slots 2-6 between 3 and 26
    anchors = [False, False, True, False, False]
    assert kyle.ranges([9, 1, 12, 2, 3], anchors, 25) == [(1, 11, 0, 2), (13, 25, 3, 2)]


def test_kyle_draw_and_slot_rules():
    rack = [3, 20, 21, 22, 30, 5, 26, 29, 35, 38]
    anchors = kyle.anchors_at_deal(rack, 40)  # one range: 4..25 over slots 2-6 (n = 5)
    assert kyle.draw_discard(rack, anchors, 4, 40) and kyle.draw_discard(rack, anchors, 25, 40)
    assert not kyle.draw_discard(rack, anchors, 26, 40) and not kyle.draw_discard(rack, anchors, 2, 40)
    # a deck card must lie strictly inside
    assert kyle.place_slot(rack, anchors, 4, False, 40) == -1
    assert kyle.place_slot(rack, anchors, 25, False, 40) == -1
    # from the discard, c = lo goes to the range's first slot
    assert kyle.place_slot(rack, anchors, 4, True, 40) == 1
    # otherwise slot s - 1 + max(1, round(c * n / hi)): 10 * 5 / 25 = 2 -> second slot of the range
    assert kyle.place_slot(rack, anchors, 10, False, 40) == 2
    assert kyle.place_slot(rack, anchors, 5, False, 40) == 1  # 1.0 -> first
    assert kyle.place_slot(rack, anchors, 25, True, 40) == 5  # 5.0 -> last
    assert kyle.place_slot(rack, anchors, 13, False, 40) == 3  # 2.6 -> 3rd slot of the range


def test_kyle_rounds_half_up_like_java():
    # 7 / 20 * 3 = 1.0499999... in doubles -> 1; 15 / 20 * 3 = 2.25 -> 2; 10 / 20 * 3 = 1.5 -> 2
    assert kyle.slot_in(1, 20, 0, 3, 7) == 0
    assert kyle.slot_in(1, 20, 0, 3, 10) == 1
    assert kyle.slot_in(1, 20, 0, 3, 15) == 1


def test_kyle_grows_anchors_as_coded_and_can_get_stuck():
    view = {"options": {"rack_size": 5, "max_card": 25}, "seat": 0, "dealt": [9, 1, 12, 2, 3],
            "placed": [[2, 0, 5], []]}
    fixed = kyle.anchors_of_view(view, forced_random=True, grow=False)
    assert [i + 1 for i, a in enumerate(fixed) if a] == [3]  # 12 in 11..15
    grown = kyle.anchors_of_view(view, forced_random=True, grow=True)
    assert [i + 1 for i, a in enumerate(grown) if a] == [2, 3, 5]
    # every slot an anchor: no range, nothing is ever taken or kept
    assert kyle.ranges([1, 2, 3, 4, 5], [True] * 5, 25) == []
    assert not kyle.draw_discard([1, 3, 2, 4, 5], [True] * 5, 2, 25)


def test_kyle_skips_anchors_for_slots_filled_by_forced_random_moves():
    placed = [1, 0, 0, 0, 0, 0, 0, 0, 0, 4]  # its 10th turn (rack_size 5) was a forced random move
    view = {"options": {"rack_size": 5, "max_card": 25}, "seat": 0, "dealt": [9, 1, 12, 2, 3],
            "placed": [placed, []]}
    assert [i + 1 for i, a in enumerate(kyle.anchors_of_view(view, True, True)) if a] == [1, 3]
    assert [i + 1 for i, a in enumerate(kyle.anchors_of_view(view, False, True)) if a] == [1, 3, 4]


# ----- Max -----

def test_max_takes_the_discard_only_when_it_lengthens_the_sequence():
    rack = [4, 1, 3, 6]  # usable length 2 (3, 6 or 4, 6)
    assert max_player.draw_discard(rack, 2, 10)  # 2 in slot 2: 2, 3, 6 -> 3
    assert not max_player.draw_discard(rack, 9, 10)  # at best 2 again
    assert max_player.place_slot(rack, 2, True, 10) == 1  # (in slot 1, 2 and 3 have no room between)


def test_max_puts_a_deck_card_in_the_lowest_slot_keeping_the_longest_and_never_discards():
    rack = [4, 1, 3, 6]
    assert max_player.place_slot(rack, 9, False, 10) == 0  # first slot where the length stays 2
    assert max_player.place_slot([1, 2, 3, 4], 10, False, 10) == 3  # 1, 2, 3, 10 keeps 4
    assert max_player.place_slot([1, 2, 3, 9], 5, False, 10) == 2  # 1, 2, 5, 9
    # a slot outside the longest sequence always keeps it: Max never discards (the write-up saw
    # 0 discards in 200,000 deck draws)
    rng = random.Random(2)
    for _ in range(500):
        rack = rng.sample(range(1, 41), 10)
        card = rng.choice([c for c in range(1, 41) if c not in rack])
        assert max_player.place_slot(rack, card, False, 40) >= 0


# ----- views and the arena agree -----

@pytest.mark.parametrize("players,options", [(2, {}), (3, {"rack_size": 5}), (4, {"rack_size": 5})])
def test_act_on_views_plays_exactly_as_the_arena(players, options):
    """Through the Game API (views, act) and on a bare table (deciders), the same seeded deals
    go the same way: the decisions are the same functions."""
    rules = G.rules(players, options)
    for seed in range(6):
        agents = [Kyle(), Max(), Kyle(grow_anchors=False), Max()][:players]
        deciders = [arena.KyleDecider(), arena.MaxDecider(), arena.KyleDecider(grow_anchors=False),
                    arena.MaxDecider()][:players]
        state, _ = play_out(G, G.new_deal(players, seed, options), agents, random.Random(seed))
        table = arena.play(Table.new(players, seed, rules, single=True, log=False), deciders, random.Random(seed))
        assert state.racks == tuple(map(tuple, table.racks)) and state.turn == table.turn
        assert state.winner == table.winner


# ----- every agent plays legal moves -----

@pytest.mark.parametrize("agent_id", [s.id for s in agent_specs("racko")])
def test_every_agent_plays_legal_moves(agent_id):
    agent = make_agent("racko", agent_id)
    rng = random.Random(3)
    for players, options in ((2, {"rack_size": 5}), (3, {"max_turns": 90})):
        state = G.new_deal(players, 11, options)
        while not G.is_over(state):
            seat = G.current_player(state)
            legal = G.legal_actions(state)
            view = G.observe(state, seat)
            action = agent.act(view, legal, rng) if seat == 0 else RandomAgent().act(view, legal, rng)
            assert action in legal
            explain = getattr(agent, "explain", None)
            if seat == 0 and explain is not None:
                e = explain(view, legal)
                assert set(e.values) <= {a.id for a in legal} and e.note
            state = G.apply(state, action)


def test_levels_start_with_the_write_ups_heuristics():
    ids = levels("racko")
    assert ids.index("random") < ids.index("max") < ids.index("kyle")


# ----- strength -----

@pytest.mark.parametrize("decider", [arena.KyleDecider, arena.MaxDecider])
def test_random_loses_clearly_to_kyle_and_max(decider):
    """200 two-player 5-slot deals (seat order alternating): Random wins under 10% of them,
    the heuristic over 80% (Random sorts five cards by luck alone; seen: ~1% and ~95%)."""
    rules = G.rules(2, {"rack_size": 5, "max_turns": 300})
    rng = random.Random(9)
    wins = [0, 0]
    for seed in range(200):
        seats = [decider(), arena.RandomDecider()]
        if seed % 2:
            seats.reverse()
        table = arena.play_deal(rules, seed, seats, rng)
        if table.winner >= 0:
            wins[(table.winner + seed) % 2] += 1
    assert wins[0] > 160 and wins[1] < 20, wins
