"""Queen of Spades rules (docs/rules.md, section 5): card order, follow suit, trick winner,
every scoring case, forced_queen, dealer rotation, matches, hidden cards."""
import itertools
import random
from collections import Counter

import pytest

from engine import IllegalActionError, OptionError, get_game
from engine.queen_of_spades import ACTIONS, QUEEN_OF_SPADES, Table, deal_points, parse_action, parse_card
from engine.queen_of_spades.cards import CARD_IDS, CARD_LABELS, RANKS, SUITS
from engine.queen_of_spades.hidden import redeal
from engine.queen_of_spades.rules import ALL_TRICKS, QUEEN_AND_LAST, SPLIT, Rules, State
from tests.engine.invariants import canon

G = get_game("queen_of_spades")


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def dealt(hands: list[str], rules: Rules = Rules(), single: bool = True) -> State:
    """A first deal with seat k holding ``hands[k]`` (the dealer is seat 3, so seat 0 gets
    the first eight cards of the deck and leads)."""
    deck = [c for h in hands for c in cards(h)]
    assert sorted(deck) == list(range(32))
    return Table.new(4, 7, rules, single, deck).freeze()


def play(state: State, *ids: str) -> State:
    for card_id in ids:
        state = G.apply_id(state, "play:" + card_id)
    return state


def reason(state: State, action_id: str) -> str:
    before = canon(G.to_json(state))
    with pytest.raises(IllegalActionError) as err:
        G.apply_id(state, action_id)
    assert canon(G.to_json(state)) == before
    return err.value.reason


# seat 0 all clubs, seat 1 all spades, seat 2 all hearts, seat 3 all diamonds
BY_SUIT = ["AC KC QC JC 10C 9C 8C 7C", "AS KS QS JS 10S 9S 8S 7S",
           "AH KH QH JH 10H 9H 8H 7H", "AD KD QD JD 10D 9D 8D 7D"]


# ----- cards -----

def test_card_order_is_suit_major_clubs_spades_hearts_diamonds_ace_high():
    assert CARD_IDS[:8] == ("AC", "KC", "QC", "JC", "10C", "9C", "8C", "7C")
    assert [CARD_IDS[8 * s] for s in range(4)] == ["AC", "AS", "AH", "AD"]
    assert CARD_IDS[31] == "7D" and CARD_IDS[QUEEN_OF_SPADES] == "QS" and QUEEN_OF_SPADES == 10
    assert CARD_LABELS[parse_card("10H")] == "10♥"
    assert len(set(CARD_IDS)) == 32 and all(parse_card(c) == i for i, c in enumerate(CARD_IDS))
    assert parse_card("th") == parse_card("10H") and parse_card("qs") == 10
    assert (SUITS, RANKS) == ("CSHD", ("A", "K", "Q", "J", "10", "9", "8", "7"))
    assert parse_card("JH") < parse_card("10H")  # the lower index is the higher card: 10 is below J


def test_action_ids_round_trip_and_bad_ids_are_refused():
    assert all(parse_action(a.id) == a and a.code == a.card for a in ACTIONS)
    assert ACTIONS[10].id == "play:QS"
    state = G.new_deal(4, 1)
    for bad in ("play:ZZ", "play:", "QS", "", "play:1S", "draw"):
        reason(state, bad)


# ----- dealing, rotation, options -----

def test_deal_gives_eight_each_and_the_seat_left_of_the_dealer_leads():
    state = G.new_deal(4, 5)
    assert [len(h) for h in state.hands] == [8] * 4
    assert sorted(c for h in state.hands for c in h) == list(range(32))
    assert state.dealer == 3 and state.to_move == state.leader == 0


def test_dealer_rotates_and_a_match_has_its_number_of_deals():
    state = G.new_match(4, 11, {"deals": 5})
    rng = random.Random(3)
    dealers, leaders = [state.dealer], [state.to_move]
    while not G.is_over(state):
        deal = state.deal
        legal = G.legal_actions(state)
        state = G.apply(state, legal[rng.randrange(len(legal))])
        if not G.is_over(state) and state.deal != deal:
            dealers.append(state.dealer)
            leaders.append(state.to_move)
    assert dealers == [3, 0, 1, 2, 3] and leaders == [0, 1, 2, 3, 0]
    assert len(state.results) == 5
    totals = [sum(r.points[s] for r in state.results) for s in range(4)]
    assert list(state.scores) == totals == G.scores(state) and sum(totals) == 0
    assert G.winners(state) == [s for s in range(4) if totals[s] == max(totals)]


def test_score_limit_ends_the_match_early():
    state = G.new_match(4, 2, {"deals": 50, "score_limit": 3})
    rng = random.Random(1)
    while not G.is_over(state):
        legal = G.legal_actions(state)
        state = G.apply(state, legal[rng.randrange(len(legal))])
    assert max(map(abs, state.scores)) >= 3
    assert all(max(map(abs, r.scores)) < 3 for r in state.results[:-1])
    assert len(state.results) < 50


def test_options_are_checked():
    for bad in ({"deals": 0}, {"forced_queen": "yes"}, {"trumps": True}, {"score_limit": -1}):
        with pytest.raises(OptionError):
            G.new_match(4, 1, bad)
    with pytest.raises(OptionError):
        G.new_deal(3, 1)


# ----- following suit and the trick -----

def test_must_follow_suit_and_the_reason_names_the_cards():
    state = dealt(["AH 9C 8C 7C AD KD QD JD", "9H 7H AC KC QC JC 10C 10D",
                   "KH QH JH 10H 8H AS KS QS", "JS 10S 9S 8S 7S 9D 8D 7D"])
    state = play(state, "AH")
    assert [a.id for a in G.legal_actions(state)] == ["play:9H", "play:7H"]
    assert reason(state, "play:AC") == "you must follow ♥: you hold 9H, 7H".replace("9H", "9♥").replace("7H", "7♥")
    assert reason(state, "play:AS") == "you do not hold A♠"


def test_a_player_who_cannot_follow_may_play_anything_and_shows_a_void():
    state = dealt(["AH 9C 8C 7C AD KD QD JD", "9H 7H AC KC QC JC 10C 10D",
                   "KH QH JH 10H 8H AS KS QS", "JS 10S 9S 8S 7S 9D 8D 7D"])
    state = play(state, "AH", "7H", "8H")
    assert len(G.legal_actions(state)) == 8  # seat 3 holds no heart
    state = play(state, "JS")
    assert state.voids[3] == 1 << 2 and G.observe(state, 0)["voids"] == ["", "", "", "H"]


def test_highest_card_of_the_led_suit_wins_and_leads_next():
    state = dealt(["10H 9C 8C 7C AD KD QD JD", "9H 7H AC KC QC JC 10C 10D",
                   "KH QH JH AH 8H JS KS QS", "AS 10S 9S 8S 7S 9D 8D 7D"])
    state = play(state, "10H", "9H", "JH", "AS")  # J beats 10; the off-suit ace counts for nothing
    assert state.tricks == (0, 0, 1, 0) and state.to_move == state.leader == 2
    assert state.taken[0][0] == 2 and state.trick == ()
    state = play(state, "AH", "7S", "8C", "7H")
    assert state.tricks == (0, 0, 2, 0) and state.to_move == 2


def test_leading_is_free():
    state = dealt(BY_SUIT)
    assert len(G.legal_actions(state)) == 8


# ----- forced_queen -----

HOLDS_QUEEN = ["AH 9C 8C 7C AD KD QD JD", "9H 7H AC KC QC JC 10C 10D",
               "KH QH JH 10H 8H 9D 8D 7D", "JS 10S 9S 8S 7S AS KS QS"]


def test_forced_queen_makes_a_player_without_the_led_suit_play_the_queen():
    off = dealt(HOLDS_QUEEN)
    on = dealt(HOLDS_QUEEN, Rules(forced_queen=True))
    off, on = play(off, "AH", "7H", "8H"), play(on, "AH", "7H", "8H")
    assert len(G.legal_actions(off)) == 8
    assert [a.id for a in G.legal_actions(on)] == ["play:QS"]
    assert reason(on, "play:AS") == "you cannot follow ♥ and hold the Q♠: with forced_queen you must play it"
    state = play(on, "QS")
    assert state.queen_by == 0


def test_forced_queen_does_not_apply_when_you_can_follow():
    on = dealt(["AS 9C 8C 7C AD KD QD JD", "9H 7H AC KC QC JC 10C 10D",
                "KH QH JH 10H 8H 9D 8D 7D", "JS 10S 9S 8S 7S AH KS QS"], Rules(forced_queen=True))
    on = play(on, "AS", "9H", "8H")
    assert [a.id for a in G.legal_actions(on)] == ["play:KS", "play:QS", "play:JS", "play:10S",
                                                   "play:9S", "play:8S", "play:7S"]


# ----- scoring (rule 3, in its order) -----

@pytest.mark.parametrize("tricks,queen,last,rule,points", [
    ((8, 0, 0, 0), 0, 0, ALL_TRICKS, [3, -1, -1, -1]),  # all eight, queen and last included
    ((0, 0, 8, 0), 2, 2, ALL_TRICKS, [-1, -1, 3, -1]),
    ((2, 3, 3, 0), 1, 1, QUEEN_AND_LAST, [1, -3, 1, 1]),
    ((0, 0, 0, 8 - 1), 3, 3, QUEEN_AND_LAST, [1, 1, 1, -3]),  # seven tricks: not all
    ((2, 2, 2, 2), 0, 3, SPLIT, [-1, 1, 1, -1]),
    ((4, 4, 0, 0), 1, 0, SPLIT, [-1, -1, 1, 1]),  # a seat with no trick at all still gets +1
    ((7, 1, 0, 0), 0, 1, SPLIT, [-1, -1, 1, 1]),
])
def test_every_scoring_case(tricks, queen, last, rule, points):
    assert deal_points(tricks, queen, last) == (rule, points)
    assert sum(points) == 0


def test_taking_every_trick_scores_plus_three_in_play():
    state = dealt(BY_SUIT)
    for rank in ("A", "K", "Q", "J", "10", "9", "8", "7"):  # seat 0 leads clubs and keeps the lead
        state = play(state, rank + "C")
        for _ in range(3):
            state = G.apply(state, G.legal_actions(state)[0])
    assert G.is_over(state)
    assert state.tricks == (8, 0, 0, 0) and state.queen_by == 0 and state.last_by == 0
    assert G.scores(state) == [3.0, -1.0, -1.0, -1.0] and G.winners(state) == [0]
    result = G.observe(state, 1)["last_deal"]
    assert result["rule"] == ALL_TRICKS
    assert result["explain"] == "Seat 0 took all 8 tricks: +3 to seat 0, −1 to each other player."
    assert result["hands"][1] == BY_SUIT[1].split()


def independent_score(taken) -> list[int]:
    """Rule 3 recomputed from the tricks as played, ranks compared by their place in 'AKQJ1098' order."""
    order = ["A", "K", "Q", "J", "10", "9", "8", "7"]
    winners = []
    for plays in taken:
        led = CARD_IDS[plays[0][1]][-1]
        best = min((order.index(CARD_IDS[c][:-1]), seat) for seat, c in plays if CARD_IDS[c][-1] == led)
        winners.append(best[1])
    queen = next(w for w, plays in zip(winners, taken) if any(CARD_IDS[c] == "QS" for _, c in plays))
    last = winners[-1]
    if winners.count(last) == 8:
        return [3 if s == last else -1 for s in range(4)]
    if queen == last:
        return [-3 if s == queen else 1 for s in range(4)]
    return [-1 if s in (queen, last) else 1 for s in range(4)]


def test_random_deals_score_as_the_rule_text_says():
    rng = random.Random(5)
    seen = Counter()
    for seed in range(400):
        table = Table.new(4, seed, Rules(), True)
        while table.to_move is not None:
            legal = table.legal()
            table.step(legal[rng.randrange(len(legal))])
        plays = [p for _, p in table.taken]
        assert table.deal_points() == independent_score(plays) == list(table.results[-1].points)
        assert sum(table.deal_points()) == 0
        seen[table.results[-1].rule] += 1
    assert seen[SPLIT] > 0 and seen[QUEEN_AND_LAST] > 0


# ----- views and hidden cards -----

def test_views_hold_no_other_hand_and_the_spectator_none():
    state = play(G.new_deal(4, 9), G.legal_actions(G.new_deal(4, 9))[0].id[5:])
    view = G.observe(state, 2)
    assert view["hand"] == [CARD_IDS[c] for c in state.hands[2]] and "hands" not in view
    assert G.observe(state, None)["hand"] is None
    assert len(G.observe(state, None, reveal=True)["hands"]) == 4
    assert view["trick"] == [{"seat": 0, "card": view["played"][0]}] and view["trick_number"] == 1
    assert view["legal_actions"] == [] and G.observe(state, 1)["legal_actions"]


def test_resample_keeps_sizes_and_voids():
    state = dealt(["AH 9C 8C 7C AD KD QD JD", "9H 7H AC KC QC JC 10C 10D",
                   "KH QH JH 10H 8H AS KS QS", "JS 10S 9S 8S 7S 9D 8D 7D"])
    state = play(state, "AH", "7H", "8H", "JS")  # seat 3 shows no heart
    rng = random.Random(2)
    for _ in range(300):
        other = G.resample_hidden(state, 0, rng)
        assert other.hands[0] == state.hands[0]
        assert [len(h) for h in other.hands] == [len(h) for h in state.hands]
        assert not any(c >> 3 == 2 for c in other.hands[3])
        assert canon(G.observe(other, 0)) == canon(G.observe(state, 0))


def test_redeal_is_uniform_over_the_deals_that_respect_voids():
    """Six cards, three seats of two; seat 0 holds no club, seat 1 no spade (so the rejection
    path often fails and the counting path runs too). Each agreeing deal should come up
    equally often."""
    pool = cards("AC KC AS KS AH KH")
    voids, no_queen = [1 << 0, 1 << 1, 0], [False] * 3
    agreeing = []
    for perm in set(itertools.permutations(pool)):
        hands = [sorted(perm[0:2]), sorted(perm[2:4]), sorted(perm[4:6])]
        if not any(c >> 3 == 0 for c in hands[0]) and not any(c >> 3 == 1 for c in hands[1]):
            agreeing.append(tuple(map(tuple, hands)))
    agreeing = sorted(set(agreeing))
    rng = random.Random(8)
    counts = Counter()
    draws = 200 * len(agreeing)
    for _ in range(draws):
        hands = [pool[0:2], pool[2:4], pool[4:6]]
        redeal(hands, [0, 1, 2], voids, no_queen, rng)
        counts[tuple(map(tuple, hands))] += 1
    assert set(counts) == set(agreeing)
    expected = draws / len(agreeing)
    sd = (expected * (1 - 1 / len(agreeing))) ** 0.5
    assert all(abs(counts[h] - expected) < 5 * sd for h in agreeing)


def test_redeal_counting_path_alone_respects_tight_voids():
    from engine.queen_of_spades.hidden import _banned, _counted
    rng = random.Random(4)
    pool = list(range(8, 24))  # spades and hearts
    banned = [_banned(1 << 1, False), _banned(1 << 2, False), _banned(0, True)]
    for _ in range(200):
        out = _counted(pool, [6, 6, 4], banned, rng)
        assert [len(h) for h in out] == [6, 6, 4] and sorted(sum(out, [])) == pool
        assert all(not b >> c & 1 for h, b in zip(out, banned) for c in h)


def test_json_round_trip_mid_deal_and_bad_states_are_refused():
    state = play(dealt(BY_SUIT), "AC", "AS", "AH")
    data = G.to_json(state)
    assert G.from_json(data) == state
    broken = dict(data, hands=[data["hands"][0], [], [], []])
    with pytest.raises(Exception) as err:
        G.from_json(broken)
    assert "32 cards" in str(err.value)
