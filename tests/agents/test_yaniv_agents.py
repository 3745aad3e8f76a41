"""Yaniv agents: the write-up's heuristics exactly, Harel's state/actions/learning, the
shipped Harel, Sage, Sibyl's worlds, Pythia's belief, and all of them playing through the catalog."""
import itertools
import math
import random

import pytest

from agents import tournament
from agents.base import Episode
from agents.catalog import agent_specs, levels, make_agent
from agents.yaniv import trained_harel, trained_packed
from agents.yaniv.common import YANIV, seat_of, seat_of_state, to_action
from agents.yaniv.harel import Harel, HarelConfig, action_codes, decision_of, state_key
from agents.yaniv.heuristics import GreedyRandom, SemiRandom
from agents.yaniv.qtable import decode_key, encode_key, load_packed, save_packed
from agents.yaniv.belief import above, kept_above, lowest_chance
from agents.yaniv.lookahead import Sibyl, Worlds
from agents.yaniv.pythia import Pythia
from agents.yaniv.sage import Outlook, Sage, after_next_throw, call_chance, best_group_value, with_each_card
from agents.saved_files import load_saved
from engine import get_game
from engine.yaniv import parse_card
from engine.yaniv.cards import card_values
from engine.yaniv.groups import groups
from tests.engine.test_yaniv import ids, table

G = get_game("yaniv")


def states(players=(2, 3, 4), seeds=range(6), turns=30):
    """States met in play (random moves), the player to move's turn each."""
    rng = random.Random(1)
    for n in players:
        for seed in seeds:
            state = G.new_deal(n, seed)
            for _ in range(turns):
                if G.is_over(state):
                    break
                yield state
                legal = [a for a in G.legal_actions(state) if a.id != "yaniv"]
                state = G.apply(state, legal[rng.randrange(len(legal))])


def test_views_and_states_give_the_same_inputs():
    for state in states():
        view = G.observe(state, state.to_move)
        assert seat_of(view) == seat_of_state(state)
        assert Outlook.of(view) == Outlook.of_state(state)
        assert Worlds.of(view) == Worlds.of_state(state)


def test_sibyls_worlds_keep_what_the_seat_sees_and_deal_the_rest_again():
    rng, redealt = random.Random(3), 0
    for state in states(seeds=range(3)):
        seat, worlds = state.to_move, Worlds.of_state(state)
        for _ in range(3):
            world = worlds.deal(rng).freeze()
            assert sorted([*(c for h in world.hands for c in h), *world.stock, *world.below, *world.top]) == list(range(54))
            seen, again = G.observe(state, seat), G.observe(world, seat)
            for key in ("hand", "hand_counts", "known", "discard", "stock", "turn", "to_move", "legal_actions"):
                assert again[key] == seen[key], key
            assert all(set(state.known[s]) <= set(world.hands[s]) for s in range(state.players))
            redealt += world.hands != state.hands
    assert redealt > 100  # the others' unknown cards are dealt again, not copied


def test_the_fast_best_group_is_the_best_of_all_groups():
    rng = random.Random(5)
    for face in ("ten", "rank"):
        values = card_values(face)
        for size in range(0, 7):
            for _ in range(400):
                hand = tuple(sorted(rng.sample(range(54), size)))
                if hand:
                    assert best_group_value(hand, values) == max(sum(values[c] for c in g) for g in groups(hand))
                row = with_each_card(hand, values)
                assert all(row[x] == after_next_throw(tuple(sorted(hand + (x,))), values)
                           for x in range(54) if x not in hand)


def test_pythias_chances_count_every_draw_of_the_unseen_cards():
    rng = random.Random(6)
    for _ in range(60):
        pool = tuple(sorted(rng.choices(range(11), k=rng.randrange(4, 9))))
        u, room, cap = rng.randrange(0, 4), rng.randrange(-2, 12), rng.randrange(0, 11)
        draws = list(itertools.combinations(pool, u))
        assert above(pool, u, room) == pytest.approx(sum(sum(d) > room for d in draws) / len(draws))
        low = [v for v in pool if v <= cap]
        if u and len(low) >= u - 1:  # u - 1 kept cards no higher than cap, one drawn from the whole pool
            kept = [sum(d) + v > room for v in pool for d in itertools.combinations(low, u - 1)]
            assert kept_above(pool, cap, u, room) == pytest.approx(sum(kept) / len(kept))


def test_pythias_call_chance_is_calibrated_against_sage():
    """Where Sage may call in deals of Sage against Sage, Pythia's chance that the caller's total is
    strictly the lowest matches how often it is (and Sage's uniform chance is further off)."""
    sage, rng, said, uniform, was = Sage(), random.Random(7), [], [], []
    for i in range(600):
        state = G.new_deal(2, 7_000 + i)
        while state.to_move is not None:
            seat = state.to_move
            if state.rules.total(state.hands[seat]) <= state.rules.yaniv_limit:
                said.append(lowest_chance(Worlds.of_state(state)))
                uniform.append(call_chance(Outlook.of_state(state), rng, 200))
                was.append(state.rules.total(state.hands[1 - seat]) > state.rules.total(state.hands[seat]))
            state = G.apply(state, to_action(sage.choose(Outlook.of_state(state), rng)))
    rate, pythia, sages = sum(was) / len(was), sum(said) / len(said), sum(uniform) / len(uniform)
    assert len(said) > 500
    assert abs(pythia - rate) < 0.03 < abs(sages - rate), (pythia, sages, rate)


@pytest.mark.parametrize("agent", [SemiRandom(), GreedyRandom(0.5), Harel(config=HarelConfig(epsilon=0.3)), Sage(30),
                                   Sibyl(worlds=2), Pythia()])
def test_agents_only_make_legal_moves(agent):
    rng = random.Random(4)
    for state in states(seeds=range(3)):
        legal = G.legal_actions(state)
        assert agent.act(G.observe(state, state.to_move), legal, rng) in legal


def test_semirandom_throws_a_whole_rank_and_takes_a_lower_pile_card():
    state = table([("5c", "5h", "9d", "Kc"), ("2c",)], top=("7s",))
    rng = random.Random(0)
    seen = set()
    for _ in range(60):
        drop, take = SemiRandom().choose(seat_of_state(state), rng)
        seen.add(drop)
        value = state.rules.values[drop[0]]
        assert take == (parse_card("7s").index if 7 < value else None)
    assert seen == {ids("5c", "5h"), ids("9d"), ids("Kc")}
    assert SemiRandom().choose(seat_of_state(table([("As", "5h"), ("2c",)])), rng) is YANIV


def test_greedyrandom_prefers_most_cards_then_highest_value():
    seat = seat_of_state(table([("5c", "5h", "9d", "Kc", "jk1"), ("2c",)], top=("7s", "8s", "9s")))
    never, always = GreedyRandom(0.0), GreedyRandom(1.0)
    rng = random.Random(0)
    assert never.choose(seat, rng) == (ids("5c", "5h"), None)
    assert always.choose(seat, rng) == (ids("5c", "5h"), parse_card("7s").index)  # the run's lower end
    seat = seat_of_state(table([("3c", "9d", "Kc", "Qh"), ("2c",)]))
    assert never.choose(seat, rng)[0] == ids("Kc")  # 10 each for J/Q/K: ties go to the higher rank
    takes = sum(GreedyRandom(0.3).choose(seat, rng)[1] is not None for _ in range(2000))
    assert abs(takes / 2000 - 0.3) < 0.04
    assert GreedyRandom().choose(seat_of_state(table([("As", "jk1"), ("2c",)])), rng) is YANIV


def test_harel_state_and_actions():
    seat = seat_of_state(table([("jk1", "3c", "Kd"), ("2c",)], top=("5h", "5d")))
    assert state_key(seat) == "0003K5"
    assert action_codes(seat) == ["p0", "s0", "p3", "s3", "pK", "sK"]
    assert decision_of("pK", seat) == (ids("Kd"), parse_card("5d").index)
    assert decision_of("s0", seat) == (ids("jk1"), None)
    low = seat_of_state(table([("As", "2c"), ("Kc",)]))
    assert action_codes(low)[0] == "Y" and decision_of("Y", low) is YANIV


def test_harel_learns_q_steps_from_an_episode():
    game_state = table([("5c", "9d", "Kc"), ("2c", "3c")], top=("7s",), single=True)
    first = G.observe(game_state, 0)
    after = G.apply(G.apply(game_state, G.parse_action("drop:Kc|take:stock")), G.parse_action("drop:2c|take:stock"))
    second = G.observe(after, 0)
    harel = Harel({}, HarelConfig(alpha=0.5, gamma=0.9))
    s1, s2 = state_key(seat_of(first)), state_key(seat_of(second))
    harel.table[s2 + ":p9"] = 0.4
    episode = Episode(seat=0, steps=[(first, "drop:Kc|take:stock"), (second, "drop:9d|take:2c")], won=False)
    updates = harel.learn(episode)
    assert [(u.key, u.op, u.rate) for u in updates] == [(s1 + ":sK", "blend", 0.5), (s2 + ":p9", "blend", 0.5)]
    assert updates[0].target == pytest.approx(0.9 * 0.4) and updates[1].target == -1.0
    assert harel.table[s1 + ":sK"] == pytest.approx(0.18) and harel.table[s2 + ":p9"] == pytest.approx(-0.3)


def test_packed_tables_round_trip(tmp_path):
    table_ = {"0003K5:pK": 0.25, "0003K5:Y": -0.5, "A2345K:s0": 0.999, "KKKKQJ:sQ": -1.0}
    for key in table_:
        assert decode_key(encode_key(key), 6) == key
    path = save_packed(tmp_path / "t.npz", table_)
    packed = load_packed(path)
    assert len(packed) == 4 and packed.get("000000:Y") == 0.0
    assert all(abs(packed.get(k) - v) < 1e-4 for k, v in table_.items())
    packed["0003K5:pK"] = 0.5
    packed["00000A:Y"] = 0.1
    assert packed.get("0003K5:pK") == 0.5 and len(packed) == 5
    assert set(packed.to_dict()) == set(table_) | {"00000A:Y"}
    asked = ["0003K5:pK", "0003K5:Y", "00000A:Y", "000000:Y", "KKKKQJ:sQ", "KKKKKK:sK", "A2345K:s0"]
    assert packed.get_many(asked) == [packed.get(k, None) for k in asked]  # one search, the same answers
    assert packed.get_many([]) == []


def test_the_shipped_harel_loads_and_round_trips(tmp_path):
    meta = load_saved("yaniv", "harel")["meta"]
    packed = trained_packed()
    assert meta["table"]["entries"] == len(packed) > 100_000
    assert meta["games"] == 400_000 and meta["command"].startswith("parlour train yaniv harel")
    sample = {decode_key(k, packed.slots): v for k, v in zip(packed.keys[::997].tolist(), packed.values[::997].tolist())}
    again = load_packed(save_packed(tmp_path / "again.npz", sample))
    assert all(again.get(k) == pytest.approx(v, abs=1e-4) for k, v in sample.items())


def decide(agent, state, rng):
    """The agent's decision for the player to move, from that player's inputs."""
    if isinstance(agent, (Sibyl, Pythia)):
        return agent.choose(Worlds.of_state(state), Outlook.of_state(state), rng)
    return agent.choose(Outlook.of_state(state) if isinstance(agent, Sage) else seat_of_state(state), rng)


def head_to_head(a, b, deals, seed):
    """a's share of wins over ``deals`` two-player deals, seats alternating; and its standard error."""
    rng, wins = random.Random(seed), 0.0
    for i in range(deals):
        state = G.new_deal(2, seed * 100_000 + i)
        seats = (a, b) if i % 2 == 0 else (b, a)
        while state.to_move is not None:
            state = G.apply(state, to_action(decide(seats[state.to_move], state, rng)))
        won = state.results[-1].winners
        wins += 1 / len(won) if i % 2 in won else 0.0
    share = wins / deals
    return share, math.sqrt(share * (1 - share) / deals)


@pytest.mark.parametrize("opponent", [SemiRandom(), GreedyRandom()])
def test_the_shipped_harel_beats_both_heuristics(opponent):
    share, se = head_to_head(trained_harel(), opponent, 2000, seed=11)
    assert share - 3 * se > 0.5, (share, se)


def test_sage_beats_harel():
    share, se = head_to_head(Sage(), trained_harel(), 200, seed=12)
    assert share - 3 * se > 0.5, (share, se)


def test_pythia_beats_harel_clearly():
    share, se = head_to_head(Pythia(), trained_harel(), 300, seed=14)
    assert share - 3 * se > 0.6, (share, se)


def test_sibyl_beats_semirandom():
    share, se = head_to_head(Sibyl(worlds=8), SemiRandom(), 60, seed=13)
    assert share - 3 * se > 0.5, (share, se)


def test_every_level_plays_through_the_catalog_and_the_tournament():
    ids_ = [s.id for s in agent_specs("yaniv")]
    assert set(levels("yaniv")) <= set(ids_)
    assert isinstance(make_agent("yaniv", "harel-live", {}), Harel)
    result = tournament.run("yaniv", ["sage", "harel", "greedyrandom"], games=6, seed=3)
    assert sum(s.games for s in result.stats) == 18
    match = tournament.run("yaniv", ["semirandom", "greedyrandom"], games=1, seed=3, whole_match=True)
    assert match.stats[0].games == 1

