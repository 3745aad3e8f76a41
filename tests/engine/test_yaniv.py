"""Yaniv rules (docs/rules.md, section 4), one test per rule and edge case."""
import itertools
import json
import random

import pytest

from engine import IllegalActionError, OptionError, StateError, get_game
from engine.yaniv import CARDS, CallYaniv, Discard, Rules, State, parse_action, parse_card
from engine.yaniv.cards import CARD_IDS, card_values
from engine.yaniv.groups import GroupError, arrange, groups, takeable
from engine.yaniv.game import Yaniv
from tests.engine.invariants import canon

G: Yaniv = get_game("yaniv")


def ids(*names: str) -> tuple[int, ...]:
    return tuple(parse_card(n).index for n in names)


def table(hands, top=("Kc",), stock=None, to_move=0, scores=None, out=None, known=None, options=None,
          single=True, below=None) -> State:
    """A state with the given hands and top group; the other cards go to the stock
    (or to ``stock`` / ``below`` when given, the rest then below / in the stock)."""
    rules = Rules(**G.resolve_options(options))
    hands = tuple(tuple(sorted(ids(*h))) for h in hands)
    top = ids(*top)
    used = {c for h in hands for c in h} | set(top)
    rest = [c for c in range(54) if c not in used]
    if stock is not None:
        stock = ids(*stock)
        below = tuple(c for c in rest if c not in stock)
    elif below is not None:
        below = ids(*below)
        stock = tuple(c for c in rest if c not in below)
    else:
        stock, below = tuple(rest), ()
    n = len(hands)
    return State(rules, 99, n, single, 0, hands, tuple(tuple(sorted(ids(*k))) for k in (known or [()] * n)),
                 stock, below, top, None, to_move, 0, 0, tuple(scores or (0,) * n),
                 tuple(out or (False,) * n))


def act(state, action_id):
    return G.apply(state, G.parse_action(action_id))


def reason(state, action_id):
    with pytest.raises(IllegalActionError) as err:
        act(state, action_id)
    return err.value.reason


# ----- cards -----

def test_54_cards_with_two_jokers_and_their_values():
    assert len(set(CARD_IDS)) == 54
    assert [c.id for c in CARDS if c.is_joker] == ["jk1", "jk2"]
    assert all(parse_card(c.id) == c for c in CARDS)
    ten, rank = card_values("ten"), card_values("rank")
    assert [ten[i] for i in ids("Ah", "7s", "10d", "Jc", "Qh", "Ks", "jk1")] == [1, 7, 10, 10, 10, 10, 0]
    assert [rank[i] for i in ids("Jc", "Qh", "Ks", "jk2")] == [11, 12, 13, 0]
    assert sum(ten) == 4 * (55 + 30) and sum(rank) == 4 * 91
    for bad in ("1h", "Th", "11s", "jk3", "7", "h7", "", "7S"):
        with pytest.raises(ValueError):
            parse_card(bad)


# ----- groups -----

@pytest.mark.parametrize("cards,expected", [
    (("7s",), ("7s",)),
    (("jk2",), ("jk2",)),
    (("5h", "5d"), ("5d", "5h")),
    (("5s", "5h", "5c", "5d"), ("5c", "5d", "5h", "5s")),
    (("9s", "7s", "8s"), ("7s", "8s", "9s")),
    (("As", "2s", "3s"), ("As", "2s", "3s")),
    (("Js", "Ks", "Qs"), ("Js", "Qs", "Ks")),
    (("7s", "9s", "jk1"), ("7s", "jk1", "9s")),
    (("5h", "8h", "jk2", "jk1"), ("5h", "jk1", "jk2", "8h")),
    (("5h", "jk1", "7h", "9h", "jk2"), ("5h", "jk1", "7h", "jk2", "9h")),
])
def test_valid_groups_in_canonical_order(cards, expected):
    assert arrange(ids(*cards)) == ids(*expected)


@pytest.mark.parametrize("cards,why", [
    (("jk1", "jk2"), "jokers alone are singles"),
    (("5h", "5d", "jk1"), "do not join a set"),
    (("5h", "jk1"), "do not join a set"),
    (("7s", "8s"), "at least three"),
    (("7s", "8s", "9h"), "one suit"),
    (("Qs", "Ks", "As"), "missing rank"),  # Ace is low only: Q-K-A is no run
    (("7s", "8s", "jk1"), "inside a run"),  # a joker may not extend a run at its end
    (("jk1", "2s", "3s"), "inside a run"),
    (("7s", "10s", "jk1"), "2 missing ranks"),
    (("7s", "8s", "10s"), "missing rank"),
    (("5h", "5d", "6h"), "one rank only"),
    (("5h", "5h"), "twice"),
])
def test_illegal_groups_say_why(cards, why):
    with pytest.raises(GroupError, match=why):
        arrange(ids(*cards))


def test_groups_of_a_hand_are_exactly_the_valid_subsets():
    rng = random.Random(5)
    deck = list(range(54))
    hands = [ids("5s", "6s", "7s", "8s", "jk1"), ids("5s", "7s", "9s", "jk1", "jk2"),
             ids("5c", "5d", "5h", "5s", "jk1")]
    for _ in range(300):
        rng.shuffle(deck)
        hands.append(tuple(sorted(deck[:rng.choice((5, 7))])))
    for hand in hands:
        brute = set()
        for size in range(1, len(hand) + 1):
            for subset in itertools.combinations(hand, size):
                try:
                    brute.add(arrange(subset))
                except GroupError:
                    pass
        listed = groups(hand)
        assert len(listed) == len(set(listed)) and set(listed) == brute


def test_takeable_cards_of_a_set_are_all_of_a_run_only_the_ends():
    assert takeable(ids("5d", "5h", "5s")) == ids("5d", "5h", "5s")
    assert takeable(ids("7s", "8s", "9s", "10s")) == ids("7s", "10s")
    assert takeable(ids("7s", "jk1", "9s")) == ids("7s", "9s")
    assert takeable(ids("jk1")) == ids("jk1")


# ----- actions and ids -----

def test_action_ids_parse_back_and_drop_order_does_not_matter():
    assert parse_action("yaniv") == CallYaniv()
    a = parse_action("drop:5h,5d|take:stock")
    assert a == Discard((CARDS[ids("5d")[0]], CARDS[ids("5h")[0]]), None)
    assert a.id == "drop:5d,5h|take:stock"
    b = parse_action("drop:9s,jk1,7s|take:10h")
    assert b.id == "drop:7s,jk1,9s|take:10h" and b.take == parse_card("10h")
    for bad in ("yanivv", "drop:5h|take:", "drop:5x|take:stock", "drop:|take:stock", "drop:5h,5d",
                "drop:5h;5d|take:stock", "take:stock", "drop:5h|take:stockpile", "", "Yaniv"):
        with pytest.raises(IllegalActionError):
            parse_action(bad)


# ----- turns -----

def test_yaniv_at_the_limit_and_not_above():
    assert "yaniv" in G.legal_ids(table([("As", "2s", "4h"), ("Kc", "Kd")], top=("9c",)))
    state = table([("As", "2s", "5h"), ("Kc", "Kd")], top=("9c",))
    assert "yaniv" not in G.legal_ids(state)
    assert "7 or less" in reason(state, "yaniv")
    assert "yaniv" in G.legal_ids(table([("As", "2s", "5h"), ("Kc",)], options={"yaniv_limit": 8}))


def test_draw_from_the_stock_or_the_previous_group_only():
    state = table([("2c", "9d"), ("Kc", "Kd")], top=("5d", "5h", "5s"), stock=("3h", "4h"))
    legal = set(G.legal_ids(state))
    assert {"drop:9d|take:stock", "drop:9d|take:5d", "drop:9d|take:5h", "drop:9d|take:5s"} <= legal
    after = act(state, "drop:9d|take:5h")
    assert after.hands[0] == ids("2c", "5h") and after.top == ids("9d") and after.top_by == 0
    assert after.below[-2:] == ids("5d", "5s") and after.known[0] == ids("5h") and after.to_move == 1
    # the next player may take only from the group just thrown (9d), not from the old one
    assert "take" in reason(after, "drop:Kc|take:5d")
    drawn = act(state, "drop:9d|take:stock")
    assert drawn.hands[0] == ids("2c", "4h") and drawn.stock == ids("3h")


def test_only_the_ends_of_a_run_may_be_taken():
    state = table([("2c", "9d"), ("Kc", "Kd")], top=("6s", "jk1", "8s", "9s"))
    legal = set(G.legal_ids(state))
    assert "drop:2c|take:6s" in legal and "drop:2c|take:9s" in legal
    assert "drop:2c|take:jk1" not in legal and "drop:2c|take:8s" not in legal
    assert "first or last" in reason(state, "drop:2c|take:8s")


def test_runs_with_jokers_are_legal_discards_and_bad_runs_are_refused():
    state = table([("7s", "9s", "jk1", "Kd", "Qd"), ("Kc",)], top=("2c",))
    legal = set(G.legal_ids(state))
    assert "drop:7s,jk1,9s|take:stock" in legal
    assert "drop:Qd,Kd|take:stock" not in legal  # two cards of a suit are no run
    after = act(state, "drop:9s,7s,jk1|take:2c")  # listed in any order
    assert after.top == ids("7s", "jk1", "9s") and after.hands[0] == ids("2c", "Qd", "Kd")
    assert "at least three" in reason(state, "drop:Qd,Kd|take:stock")
    assert "do not hold" in reason(state, "drop:8s|take:stock")
    run_state = table([("Js", "Qs", "Ks", "As"), ("Kc",)], top=("2c",))
    assert "drop:Js,Qs,Ks|take:stock" in G.legal_ids(run_state)
    assert "missing" in reason(run_state, "drop:Qs,Ks,As|take:stock")  # Ace is low only


def test_a_joker_alone_is_a_single():
    state = table([("jk1", "jk2", "5c"), ("Kc",)], top=("2c",))
    legal = set(G.legal_ids(state))
    assert "drop:jk1|take:stock" in legal and "drop:jk2|take:2c" in legal
    assert not any(i.startswith("drop:jk1,jk2") for i in legal)
    assert "singles" in reason(state, "drop:jk1,jk2|take:stock")


def test_reshuffle_keeps_the_last_group_and_conserves_cards():
    state = table([("2c", "9d"), ("Kc", "Kd")], top=("5d", "5h"), stock=("3h",))
    after = act(state, "drop:9d|take:stock")
    assert after.top == ids("9d") and after.below == () and after.reshuffles == 1
    assert sorted(after.stock) == sorted(c for c in range(54) if c not in ids("2c", "3h", "9d", "Kc", "Kd"))
    assert set(ids("5d", "5h")) <= set(after.stock)
    assert act(state, "drop:9d|take:stock") == after  # seeded: the same shuffle every time
    placed = sorted(c for h in after.hands for c in h) + sorted(after.stock + after.top)
    assert sorted(placed) == list(range(54))


def test_the_stock_is_never_empty_at_a_turn():
    rng, reshuffles = random.Random(2), 0
    for seed in range(10):
        state = G.new_deal(5, seed, {"hand_size": 7})
        for _ in range(100):
            assert state.stock
            legal = [a for a in G.legal_actions(state) if a != CallYaniv()]
            state = G.apply(state, legal[rng.randrange(len(legal))])
        reshuffles += state.reshuffles
    assert reshuffles >= 10


# ----- scoring -----

def test_a_strictly_lowest_caller_scores_zero():
    state = table([("As", "2s"), ("Kc", "3d"), ("4c",)], top=("9c",), single=False)
    after = act(state, "yaniv")
    r = after.results[-1]
    assert (r.assaf, r.winners, r.added) == (False, (0,), (0, 13, 4))
    assert after.scores == (0, 13, 4) and after.deal == 1 and after.to_move == 0


def test_assaf_when_another_hand_is_lower():
    state = table([("As", "5s"), ("Kc", "3d"), ("4c",)], top=("9c",), single=False)
    r = act(state, "yaniv").results[-1]
    assert (r.assaf, r.winners, r.added) == (True, (2,), (36, 13, 0))
    view = G.observe(act(state, "yaniv"), 1)["last_result"]
    assert view["explain"].startswith("Assaf!") and view["hands"][2] == ["4c"]


def test_assaf_ties_count_against_the_caller_and_all_lowest_score_zero():
    state = table([("As", "4s"), ("Ac", "4d"), ("2c", "3c"), ("Kh",)], top=("9c",), single=False)
    after = act(state, "yaniv")
    r = after.results[-1]
    assert (r.assaf, r.winners, r.added) == (True, (1, 2), (35, 0, 0, 10))
    assert after.to_move == 1  # the next deal starts with the first lowest player after the caller
    assert "tie" in G.observe(after, 0)["last_result"]["explain"]
    penalty = act(table([("As", "4s"), ("Ac", "4d")], options={"assaf_penalty": 25}), "yaniv")
    assert penalty.results[-1].added == (30, 0)


def test_halving_at_multiples_of_fifty():
    state = table([("As",), ("5c", "5d"), ("Kc", "Qc", "Jc", "10c"), ("Kd",)], top=("9c",),
                  scores=(50, 40, 60, 45), single=False)
    r = act(state, "yaniv").results[-1]
    assert r.added == (0, 10, 40, 10) and r.scores == (50, 0, 100 - 50, 55)
    assert r.halved == (1, 2)  # 50 with nothing added stays 50
    off = table([("As",), ("5c", "5d")], scores=(0, 40), options={"halving": False}, single=False)
    assert act(off, "yaniv").scores == (0, 50)


def test_elimination_above_the_limit_and_the_last_player_in_wins():
    state = table([("As",), ("5c", "5d"), ("Kc",)], top=("9c",), scores=(10, 191, 190), single=False,
                  options={"halving": False})
    after = act(state, "yaniv")
    assert after.results[-1].eliminated == (1,) and after.out == (False, True, False)
    assert after.scores == (10, 201, 200) and not G.is_over(after)
    assert after.hands[1] == () and len(after.hands[0]) == len(after.hands[2]) == 5
    assert after.to_move == 0 and G.current_player(act_any(after)) == 2  # seat 1 is skipped
    last = table([("As",), ("Kc",), ("Kd",)], out=(False, True, False), scores=(0, 210, 195), single=False)
    final = act(last, "yaniv")
    assert G.is_over(final) and G.winners(final) == [0] and final.out == (False, True, True)
    assert G.scores(final) == [0.0, -210.0, -205.0]


def act_any(state):
    return G.apply(state, next(a for a in G.legal_actions(state) if a != CallYaniv()))


def test_single_deal_scores_and_face_values_option():
    state = table([("As",), ("Kc", "Qd")], options={"face_values": "rank"})
    after = act(state, "yaniv")
    assert G.is_over(after) and G.winners(after) == [0] and G.scores(after) == [0.0, -25.0]


def test_first_player_from_the_seed_then_the_winner():
    firsts = {G.new_match(4, seed).to_move for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert G.new_match(4, 12).to_move == G.new_match(4, 12).to_move
    state = table([("Kc",), ("As",), ("Kd",)], top=("9c",), to_move=1, single=False)
    assert act(state, "yaniv").to_move == 1


def test_options_are_checked_and_hand_size_deals():
    state = G.new_match(3, 1, {"hand_size": 7})
    assert [len(h) for h in state.hands] == [7, 7, 7] and len(state.stock) == 54 - 21 - 1
    for bad in ({"hand_size": 0}, {"face_values": "high"}, {"yaniv_limit": -1}, {"bonus": 1},
                {"halving": "yes"}):
        with pytest.raises(OptionError):
            G.new_match(2, 1, bad)
    with pytest.raises(OptionError):
        G.new_match(6, 1)


# ----- views and hidden information -----

def test_observe_shows_own_hand_counts_and_known_cards_only():
    state = table([("2c", "9d"), ("Kc", "Kd", "4h")], top=("5d", "5h"), known=[(), ("Kd",)])
    view = G.observe(state, 0)
    assert view["hand"] == ["2c", "9d"] and view["hand_value"] == 11
    assert view["hand_counts"] == [2, 3] and view["known"] == [[], ["Kd"]]
    assert view["discard"]["cards"] == ["5d", "5h"] and view["discard"]["takeable"] == ["5d", "5h"]
    assert view["stock"] == len(state.stock) and "hands" not in view
    text = json.dumps(view)
    assert "Kc" not in text and "4h" not in text
    assert G.observe(state, 1)["legal_actions"] == [] and view["legal_actions"]
    full = G.observe(state, None, reveal=True)
    assert full["hands"] == [["2c", "9d"], ["4h", "Kc", "Kd"]] and full["hand"] is None


def test_resample_hidden_keeps_own_hand_and_known_cards():
    state = table([("2c", "9d"), ("Kc", "Kd", "4h")], top=("5d", "5h"), known=[(), ("Kd",)])
    seen = set()
    for k in range(30):
        other = G.resample_hidden(state, 0, random.Random(k))
        assert other.hands[0] == state.hands[0] and parse_card("Kd").index in other.hands[1]
        assert canon(G.observe(other, 0)) == canon(G.observe(state, 0))
        seen.add(other.hands[1])
    assert len(seen) > 20


def test_legal_actions_agree_with_the_reasons_given():
    rng = random.Random(3)
    for seed in range(20):
        state = G.new_deal(3, seed)
        for _ in range(25):
            if G.is_over(state):
                break
            legal = G.legal_actions(state)
            hand = state.hands[state.to_move]
            candidates = [Discard.of([CARDS[c] for c in subset], take)
                          for size in (1, 2, 3) for subset in itertools.combinations(hand + ids("jk1"), size)
                          for take in [None, *[CARDS[c] for c in state.top], CARDS[0]]]
            candidates.append(CallYaniv())
            for action in candidates:
                assert (action in legal) == (G.illegal_reason(state, action) is None), action.id
            state = G.apply(state, legal[rng.randrange(len(legal))])


def test_apply_does_not_mutate_and_json_round_trips():
    state = G.new_match(3, 8)
    before = canon(G.to_json(state))
    G.apply(state, G.legal_actions(state)[-1])
    assert canon(G.to_json(state)) == before
    assert G.from_json(json.loads(before)) == state
    broken = json.loads(before)
    broken["stock"] = broken["stock"][1:]
    with pytest.raises(StateError):
        G.from_json(broken)
