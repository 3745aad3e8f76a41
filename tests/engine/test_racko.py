"""Rack-O rules (docs/rules.md, section 3), one test per rule and edge case."""
import json
import random

import pytest

from engine import IllegalActionError, OptionError, StateError, get_game
from engine.racko import ACTIONS, Racko, Rules, State, Table, ascending_prefix, longest_run, parse_action, run_bonus
from engine import ActionSyntaxError
from engine.racko.rules import DRAW, FROM_NONE, OVER, deal_points
from tests.engine.invariants import canon

G: Racko = get_game("racko")


def table(racks, discard, deck=None, to_move=0, options=None, single=True, scores=None, turn=0) -> State:
    """A state at ``to_move``'s draw with the given racks and discard pile (top last);
    the remaining cards form the deck (top last), or ``deck`` when given."""
    n = len(racks)
    opts = {"rack_size": len(racks[0]), **(options or {})}
    rules = G.rules(n, opts)
    used = {c for r in racks for c in r} | set(discard)
    if deck is None:
        deck = [c for c in range(rules.max_card, 0, -1) if c not in used]
    r = rules.rack_size
    return State(7, n, rules, single, 0, n - 1, tuple(map(tuple, racks)), tuple(deck), tuple(discard),
                 ((0,) * r,) * n, tuple(map(tuple, racks)), ((),) * n, to_move, DRAW, 0, FROM_NONE, turn, (0,) * n, 0, tuple(scores or (0,) * n), -1,
                 (), None)


def act(state, *action_ids):
    for a in action_ids:
        state = G.apply(state, G.parse_action(a))
    return state


def reason(state, action_id):
    with pytest.raises(IllegalActionError) as err:
        act(state, action_id)
    return err.value.reason


SORTED5 = [1, 2, 3, 4, 5]


# ----- options -----

def test_default_deck_is_players_plus_two_times_rack_size():
    for players, cards in ((2, 40), (3, 50), (4, 60)):
        assert G.new_deal(players, 1).rules.max_card == cards
    assert G.new_deal(3, 1, {"rack_size": 5}).rules.max_card == 25
    assert G.new_deal(3, 1, {"rack_size": 5, "max_card": 30}).rules.max_card == 30


@pytest.mark.parametrize("players,options", [
    (2, {"max_card": 21}),  # 2 racks of 10 + 2 more needed
    (4, {"rack_size": 5, "max_card": 21}),
    (2, {"rack_size": 2}), (2, {"rack_size": 21}), (2, {"rack_size": "10"}), (2, {"bonus": 1}),
    (2, {"max_turns": 0}), (2, {"target_score": 0}), (2, {"max_card": -1}), (2, {"slots": 5}),
    (1, {}), (5, {}),
])
def test_bad_options_and_player_counts_are_refused(players, options):
    with pytest.raises(OptionError):
        G.new_match(players, 1, options)


def test_smallest_deck_allowed_plays_through_reshuffles():
    state = G.new_deal(2, 3, {"rack_size": 3, "max_card": 8, "max_turns": 60})
    rng = random.Random(3)
    while not G.is_over(state):
        state = G.apply(state, rng.choice(G.legal_actions(state)))
    assert state.turn <= 60


# ----- the deal -----

def test_deal_one_card_at_a_time_back_slot_first():
    rules = G.rules(2, {"rack_size": 3})  # 10 cards
    deck = list(range(1, 11))  # top is 10: dealt 10, 9, 8, ... starting at seat 0 (dealer is seat 1)
    t = Table.new(2, 0, rules, deck=deck)
    # seat 0 gets 10, 8, 6 (first card to the back slot), seat 1 gets 9, 7, 5
    assert t.racks == [[6, 8, 10], [5, 7, 9]]
    assert t.discard == [4] and t.deck == [1, 2, 3]
    assert t.to_move == 0  # left of the dealer


def test_three_players_deal_and_first_player():
    rules = G.rules(3, {"rack_size": 3, "max_card": 12})
    t = Table.new(3, 0, rules, deck=list(range(1, 13)))
    assert t.racks == [[6, 9, 12], [5, 8, 11], [4, 7, 10]]
    assert t.discard == [3] and t.to_move == 0 and t.dealer == 2


def test_dealer_rotates_each_deal_and_player_left_of_dealer_starts():
    state = G.new_match(3, 11, {"rack_size": 3, "max_turns": 3})
    seen = []
    while not G.is_over(state) and len(seen) < 4:
        if state.turn == 0 and state.phase == DRAW and (not seen or seen[-1][0] != state.deal):
            seen.append((state.deal, state.dealer, state.to_move))
        state = act(state, "draw:deck", "discard")
    assert seen[:3] == [(0, 2, 0), (1, 0, 1), (2, 1, 2)]


def test_deals_are_seeded_and_every_card_is_used_once():
    a, b = G.new_deal(4, 42), G.new_deal(4, 42)
    assert canon(G.to_json(a)) == canon(G.to_json(b))
    cards = sorted([c for r in a.racks for c in r] + list(a.deck) + list(a.discard))
    assert cards == list(range(1, 61)) and all(len(r) == 10 for r in a.racks)
    assert canon(G.to_json(G.new_deal(4, 43))) != canon(G.to_json(a))


# ----- a turn -----

def test_draw_from_deck_then_place_replaces_and_discards_the_old_card():
    s = table([[9, 3, 5, 7, 2], [10, 11, 12, 14, 13]], discard=[20])
    top = s.deck[-1]
    s = act(s, "draw:deck")
    assert s.drawn == top and G.observe(s, 0)["drawn"] == top and G.observe(s, 0)["drawn_from"] == "deck"
    assert G.observe(s, 1)["drawn"] is None and G.observe(s, 0)["phase"] == "place"
    assert G.legal_ids(s) == ["discard", "place:1", "place:2", "place:3", "place:4", "place:5"]
    s = act(s, "place:1")
    assert s.racks[0] == (top, 3, 5, 7, 2) and s.discard == (20, 9) and s.to_move == 1
    assert s.known[0] == (0,) * 5  # nobody saw the deck card
    assert s.turn == 1 and s.turns == (1, 0)


def test_draw_from_deck_may_be_discarded():
    s = table([[9, 3, 5, 7, 2], [10, 11, 12, 14, 13]], discard=[20])
    top = s.deck[-1]
    s = act(s, "draw:deck", "discard")
    assert s.racks[0] == (9, 3, 5, 7, 2) and s.discard == (20, top) and s.to_move == 1


def test_card_from_discard_must_be_placed_and_becomes_known():
    s = table([[9, 3, 5, 7, 2], [10, 11, 12, 14, 13]], discard=[20])
    s = act(s, "draw:discard")
    assert G.legal_ids(s) == ["place:1", "place:2", "place:3", "place:4", "place:5"]
    assert "must go into your rack" in reason(s, "discard")
    s = act(s, "place:5")
    assert s.racks[0] == (9, 3, 5, 7, 20) and s.discard == (2,)
    assert G.observe(s, 1)["known"][0] == [[5, 20]]
    # replaced by a deck card: no longer known
    s = act(s, "draw:deck", "discard", "draw:deck", "place:5")
    assert G.observe(s, 1)["known"][0] == []


def test_illegal_action_reasons():
    s = table([[9, 3, 5, 7, 2], [10, 11, 12, 14, 13]], discard=[20])
    assert "take a card first" in reason(s, "place:1")
    assert "take a card first" in reason(s, "discard")
    drawn = act(s, "draw:deck")
    assert "drawn already" in reason(drawn, "draw:discard")
    assert "only 5 slots" in reason(drawn, "place:6")
    assert "not a Rack-O action" in reason(s, "place:0")
    assert "not a Rack-O action" in reason(s, "take")
    assert "no rack has more than" in reason(s, "place:21")


def test_parse_and_ids_round_trip():
    assert [a.id for a in ACTIONS[:5]] == ["draw:deck", "draw:discard", "discard", "place:1", "place:2"]
    for a in ACTIONS:
        assert parse_action(a.id) == a
    assert parse_action("place:10").code == 12 and parse_action("place:10").slot == 10
    for bad in ("", "place:", "place:01", "draw", "draw:pile", "Discard", " discard", "place:1 "):
        with pytest.raises(ActionSyntaxError):
            parse_action(bad)
    assert G.action_label(parse_action("place:3")) == "put it in slot 3"


# ----- reshuffle -----

def test_empty_deck_reshuffles_the_discard_pile_but_its_top():
    racks = [[9, 3, 5, 7, 2], [10, 11, 12, 14, 13]]
    s = table(racks, discard=[1, 4, 6, 8, 15, 16, 17, 18, 19, 20], deck=[])
    s = act(s, "draw:deck")
    assert s.reshuffles == 1 and s.discard == (20,)
    assert sorted(s.deck + (s.drawn,)) == [1, 4, 6, 8, 15, 16, 17, 18, 19]
    assert {"event": "reshuffle", "count": 9} in G.observe(s, 1)["log"]
    again = act(table(racks, discard=[1, 4, 6, 8, 15, 16, 17, 18, 19, 20], deck=[]), "draw:deck")
    assert again == s  # the new order derives from the seed


def test_taking_the_discard_with_an_empty_deck_does_not_reshuffle():
    s = table([[9, 3, 5, 7, 2], [10, 11, 12, 14, 13]], discard=[1, 4, 6, 8, 15, 16, 17, 18, 19, 20], deck=[])
    s = act(s, "draw:discard", "place:1")
    assert s.reshuffles == 0 and s.deck == () and s.discard[-1] == 9


# ----- ending a deal -----

def test_rack_o_ends_the_deal_at_the_end_of_the_turn():
    s = table([[1, 3, 5, 7, 30], [10, 11, 12, 13, 14]], discard=[9])
    s = act(s, "draw:discard", "place:5")
    assert G.is_over(s) and G.winners(s) == [0]
    assert G.scores(s) == [50.0, 25.0]  # 5 * 5 + 25; seat 1's whole rack ascends: 5 per card
    result = G.observe(s, 1)["last_result"]
    assert result["winner"] == 0 and result["rack_o"] and result["racks"][1] == [10, 11, 12, 13, 14]
    assert G.observe(s, 1)["racks"] == [[1, 3, 5, 7, 9], [10, 11, 12, 13, 14]]


def test_rack_dealt_in_order_still_needs_a_turn():
    s = table([[1, 3, 5, 7, 30], [10, 11, 12, 13, 14]], discard=[9], to_move=1)
    assert not G.is_over(s) and G.legal_ids(s) == ["draw:deck", "draw:discard"]
    after = act(s, "draw:deck", "discard")
    assert G.is_over(after) and G.winners(after) == [1]
    # ... and a player who breaks their ordered rack in that turn does not go Rack-O
    broken = act(s, "draw:discard", "place:5")
    assert not G.is_over(broken) and broken.to_move == 0


def test_turn_cap_ends_the_deal_with_no_winner_and_racks_scored():
    s = table([[9, 3, 5, 7, 2], [10, 11, 12, 20, 14]], discard=[30], options={"max_turns": 3})
    s = act(s, "draw:deck", "discard", "draw:deck", "discard")
    assert not G.is_over(s) and s.turn == 2
    s = act(s, "draw:deck", "discard")
    assert G.is_over(s) and G.winners(s) == [] and s.winner == -1
    assert G.scores(s) == [5.0, 20.0]
    assert G.observe(s, 0)["log"][-1] == {"event": "stalled", "turns": 3}
    assert G.observe(s, 0)["last_result"]["winner"] is None


def test_scoring_counts_from_slot_one_up_to_the_first_break_minimum_five():
    assert ascending_prefix([9, 3, 5]) == 1
    assert ascending_prefix([1, 2, 3, 0]) == 3
    assert ascending_prefix([1, 2, 3, 4]) == 4
    rules = G.rules(3, {"rack_size": 4})
    assert deal_points(rules, [[1, 2, 3, 4], [5, 1, 2, 3], [1, 6, 7, 2]], 0) == [45, 5, 15]
    assert deal_points(rules, [[3, 2, 1, 4], [5, 1, 2, 3], [1, 6, 7, 2]], -1) == [5, 5, 15]


def test_bonus_for_the_longest_run_of_consecutive_numbers():
    assert longest_run([1, 5, 6, 7, 20, 21]) == 3 and run_bonus([1, 5, 6, 7, 20, 21]) == 50
    assert run_bonus([1, 2, 3, 4, 9, 30]) == 100
    assert run_bonus([1, 2, 3, 4, 5, 30]) == 200
    assert run_bonus([1, 2, 3, 4, 5, 6]) == 400 and run_bonus(list(range(1, 11))) == 400
    assert run_bonus([1, 3, 5, 7, 9]) == 0 and run_bonus([1, 2, 5, 6, 9]) == 0
    racks = [[1, 2, 3, 4, 30], [10, 11, 12, 13, 14]]
    plain = act(table(racks, discard=[40]), "draw:deck", "discard")
    bonus = act(table(racks, discard=[40], options={"bonus": True}), "draw:deck", "discard")
    assert G.scores(plain) == [50.0, 25.0]
    assert G.scores(bonus) == [150.0, 25.0]  # the loser's run earns nothing
    assert G.observe(bonus, 0)["last_result"]["bonus"] == 100


@pytest.mark.parametrize("players", [2, 3, 4])
def test_match_goes_to_target_score_and_highest_wins(players):
    state = G.new_match(players, 5, {"rack_size": 3, "target_score": 60, "max_turns": 30})
    rng = random.Random(players)
    deals = set()
    while not G.is_over(state):
        deals.add(state.deal)
        state = G.apply(state, rng.choice(G.legal_actions(state)))
    scores = G.scores(state)
    assert max(scores) >= 60 and len(deals) > 1
    assert G.winners(state) == [p for p, s in enumerate(scores) if s == max(scores)]
    assert state.last_result.scores == state.scores


def test_single_deal_ends_after_one_deal():
    state = G.new_deal(2, 5, {"rack_size": 3, "max_turns": 30})
    rng = random.Random(1)
    while not G.is_over(state):
        assert state.deal == 0
        state = G.apply(state, rng.choice(G.legal_actions(state)))


# ----- views and JSON -----

def test_views_hide_racks_deck_and_seed():
    s = act(G.new_deal(3, 424242), "draw:deck")
    mine, theirs, spectator = G.observe(s, 0), G.observe(s, 1), G.observe(s, None)
    assert mine["rack"] == list(s.racks[0]) and mine["drawn"] == s.drawn
    assert theirs["rack"] == list(s.racks[1]) and theirs["drawn"] is None and theirs["legal_actions"] == []
    assert spectator["rack"] is None and "racks" not in spectator and "deck" not in spectator
    assert "424242" not in json.dumps([mine, theirs, spectator])
    assert G.observe(s, None, reveal=True)["racks"] == [list(r) for r in s.racks]
    for key in ("game", "seat", "players", "options", "deal", "turn", "turns", "to_move", "phase", "rack",
                "drawn", "drawn_from", "discard_top", "discard_pile", "deck_size", "known", "scores",
                "last_result", "legal_actions"):
        assert key in mine


def test_resample_keeps_known_cards_and_the_observers_view():
    s = table([[9, 3, 5, 7, 2], [10, 11, 12, 14, 13]], discard=[20])
    s = act(s, "draw:discard", "place:1", "draw:deck")  # seat 0's slot 1 holds 20, seen by all; seat 1 holds a deck card
    rng = random.Random(0)
    for _ in range(20):
        other = G.resample_hidden(s, 1, rng)
        assert other.racks[0][0] == 20 and other.racks[1] == s.racks[1] and other.drawn == s.drawn
        assert G.observe(other, 1) == G.observe(s, 1)
        first = G.resample_hidden(s, 0, rng)
        assert first.racks[0] == s.racks[0] and G.observe(first, 0) == G.observe(s, 0)
    # seat 1 holds a deck card: hidden from seat 0, who may see it dealt elsewhere
    assert any(G.resample_hidden(s, 0, rng).drawn != s.drawn for _ in range(20))


def test_json_round_trip_and_bad_states():
    s = act(G.new_match(2, 9, {"bonus": True}), "draw:discard")
    data = json.loads(json.dumps(G.to_json(s)))
    assert G.from_json(data) == s
    broken = dict(data, deck=data["deck"][1:])
    with pytest.raises(Exception) as err:
        G.from_json(broken)
    assert "exactly once" in str(err.value)
    with pytest.raises(StateError):
        G.from_json({"players": 2})


def test_rules_of_resolve_zero_max_card():
    assert G.rules(4, {}) == Rules(10, 60, 1500, False, 500)
    assert G.is_over(act(table([SORTED5, [6, 7, 8, 9, 10]], discard=[11]), "draw:deck", "discard"))
    assert OVER == 2


def test_view_records_the_dealt_rack_and_the_slots_each_seat_filled():
    s = table([[9, 3, 5, 7, 2], [10, 11, 12, 14, 13]], discard=[20])
    s = act(s, "draw:discard", "place:2", "draw:deck", "discard", "draw:deck", "place:4")
    v0, v1, spectator = G.observe(s, 0), G.observe(s, 1), G.observe(s, None)
    assert v0["dealt"] == [9, 3, 5, 7, 2] and v1["dealt"] == [10, 11, 12, 14, 13]
    assert spectator["dealt"] is None
    assert v0["placed"] == v1["placed"] == [[2, 4], [0]] and v0["turns"] == [2, 1]
