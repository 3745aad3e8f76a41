"""Uno rules (docs/rules.md, section 2): one test per rule, option and edge case."""
import json
import random
from collections import Counter

import pytest

from engine import GameError, IllegalActionError, OptionError, get_game
from engine.uno import ACTIONS, CARDS, FULL_DECK, Play, Rules, State, Table, parse_action, parse_card
from engine import ActionSyntaxError
from engine.uno.cards import CARD_IDS, Colour, Rank, hand_points
from engine.uno.actions import DRAW
from engine.uno.rules import CHALLENGED, DRAWN, OPENING, OVER, PLAY
from engine.uno.view import CODE_OF_ID, EVENTS
from tests.engine.invariants import canon

G = get_game("uno")


def codes(*names: str) -> tuple[int, ...]:
    return tuple(CODE_OF_ID[n] for n in names)


def position(hands, top, colour=None, pile=(), turn=0, direction=1, options=None, single=True,
             rest_to="pile", below=(), scores=None, phase=PLAY, moves=0) -> State:
    """A state with these hands (card ids) and top card. ``pile`` are the next cards
    to be drawn, first first; ``below`` are discards under the top card. Every other card
    of the deck goes to the bottom of the draw pile, or under the discards when
    ``rest_to="discard"`` (so the draw pile is exactly ``pile``)."""
    rules = Rules(**G.resolve_options(options))
    hands = tuple(codes(*h) for h in hands)
    named = [*[c for h in hands for c in h], *codes(top), *codes(*pile), *codes(*below)]
    rest = list((Counter(FULL_DECK) - Counter(named)).elements())
    assert len(rest) + len(named) == 108, "a position must not use more copies than the deck has"
    draw = tuple(reversed(codes(*pile)))
    discard = codes(*below) + codes(top)
    if rest_to == "pile":
        draw = tuple(rest) + draw
    else:
        discard = tuple(rest) + discard
    top_code = codes(top)[0]
    colour = Colour("rygb".index(colour)) if colour else CARDS[top_code].colour
    n = len(hands)
    return State(seed=7, players=n, rules=rules, single=single, deal=0, dealer=n - 1, hands=hands, pile=draw,
                 discard=discard, colour=int(colour), direction=direction, turn=turn, phase=phase, wd4_by=-1,
                 wd4_bad=False, prev_colour=-1, uno_missed=-1, moves=moves, reshuffles=0,
                 scores=tuple(scores or (0,) * n), winner=-1, log=(), last_deal=None)


def act(state, *action_ids):
    for action_id in action_ids:
        state = G.apply(state, G.parse_action(action_id))
    return state


def legal(state):
    return G.legal_ids(state)


def reason(state, action_id):
    before = canon(G.to_json(state))
    with pytest.raises(IllegalActionError) as err:
        act(state, action_id)
    assert canon(G.to_json(state)) == before
    return err.value.reason


def hand(state, seat):
    return sorted(CARD_IDS[c] for c in state.hands[seat])


def stacked(turnups, players=2):
    """A deck whose first turned-up cards are ``turnups`` (ids), the hands dealt from the rest."""
    deck = list(FULL_DECK)
    ups = list(codes(*turnups))
    for c in ups:
        deck.remove(c)
    rest, dealt = deck[:-7 * players], deck[-7 * players:]
    return rest + ups[::-1] + dealt


def deal_from(turnups, players=2, options=None) -> State:
    rules = Rules(**G.resolve_options(options))
    return Table.new(players, 11, rules, True, stacked(turnups, players)).freeze()


def conserved(state) -> bool:
    held = Counter(c for h in state.hands for c in h) + Counter(state.pile) + Counter(state.discard)
    return held == Counter(FULL_DECK)


def events(state, kind):
    return [EVENTS.to_json(e) for e in state.log if e[0] == kind]


# ----- cards and ids -----

def test_108_cards_and_their_points():
    deck = Counter(FULL_DECK)
    assert len(FULL_DECK) == 108 and len(CARDS) == 54
    for colour in range(4):
        assert deck[13 * colour] == 1  # one 0
        # two each of 1-9, Skip, Reverse, Draw Two
        assert all(deck[13 * colour + r] == 2 for r in range(1, 13))
    assert deck[52] == 4 and deck[53] == 4
    assert [c.points for c in CARDS[:13]] == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 20, 20, 20]
    assert CARDS[52].points == CARDS[53].points == 50
    assert sum(CARDS[c].points for c in FULL_DECK) == 4 * (90 + 120) + 400


def test_card_ids_parse_back_and_bad_ones_are_refused():
    assert all(parse_card(c.id) is c for c in CARDS)
    assert parse_card("gskip") == CARDS[13 * 2 + 10] and parse_card("brev").rank == Rank.REVERSE
    assert parse_card("yd2").title == "Yellow Draw Two" and parse_card("wd4").is_wild
    for bad in ("r10", "x7", "wild:g", "R7", "", "rd4", "r 7"):
        with pytest.raises(ActionSyntaxError):
            parse_card(bad)


def test_action_ids_parse_back_with_a_grammar():
    assert all(parse_action(a.id) is a for a in ACTIONS)
    assert parse_action("play:wild:g") == Play(parse_card("wild"), Colour.GREEN)
    assert parse_action("play:r7:uno") == Play(parse_card("r7"), None, True)
    assert G.action_label(parse_action("play:wd4:b")) == "play Wild Draw Four, naming blue"
    for bad in ("play:wild", "play:r7:g", "play:wd4:b:g", "play:r7:uno:uno", "draw:1", "play:", "colour:x",
                "play:wild:uno", "skip", "play:r7,r8"):
        with pytest.raises(ActionSyntaxError):
            parse_action(bad)
        with pytest.raises(IllegalActionError):
            G.parse_action(bad)


def test_options_players_and_their_checks():
    assert [o.name for o in G.options] == [
        "opening_wild", "wd4_challenge", "wd4_when", "draw_until_playable", "play_drawn", "reverse_skips_two",
        "rotate_dealer", "first_card_acts", "uno_call", "target_score", "max_turns"]
    G.new_match(10, 1)
    for players in (1, 11):
        with pytest.raises(OptionError):
            G.new_deal(players, 1)
    for bad in ({"opening_wild": "ask"}, {"house_rule": True}, {"target_score": 0}, {"uno_call": "yes"},
                {"wd4_when": "never"}, {"play_drawn": 0}, {"preset": "house"}, {"preset": ["writeup"]}):
        with pytest.raises(OptionError):
            G.new_deal(3, 1, bad)


def test_the_writeup_preset_names_the_writeups_rules_and_defaults_are_the_official_ones():
    official = G.rules(2, None)
    assert (official.play_drawn, official.reverse_skips_two, official.wd4_when, official.wd4_challenge,
            official.rotate_dealer, official.first_card_acts) == (True, True, "no_colour", False, True, True)
    writeup = G.rules(2, {"preset": "writeup"})
    assert (writeup.play_drawn, writeup.reverse_skips_two, writeup.wd4_when, writeup.wd4_challenge,
            writeup.rotate_dealer, writeup.first_card_acts) == (False, False, "no_other_card", False, False, False)
    assert G.rules(2, {"preset": "writeup", "play_drawn": True}).play_drawn  # options beside it override it
    assert G.describe()["presets"]["writeup"]["wd4_when"] == "no_other_card"
    assert G.new_match(2, 3, {"preset": "writeup"}).rules == writeup


# ----- the deal and the first card (rule 2) -----

def test_seven_cards_each_dealer_left_plays_first_and_cards_are_conserved():
    for players in (2, 5, 10):
        s = G.new_deal(players, 3)
        opened_with_draw_two = CARDS[s.discard[0]].rank == Rank.DRAW_TWO
        sizes = [9 if opened_with_draw_two and p == 0 else 7 for p in range(players)]
        assert [len(h) for h in s.hands] == sizes
        assert s.dealer == players - 1 and conserved(s)
        if CARDS[s.discard[-1]].rank < Rank.SKIP:
            assert G.current_player(s) == 0


def test_first_card_number_sets_the_colour():
    s = deal_from(["g5"], 3)
    assert (s.turn, s.colour, s.phase) == (0, int(Colour.GREEN), PLAY)


def test_first_card_skip_skips_the_first_player():
    s = deal_from(["bskip"], 3)
    assert s.turn == 1 and events(s, "skip") == [{"event": "skip", "seat": 0}]


def test_first_card_reverse_dealer_plays_first_and_direction_reverses():
    s = deal_from(["yrev"], 3)
    assert (s.turn, s.direction) == (2, -1)
    assert act(s, "draw", "pass").turn == 1  # play goes on to the dealer's right


def test_first_card_reverse_with_two_players_is_a_skip():
    s = deal_from(["yrev"], 2)
    assert (s.turn, s.direction) == (1, 1)


def test_first_card_draw_two_first_player_draws_two_and_is_skipped():
    s = deal_from(["rd2"], 3)
    assert [len(h) for h in s.hands] == [9, 7, 7] and s.turn == 1
    assert events(s, "penalty") == [{"event": "penalty", "seat": 0, "count": 2}]


def test_first_card_that_does_not_act_leaves_the_first_player_to_play():
    for turnup in ("bskip", "yrev", "rd2"):
        s = deal_from([turnup], 3, {"first_card_acts": False})
        assert (s.turn, s.direction, s.phase) == (0, 1, PLAY) and [len(h) for h in s.hands] == [7, 7, 7]
        assert not events(s, "skip") and not events(s, "penalty") and not events(s, "reverse")
        assert s.colour == CARDS[s.discard[-1]].colour


def test_first_card_wild_first_player_names_the_colour_then_plays():
    s = deal_from(["wild"], 3)
    assert s.phase == OPENING and legal(s) == ["colour:r", "colour:y", "colour:g", "colour:b"]
    assert "name the colour" in reason(s, "draw")
    s = act(s, "colour:y")
    assert (s.turn, s.phase, s.colour) == (0, PLAY, int(Colour.YELLOW))
    assert all(a == "draw" or a.startswith("play:y") or a.startswith("play:wild") or a.startswith("play:wd4")
               for a in legal(s))


def test_first_card_wild_with_redraw_goes_back_into_the_pile():
    s = deal_from(["wild", "b3"], 3, {"opening_wild": "redraw"})
    assert s.discard[0] != codes("wild")[0]
    assert events(s, "returned") == [{"event": "returned", "card": "wild"}]
    assert len(s.pile) == 108 - 21 - 1


def test_first_card_wd4_is_returned_reshuffled_and_another_turned():
    s = deal_from(["wd4", "wd4"], 2)
    assert CARDS[s.discard[-1]].rank != Rank.WILD_DRAW_FOUR
    assert [e["card"] for e in events(s, "returned")] == ["wd4"] * len(events(s, "returned"))
    held = sum(h.count(53) for h in s.hands)
    assert events(s, "returned") and Counter(s.pile)[53] == 4 - held and 53 not in s.discard
    for seed in range(300):  # never starts on a WD4; with redraw never on any wild
        assert G.new_deal(4, seed).discard[0] != 53
        assert G.new_deal(4, seed, {"opening_wild": "redraw"}).discard[0] < 52


# ----- playing (rule 3) -----

def test_play_matches_colour_number_or_symbol_or_is_wild():
    s = position([["r3", "g7", "b7", "yskip", "gskip", "wild", "y9"], ["r1"]], "g7")
    assert legal(s) == ["play:g7", "play:gskip", "play:b7", "play:wild:r", "play:wild:y", "play:wild:g",
                        "play:wild:b", "draw"]
    assert "matches neither" in reason(s, "play:r3")
    assert "hold no" in reason(s, "play:r5")
    s = position([["rskip", "gskip", "b2"], ["r1"]], "yskip")
    assert legal(s) == ["play:rskip", "play:gskip", "draw"]


def test_duplicate_cards_give_one_action():
    s = position([["r3", "r3", "g3"], ["r1"]], "r5")
    assert legal(s) == ["play:r3", "draw"]


def test_wild_names_the_colour_the_next_player_must_follow():
    s = act(position([["wild", "r1"], ["b5", "g5", "wild"]], "r9"), "play:wild:b")
    assert s.colour == int(Colour.BLUE) and s.turn == 1
    assert legal(s) == ["play:b5", "play:wild:r", "play:wild:y", "play:wild:g", "play:wild:b", "draw"]


# ----- Wild Draw Four (rule 4) -----

def test_wd4_only_without_a_card_of_the_colour_in_force():
    s = position([["wd4", "r5", "g1"], ["b1"]], "y7")
    assert "play:wd4:r" in legal(s)  # r5 and g1 are not yellow
    s = position([["wd4", "y5"], ["b1"]], "y7")
    assert not any(a.startswith("play:wd4") for a in legal(s))
    assert "hold no yellow card" in reason(s, "play:wd4:g")
    s = position([["wd4", "wild", "r7"], ["b1"]], "y7")  # another wild and the matching number don't count
    assert "play:wd4:g" in legal(s)


def test_wd4_when_no_other_card_is_playable():
    opts = {"wd4_when": "no_other_card"}
    s = position([["wd4", "r5", "g1"], ["b1"]], "y7", options=opts)
    assert "play:wd4:r" in legal(s)  # nothing else plays on the yellow 7
    for other in (["wd4", "r7"], ["wd4", "wild"], ["wd4", "y1"]):  # the number, a Wild, the colour
        s = position([other, ["b1"]], "y7", options=opts)
        assert not any(a.startswith("play:wd4") for a in legal(s)), other
        assert "no other card of yours" in reason(s, "play:wd4:g")
    s = position([["wd4", "wd4", "b2"], ["b1"]], "y7", options=opts)  # another Wild Draw Four does not count
    assert "play:wd4:g" in legal(s)
    drawn = act(position([["r7"], ["g1"]], "y7", pile=["wd4"], options=opts), "draw")
    assert legal(drawn) == ["pass"]  # the red 7 plays on the yellow 7


def test_wd4_challenge_tests_the_wd4_when_rule():
    opts = {"wd4_challenge": True, "wd4_when": "no_other_card"}
    s = act(position([["wd4", "r7", "b1"], ["b2"], ["g2"]], "y7", options=opts), "play:wd4:b", "challenge")
    assert events(s, "challenge") == [{"event": "challenge", "seat": 1, "illegal": True}]  # r7 played
    s = act(position([["wd4", "r1", "b1"], ["b2"], ["g2"]], "y7", options=opts), "play:wd4:b", "challenge")
    assert events(s, "challenge") == [{"event": "challenge", "seat": 1, "illegal": False}]


def test_wd4_next_player_draws_four_and_loses_the_turn():
    s = act(position([["wd4", "r5"], ["b1"], ["g2"]], "y7"), "play:wd4:g")
    assert (len(s.hands[1]), s.turn, s.colour) == (5, 2, int(Colour.GREEN))


def test_wd4_challenge_offers_any_wd4_and_accept_draws_four():
    opts = {"wd4_challenge": True}
    s = position([["wd4", "y5", "r1"], ["b1"], ["g2"]], "y7", options=opts)
    assert "play:wd4:b" in legal(s)
    s = act(s, "play:wd4:b")
    assert s.phase == CHALLENGED and s.turn == 1 and legal(s) == ["challenge", "accept"]
    assert "first challenge or accept" in reason(s, "draw")
    done = act(s, "accept")
    assert (len(done.hands[1]), done.turn, done.phase) == (5, 2, PLAY)


def test_wd4_challenge_of_an_illegal_one_punishes_its_player_and_the_challenger_plays_on():
    s = act(position([["wd4", "y5", "r1"], ["b1"], ["g2"]], "y7", options={"wd4_challenge": True}),
            "play:wd4:b", "challenge")
    assert [len(h) for h in s.hands] == [6, 1, 1]
    assert (s.turn, s.phase, s.colour) == (1, PLAY, int(Colour.BLUE))
    assert events(s, "challenge") == [{"event": "challenge", "seat": 1, "illegal": True}]


def test_wd4_challenge_of_a_legal_one_costs_the_challenger_six_and_the_turn():
    s = act(position([["wd4", "g5", "r1"], ["b1"], ["g2"]], "y7", options={"wd4_challenge": True}),
            "play:wd4:b", "challenge")
    assert [len(h) for h in s.hands] == [2, 7, 1] and s.turn == 2
    assert events(s, "challenge") == [{"event": "challenge", "seat": 1, "illegal": False}]


# ----- drawing (rule 5) -----

def test_draw_then_play_only_the_drawn_card():
    s = act(position([["r3", "b9"], ["g1"]], "r5", pile=["r8"]), "draw")
    assert s.phase == DRAWN and legal(s) == ["play:r8", "pass"]
    assert "only the card you drew" in reason(s, "play:r3")
    assert G.observe(s, 0)["drawn"] == "r8" and G.observe(s, 1)["drawn"] is None
    played = act(s, "play:r8")
    assert played.turn == 1 and hand(played, 0) == ["b9", "r3"]


def test_draw_then_pass_keeps_the_card_and_ends_the_turn():
    s = act(position([["r3"], ["g1"]], "r5", pile=["g8"]), "draw")
    assert legal(s) == ["pass"]  # not playable: the only move is to pass
    s = act(s, "pass")
    assert s.turn == 1 and hand(s, 0) == ["g8", "r3"]
    assert "draw a card first" in reason(s, "pass")


def test_drawn_wild_draw_four_obeys_its_rule():
    s = act(position([["r3"], ["g1"]], "r5", pile=["wd4"]), "draw")
    assert legal(s) == ["pass"]  # holds a red card
    s = act(position([["b3"], ["g1"]], "r5", pile=["wd4"]), "draw")
    assert legal(s) == ["play:wd4:r", "play:wd4:y", "play:wd4:g", "play:wd4:b", "pass"]


def test_without_play_drawn_drawing_ends_the_turn():
    s = act(position([["r3", "b9"], ["g1"]], "r5", pile=["r8"], options={"play_drawn": False}), "draw")
    assert s.phase == PLAY and s.turn == 1 and hand(s, 0) == ["b9", "r3", "r8"]  # r8 was playable: kept
    assert events(s, "draw") == [{"event": "draw", "seat": 0, "count": 1}] and not events(s, "pass")
    s = act(position([["r3"], ["g1"], ["g2"]], "r5", pile=["wd4"], direction=-1,
                     options={"play_drawn": False}), "draw")
    assert (s.turn, s.phase) == (2, PLAY)


def test_draw_until_playable():
    s = act(position([["b3"], ["g1"]], "r5", pile=["g2", "y9", "r7", "b1"],
                     options={"draw_until_playable": True}), "draw")
    assert hand(s, 0) == ["b3", "g2", "r7", "y9"] and legal(s) == ["play:r7", "pass"]
    assert events(s, "draw") == [{"event": "draw", "seat": 0, "count": 3}]


# ----- action cards (rule 6) -----

def test_skip_next_player_loses_a_turn():
    s = act(position([["rskip", "r1"], ["g1"], ["g2"]], "r5"), "play:rskip")
    assert s.turn == 2


def test_reverse_changes_direction_with_three():
    s = act(position([["rrev", "r1"], ["g1"], ["g2"]], "r5", turn=0), "play:rrev")
    assert (s.direction, s.turn) == (-1, 2)


def test_reverse_with_two_players_acts_as_skip():
    s = act(position([["rrev", "r1"], ["g1"]], "r5"), "play:rrev")
    assert (s.direction, s.turn) == (1, 0)


def test_reverse_with_two_players_without_skipping_passes_the_turn():
    s = act(position([["rrev", "r1"], ["g1"]], "r5", options={"reverse_skips_two": False}), "play:rrev")
    assert (s.direction, s.turn) == (-1, 1) and not events(s, "skip")
    s = act(position([["rrev", "r1"], ["g1"], ["g2"]], "r5", options={"reverse_skips_two": False}), "play:rrev")
    assert (s.direction, s.turn) == (-1, 2)  # three players: a Reverse as ever


def test_first_card_reverse_with_two_players_without_skipping():
    s = deal_from(["yrev"], 2, {"reverse_skips_two": False})
    assert (s.turn, s.direction) == (0, -1) and not events(s, "skip")


def test_draw_two_next_draws_two_and_loses_the_turn_no_stacking():
    s = act(position([["rd2", "r1"], ["gd2"], ["g2"]], "r5"), "play:rd2")
    assert (len(s.hands[1]), s.turn) == (3, 2)  # seat 1 may not answer with its own Draw Two


# ----- reshuffling (rule 8) -----

def test_reshuffle_when_the_pile_runs_out_keeps_the_top_and_its_colour():
    s = position([["b3", "b4"], ["g1"]], "wild", colour="r", pile=[], rest_to="discard")
    assert len(s.pile) == 0 and legal(s) == ["draw"]
    t = act(s, "draw")
    assert t.discard == (codes("wild")[0],) and t.colour == int(Colour.RED)
    assert len(t.pile) == len(s.discard) - 2 and events(t, "reshuffle")
    assert conserved(t)


def test_reshuffle_during_a_draw_of_four():
    s = position([["wd4", "b4"], ["g1"], ["g2"]], "r9", pile=["y1", "y2"], rest_to="discard")
    t = act(s, "play:wd4:g")
    assert len(t.hands[1]) == 5 and Counter(hand(t, 1)) >= Counter(["g1", "y1", "y2"])
    assert [e["event"] for e in map(EVENTS.to_json, t.log)] == ["play", "reshuffle", "penalty", "skip"]
    assert t.discard == (codes("wd4")[0],) and t.colour == int(Colour.GREEN)
    assert conserved(t)


def test_when_both_piles_are_empty_a_player_cannot_draw():
    deck = Counter(FULL_DECK)
    deck[codes("r9")[0]] -= 1
    deck[codes("b4")[0]] -= 1
    cards = list(deck.elements())
    s = position([["b4"], []], "r9")._replace(hands=(codes("b4"), tuple(cards)), pile=())
    assert legal(s) == ["pass"] and "no card left to draw" in reason(s, "draw")
    t = act(s, "pass")
    assert t.turn == 1


def test_a_penalty_draws_what_there_is():
    s = position([["rd2", "r1"], ["g1"]], "r5", pile=[], rest_to="discard")
    s = s._replace(hands=(s.hands[0], s.hands[1] + s.discard[:-1]), discard=s.discard[-1:])
    t = act(s, "play:rd2")  # only the r5 under the Draw Two can be reshuffled and drawn
    assert events(t, "penalty") == [{"event": "penalty", "seat": 1, "count": 1}]
    assert len(t.pile) == 0 and t.discard == codes("rd2")


# ----- the end of a deal and scoring (rule 9) -----

def test_going_out_scores_the_other_hands():
    s = act(position([["r1"], ["r5", "gskip", "wild", "wd4", "b0"], ["y9", "brev"]], "r7"), "play:r1")
    assert G.is_over(s) and G.winners(s) == [0]
    assert G.scores(s) == [5 + 20 + 50 + 50 + 0 + 9 + 20, 0.0, 0.0]
    assert hand_points(codes("r5", "gskip", "wild", "wd4", "b0")) == 125
    assert G.observe(s, 1)["hands"][2] == ["y9", "brev"]  # hands are shown at the end of a deal


def test_going_out_on_a_draw_two_still_makes_the_next_player_draw():
    s = act(position([["rd2"], ["g1"], ["y2"]], "r7", pile=["b9", "wild"]), "play:rd2")
    assert G.is_over(s) and hand(s, 1) == ["b9", "g1", "wild"]
    assert G.scores(s)[0] == 9 + 1 + 50 + 2


def test_going_out_on_a_wild_draw_four_still_makes_the_next_player_draw_four():
    s = act(position([["wd4"], ["g1"], ["y2"]], "r7", pile=["b9", "b8", "b7", "b6"],
                     options={"wd4_challenge": True}), "play:wd4:g")
    assert G.is_over(s) and len(s.hands[1]) == 5 and G.scores(s)[0] == 1 + 9 + 8 + 7 + 6 + 2


def test_match_goes_on_to_the_target_score_with_the_dealer_moving_left():
    s = position([["r1"], ["r5"], ["y9"]], "r7", single=False, options={"target_score": 30})
    s = act(s, "play:r1")
    assert not G.is_over(s) and s.scores == (14, 0, 0) and s.deal == 1 and s.dealer == 0
    assert G.observe(s, 1)["last_deal"] == {
        "deal": 0, "winner": 0, "points": 14, "hands": [[], ["r5"], ["y9"]]}
    assert [len(h) for h in s.hands] == [7, 7, 7] and conserved(s)
    rng = random.Random(3)
    while not G.is_over(s):
        options = G.legal_actions(s)
        plays = [a for a in options if isinstance(a, Play)]
        s = G.apply(s, rng.choice(plays or options))
    assert max(s.scores) >= 30 and G.winners(s) == [s.scores.index(max(s.scores))]


def test_without_rotating_the_dealer_the_first_seat_leads_every_deal():
    for rotate, dealers in ((True, [2, 0, 1, 2]), (False, [2, 2, 2, 2])):
        table = Table.new(3, 4, G.rules(3, {"rotate_dealer": rotate}), single=False)
        seen = [table.dealer]
        rng = random.Random(4)
        while len(seen) < 4 and table.phase != OVER:
            deal = table.deal
            legal = table.legal()
            table.step(rng.choice([a for a in legal if a < DRAW] or legal))
            if table.deal != deal:
                seen.append(table.dealer)
                assert ("deal", table.deal, table.dealer) in table.log
        assert seen == dealers


def test_a_whole_match_to_500_ends_with_one_winner():
    s = G.new_match(3, 5)
    rng = random.Random(5)
    deals = 0
    while not G.is_over(s):
        options = G.legal_actions(s)
        plays = [a for a in options if isinstance(a, Play)]
        before = s.deal
        s = G.apply(s, rng.choice(plays or options))
        deals += s.deal != before
    assert max(s.scores) >= 500 and len(G.winners(s)) == 1 and deals >= 1


def test_max_turns_ends_a_deal_with_no_winner():
    s = position([["r1", "r2"], ["g5"]], "r7", options={"max_turns": 3}, moves=2)
    t = act(s, "play:r1")
    assert G.is_over(t) and G.winners(t) == [] and G.scores(t) == [0.0, 0.0]
    m = act(position([["r1", "r2"], ["g5"]], "r7", options={"max_turns": 3}, moves=2, single=False),
            "play:r1")
    assert not G.is_over(m) and m.deal == 1 and m.scores == (0, 0)


# ----- calling UNO (rule 7, option uno_call) -----

def test_without_the_option_uno_is_automatic():
    s = position([["r1", "r2"], ["g5"]], "r7")
    assert legal(s) == ["play:r1", "play:r2", "draw"]
    assert "uno_call option" in reason(s, "play:r1:uno")


def test_uno_call_forgetting_it_lets_the_next_player_catch():
    s = position([["r1", "r2"], ["g5", "g6"], ["y1"]], "r7", options={"uno_call": True})
    assert legal(s) == ["play:r1", "play:r2", "play:r1:uno", "play:r2:uno", "draw"]
    forgot = act(s, "play:r1")
    assert "catch" in legal(forgot) and G.observe(forgot, 2)["uno_missed"] == 0
    caught = act(forgot, "catch")
    assert len(caught.hands[0]) == 3 and caught.turn == 1 and "catch" not in legal(caught)
    assert events(caught, "catch") == [{"event": "catch", "seat": 1, "caught": 0}]
    missed = act(forgot, "draw")  # acting otherwise lets the chance pass
    assert missed.uno_missed == -1
    called = act(s, "play:r1:uno")
    assert "catch" not in legal(called)
    assert "nobody can be caught" in reason(called, "catch")


# ----- apply, views, hidden information -----

def test_illegal_actions_are_refused_with_a_reason_and_change_nothing():
    s = position([["r1", "wild"], ["g5"]], "r7")
    assert "no Wild Draw Four waiting" in reason(s, "challenge")
    assert "only for a Wild turned up" in reason(s, "colour:g")
    assert "hold no" in reason(s, "play:wd4:g")
    over = act(position([["r1"], ["g5"]], "r7"), "play:r1")
    assert reason(over, "draw") == "the match is over"
    with pytest.raises(IllegalActionError):
        G.apply(s, "draw")


def test_views_show_only_what_the_seat_may_see():
    s = act(position([["r1", "r2", "b5"], ["g5", "y1"], ["y9"]], "r7"), "play:r1")
    view = G.observe(s, 1)
    text = json.dumps(view)
    assert view["hand"] == ["y1", "g5"] and view["hand_counts"] == [2, 2, 1]
    assert "hands" not in view and "pile" not in view and "seed" not in text and "b5" not in text
    assert view["top"] == "r1" and view["colour"] == "r" and view["legal_actions"] == ["play:y1", "draw"]
    assert view["draw_pile"] == len(s.pile) and view["to_move"] == 1 and view["direction"] == 1
    assert G.observe(s, 0)["legal_actions"] == [] and G.observe(s, None)["hand"] == []
    assert G.observe(s, None, reveal=True)["hands"] == [["r2", "b5"], ["y1", "g5"], ["y9"]]


def test_resample_and_determinise_keep_the_view():
    rng = random.Random(1)
    for options in ({}, {"wd4_challenge": True, "uno_call": True}, {"draw_until_playable": True}):
        for seed in range(3):
            s = G.new_deal(3, seed, options)
            while not G.is_over(s):
                for seat in (0, 1, 2, None):
                    view = G.observe(s, seat)
                    assert canon(G.observe(G.resample_hidden(s, seat, rng), seat)) == canon(view)
                    if seat is not None:
                        det = G.determinise(view, rng)
                        assert canon(G.observe(det, seat)) == canon(view)
                        assert canon(G.to_json(G.from_json(G.to_json(det)))) == canon(G.to_json(det))
                legal_now = G.legal_actions(s)
                plays = [a for a in legal_now if isinstance(a, Play)]
                s = G.apply(s, rng.choice(plays or legal_now))


def test_from_json_refuses_a_state_that_loses_a_card():
    data = G.to_json(G.new_deal(2, 1))
    data["pile"] = data["pile"][1:]
    with pytest.raises(GameError) as err:
        G.from_json(data)
    assert "108 cards" in str(err.value)
