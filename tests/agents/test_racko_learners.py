"""Rack-O learners: Diablo's sequences and features, Baltar's states and update, the live
Baltar, the saved files, a tiny JAX training run, and the shipped agents' strength."""
import json
import random
from argparse import Namespace

import numpy as np
import pytest

from agents.base import Episode
from agents.catalog import make_agent
from agents.racko import arena
from agents.racko.shipped import baltar_single, baltar_tables, diablo_nets
from agents.racko.baltar import (
    GAMMA, REWARD, BaltarDecider, BaltarLive, Learner, QTables, live_values, load_tables, save_tables, state_bits,
)
from agents.racko.common import usable_sequence_length
from agents.racko.diablo import DiabloDecider, candidate_slots
from agents.racko.features import SMALL_BATCH, FEATURES, expand, feature_matrix, maximal_sequences, points, unseen_prefix
from agents.racko.lookahead import Lookahead
from agents.racko.network import Network
from agents.saved_files import load_saved
from engine import get_game, play_out

G = get_game("racko")


# ----- maximal usable sequences -----

def usable(rack, idx, max_card):
    r = len(rack)
    cards = [rack[i] for i in idx]
    ok = all(c - 1 >= i and max_card - c >= r - 1 - i for c, i in zip(cards, idx))
    return ok and all(cards[j + 1] - cards[j] >= idx[j + 1] - idx[j] for j in range(len(idx) - 1))


def brute_maximal(rack, max_card):
    r = len(rack)
    sets = [frozenset(i for i in range(r) if m >> i & 1) for m in range(1 << r)]
    ok = [s for s in sets if usable(rack, sorted(s), max_card)]
    return sorted(sorted(s) for s in ok if not any(s < t for t in ok))


@pytest.mark.parametrize("rack,max_card,expected", [
    ([1, 2, 3, 4, 5], 20, [[0, 1, 2, 3, 4]]),
    ([5, 4, 3, 2, 1], 20, [[0], [1], [2]]),
    ([3, 1, 2, 5, 4], 20, [[0], [3]]),
    ([20, 19, 18, 17, 16], 20, [[2], [3], [4]]),
    ([2, 9, 4, 6, 12], 20, [[0, 1, 4], [0, 2, 3, 4]]),
])
def test_maximal_sequences_examples(rack, max_card, expected):
    assert sorted(maximal_sequences(rack, max_card)) == expected


def test_maximal_sequences_match_the_definition_on_random_racks():
    rng = random.Random(4)
    for _ in range(300):
        r = rng.choice([4, 5, 6, 7])
        n = rng.choice([2 * r + 2, 4 * r])
        rack = rng.sample(range(1, n + 1), r)
        got = sorted(maximal_sequences(rack, n))
        want = brute_maximal(rack, n)
        assert got == (want if want != [[]] else [[]]), (rack, n)
        assert max(len(s) for s in got) == usable_sequence_length(rack, n)


def test_a_batch_of_racks_expands_as_each_rack_does_alone():
    """The search's batches: one rack with a slot tried with every card. Racks whose slots keep the
    same order share their maximal sequences (worked out once); each must still get its own."""
    rng = random.Random(11)
    for _ in range(40):
        r = rng.choice([5, 10])
        n = rng.choice([2 * r + 2, 4 * r])
        base = rng.sample(range(1, n + 1), r)
        slot = rng.randrange(r)
        racks = [base[:slot] + [c] + base[slot + 1:] for c in range(1, n + 1) if c not in base] + [base]
        rows, masks, pts, starts = expand(racks, n)
        for rack, a, b in zip(racks, starts, starts[1:] + [len(rows)]):
            assert all(list(row) == rack for row in rows[a:b])
            assert set(pts[a:b]) == {points(rack)}
            got = sorted([i for i in range(r) if m[i]] for m in masks[a:b])
            want = brute_maximal(rack, n)
            assert got == (want if want != [[]] else [[]]), (rack, n)


# ----- the 17 features, against a slow reading of their definitions -----

def reference_features(rack, seq, n, turns, seen):
    r = len(rack)
    unseen = [v for v in range(1, n + 1) if v not in set(seen)]
    target = [i * (n - 1) / r + 1 for i in range(r)]
    w = [1 - i / r for i in range(r)]
    scale = r * (n - r)
    clumps, cur = [], []
    for i in seq:
        if cur and i != cur[-1] + 1:
            clumps.append(cur)
            cur = []
        cur.append(i)
    if cur:
        clumps.append(cur)
    f = [min(turns, 2 * r) / r, points(rack) / (5 * r + 25), len(seq) / r,
         sum(abs(target[i] - rack[i]) for i in seq) / scale]
    ce = cew = adj = adjw = adjp = adjpw = cen = cenw = 0.0
    for c in clumps:
        m = len(c)
        cards = [rack[i] for i in c]
        cs = sum(c) / m
        wc = 1 - cs / r
        e = m * abs(cs * (n - 1) / r + 1 - sum(cards) / m)
        ce, cew = ce + e, cew + e * wc
        dens = m * (m - 1) / (cards[-1] - cards[0]) if m > 1 else 0.0
        adj, adjw = adj + (dens if m > 1 else 1.0), adjw + (dens if m > 1 else 1.0) * wc
        adjp, adjpw = adjp + dens, adjpw + dens * wc
        d = [rack[i] - i for i in c]
        spread = sum(abs(x - sum(d) / m) for x in d) / m
        cen, cenw = cen + m / (1 + spread), cenw + m / (1 + spread) * wc
    ps, pws = [], []
    for h in range(r):
        if h in seq:
            continue
        below = [i for i in seq if i < h]
        above = [i for i in seq if i > h]
        lo = rack[below[-1]] + h - below[-1] if below else h + 1
        hi = rack[above[0]] - (above[0] - h) if above else n - (r - 1 - h)
        p = sum(lo <= v <= hi for v in unseen) / len(unseen)
        ps.append(p)
        pws.append((p, w[h]))
    prod = float(np.prod(ps)) if ps else 1.0
    prodw = float(np.prod([1 - wh * (1 - p) for p, wh in pws])) if ps else 1.0
    mean = sum(ps) / len(ps) if ps else 1.0
    meanw = sum(p * wh for p, wh in pws) / len(ps) if ps else 1.0
    f += [ce / scale, prod, mean, adj / r, adjp / r, cen / r,
          sum(abs(target[i] - rack[i]) * w[i] for i in seq) / scale, cew / scale, prodw, meanw,
          adjw / r, adjpw / r, cenw / r]
    return f


def test_feature_matrix_matches_the_definitions():
    rng = random.Random(8)
    for _ in range(60):
        r = rng.choice([5, 10])
        n = 4 * r
        rack = rng.sample(range(1, n + 1), r)
        seen = rack + rng.sample([v for v in range(1, n + 1) if v not in rack], rng.randrange(0, n - r))
        turns = rng.randrange(0, 30)
        rows, masks, pts, _ = expand([rack], n)
        got = feature_matrix(rows, masks, n, np.full(len(rows), turns), unseen_prefix(n, seen)[None, :],
                             np.zeros(len(rows), np.int64), pts)
        assert got.shape == (len(rows), FEATURES)
        for row, seq in zip(got, maximal_sequences(rack, n)):
            assert np.allclose(row, reference_features(rack, seq, n, turns, seen)), (rack, seq)


def test_feature_matrix_is_the_same_bit_for_bit_both_ways():
    """Every row equal to the last bit whichever way it is worked out (a served decision's small
    batch from the mask tables, a search's or training's large one by labelled clumps: the same
    racks must score the same wherever they are scored), on random batches: several players'
    decisions at once, rack sizes 3 to 20, and usable sequences that are not maximal (subsets of
    the maximal ones). ``test_feature_matrix_matches_the_definitions`` checks the values."""
    from agents.racko.features import _features_by_label
    rng = random.Random(18)
    for _ in range(400):
        r = rng.choice([3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 11, 12, 16, 20])
        n = rng.choice([2 * r + 2, 3 * r, 4 * r, 6 * r])
        groups = [[rng.sample(range(1, n + 1), r) for _ in range(rng.randint(1, 12))] for _ in range(rng.randint(1, 3))]
        prefixes = []
        for racks in groups:
            seen = [c for rack in racks for c in rack] + rng.sample(range(1, n + 1), rng.randrange(0, n))
            prefixes.append(unseen_prefix(n, list(range(1, n + 1)) if rng.random() < 0.05 else seen))
        parts = [expand(racks, n) for racks in groups]
        which = np.repeat(np.arange(len(groups)), [len(rows) for rows, _m, _p, _s in parts])
        rows, masks = np.concatenate([q[0] for q in parts]), np.concatenate([q[1] for q in parts])
        if rng.random() < 0.3:
            masks = masks & (np.array([[rng.random() < 0.7 for _ in range(r)] for _ in rows]))
        args = (rows, masks, n, np.array([rng.randrange(0, 3 * r) for _ in rows]), np.array(prefixes), which,
                np.concatenate([q[2] for q in parts]))
        got, want = feature_matrix(*args), _features_by_label(*args)
        if len(rows) > SMALL_BATCH:
            continue  # both are the labelled way
        assert got.shape == want.shape == (len(rows), FEATURES)
        assert got.tobytes() == want.tobytes(), (r, n, np.nonzero(got != want))


def test_a_winning_rack_scores_its_features_at_the_top():
    rack = [2, 6, 10, 14, 18, 22, 26, 30, 34, 38]
    rows, masks, pts, _ = expand([rack], 40)
    f = feature_matrix(rows, masks, 40, np.array([5]), unseen_prefix(40, rack)[None, :], np.zeros(1, np.int64), pts)[0]
    assert f[1] == 1.0 and f[2] == 1.0 and f[5] == 1.0 and f[6] == 1.0  # Rack-O points, full length, no holes


def test_candidate_slots_are_the_usable_ones():
    assert candidate_slots(1, 5, 20) == [0]
    assert candidate_slots(20, 5, 20) == [4]
    assert candidate_slots(10, 5, 20) == [0, 1, 2, 3, 4]


# ----- Baltar -----

def test_baltar_state_bits_count_only_unseen_cards():
    # 1..20, seen: the rack and 15..20; unseen: 1, 3..4, 6..8, 10..11, 13..14 without the rack cards
    rack = [2, 5, 9, 12, 16]
    prefix = unseen_prefix(20, rack + list(range(15, 21)))
    # unseen = {1,3,4,6,7,8,10,11,13,14}: above 2: 9 > below 1 -> 1; 5: 7 > 3 -> 1; 9: 4 < 6 -> 0;
    # 12: 2 < 8 -> 0; 16: 0 < 10 -> 0; the card 7: 5 > 4 -> 1 (bit 5)
    assert state_bits(rack, 7, prefix) == 0b100011


def test_baltar_update_is_the_write_ups():
    t = QTables(5)
    assert t.draw.shape == (64, 2) and t.place.shape == (64, 6)
    learner = Learner(t, explore=False)
    learner.last = {"draw": (3, 1), "place": (7, 2)}
    learner.finish(True)
    assert t.draw[3, 1] == REWARD and t.place[7, 2] == REWARD  # first visit: rate 1
    t.update("draw", 3, 1, -REWARD)
    assert t.draw[3, 1] == 0.0 and t.draw_visits[3, 1] == 2  # rate 1/2
    # a next state whose best Q is 0 teaches nothing; otherwise the target is 0.25 * best
    learner.last = {"draw": (9, 0), "place": None}
    learner._step("draw", 5, [0, 1], random.Random(1))
    assert t.draw_visits[9, 0] == 0
    t.draw[5, 1] = 400.0
    learner.last = {"draw": (9, 0), "place": None}
    learner._step("draw", 5, [0, 1], random.Random(1))
    assert t.draw[9, 0] == GAMMA * 400.0 and t.draw_visits[9, 0] == 1


def test_baltar_explores_the_least_tried_action_while_training():
    t = QTables(5)
    learner = Learner(t, explore=True)
    rng = random.Random(2)
    picks = [learner._step("place", 11, list(range(6)), rng) for _ in range(12)]
    assert sorted(picks) == sorted(list(range(6)) * 2)


def test_baltar_explores_as_the_public_code_when_asked_the_least_updated_action_first():
    t = QTables(5)
    learner = Learner(t, explore=True, least="updates")
    rng = random.Random(2)
    # nothing updated yet (tries do not count): always the first action, draw from the deck, slot 1
    assert [learner._step("place", 11, list(range(6)), rng) for _ in range(5)] == [0] * 5
    assert learner._step("draw", 11, [0, 1], rng) == 0
    learner.finish(False)  # the deal is lost: the last place (11, 0) and draw (11, 0) are updated once
    assert t.place_visits[11, 0] == 1 and t.draw_visits[11, 0] == 1
    assert learner._step("place", 11, list(range(6)), rng) == 1
    assert learner._step("draw", 11, [0, 1], rng) == 1
    with pytest.raises(ValueError):
        Learner(t, least="fewest")


def test_the_two_ensembles_are_named_for_their_members():
    from agents.catalog import spec
    from agents.racko import ensemble
    from agents.racko.baltar import Baltar
    from agents.racko.diablo import Diablo
    from agents.racko.kyle import Kyle
    from agents.racko.max import Max

    assert [type(m) for m in ensemble().members] == [Kyle, Max, Baltar, Diablo]
    assert [type(m) for m in ensemble(with_diablo=False).members] == [Kyle, Max, Baltar]
    assert spec("racko", "ensemble").title == "Ensemble (with Diablo)"
    assert spec("racko", "ensemble-code").title == "Ensemble (write-up's code: Kyle, Max, Baltar)"
    assert [type(m) for m in make_agent("racko", "ensemble-code").members] == [Kyle, Max, Baltar]
    assert all(not m.forced_random for m in ensemble(with_diablo=False).members)


def test_baltar_ensemble_votes_with_weights():
    a, b = QTables(5), QTables(5)
    a.draw[4] = [0.0, 10.0]  # a: take the discard
    b.draw[4] = [10.0, 0.0]  # b: the deck
    a.place[4, 1], b.place[4, 3] = 5.0, 5.0
    view = {"options": {"rack_size": 5}}
    from agents.racko.baltar import vote_draw, vote_place
    assert vote_draw([(a, 0.8), (b, 0.75)], 4) and not vote_draw([(a, 0.7), (b, 0.75)], 4)
    assert vote_place([(a, 0.8), (b, 0.75)], 4, list(range(6))) == 1
    assert view


def test_live_baltar_learns_from_a_finished_deal_like_a_store_would():
    agent = BaltarLive()
    state = G.new_deal(2, 5, {"rack_size": 5})
    rng = random.Random(5)
    episode = Episode(seat=0)
    other = make_agent("racko", "random")
    while not G.is_over(state):
        seat = G.current_player(state)
        view = G.observe(state, seat)
        legal = G.legal_actions(state)
        action = (agent if seat == 0 else other).act(view, legal, rng)
        if seat == 0:
            episode.steps.append((view, action.id))
        state = G.apply(state, action)
    episode.won = G.winners(state) == [0]
    updates = agent.learn(episode)
    assert updates
    store: dict[str, float] = {}
    for u in updates:  # what the database does with them
        if u.op == "add":
            store[u.key] = store.get(u.key, 0.0) + u.amount
        else:
            store[u.key] = store.get(u.key, 0.0) + u.rate * (u.target - store.get(u.key, 0.0))
    assert store == pytest.approx(agent.values)
    final = [u for u in updates if u.op == "blend"][-1]
    assert abs(final.target) == REWARD


# ----- saved files -----

def test_network_and_tables_round_trip(tmp_path):
    net = Network.initial([FEATURES, 34, 30, 1], 3)
    net.meta_rack_size = 10
    x = np.random.default_rng(1).random((7, FEATURES))
    back = Network.load(net.save(tmp_path / "n.npz"))
    assert np.allclose(back(x), net(x), atol=1e-6) and back.meta_rack_size == 10 and back.shape == [17, 34, 30, 1]
    t = QTables(5)
    t.draw[3, 1], t.place[5, 2], t.place_visits[5, 2] = 1.5, -2.0, 4
    save_tables(tmp_path / "t.npz", [(t, 0.8)])
    (u, w), = load_tables(tmp_path / "t.npz")
    assert w == 0.8 and u.rack_size == 5 and u.draw[3, 1] == 1.5 and u.place[5, 2] == -2.0
    assert live_values(u) == {"p5:5:2": -2.0, "np5:5:2": 4.0}


def test_shipped_files_load_with_their_metadata():
    assert {t.rack_size for t, _ in baltar_tables()} == {5}
    assert all(w > 0.7 for _, w in baltar_tables())
    assert diablo_nets("diablo")[10].shape == [17, 34, 1]
    assert diablo_nets("diablo2")[10].shape == [17, 34, 30, 1]
    assert diablo_nets("diablo")[5].shape == [17, 34, 1]
    for name in ("diablo", "diablo2", "diablo-r5", "baltar"):
        meta = load_saved("racko", name)["meta"]
        assert meta["command"].startswith("parlour train racko") and meta["timing"]["seconds"] > 0
        assert meta["claims"]


def test_shipped_baltar_has_every_table_its_metadata_kept():
    meta = load_saved("racko", "baltar")["meta"]
    assert len(baltar_tables()) == meta["kept"] == len(meta["weights"])
    assert [w for _, w in baltar_tables()] == pytest.approx(meta["weights"])


def test_baltar_training_is_reproducible_from_its_seed():
    """One seed, one table, move for move: the recorded command rebuilds the shipped file."""
    from agents.training.racko_baltar import test_tables, train_tables
    from engine.racko import Rules
    rules = Rules(5, 20, 300)
    first, second = train_tables(rules, 2, 40, 7), train_tables(rules, 2, 40, 7)
    for name in ("draw", "place", "draw_tries", "place_tries"):
        assert np.array_equal(getattr(first, name), getattr(second, name)), name
    assert test_tables([(first, 1.0)], rules, 2, 50, 7) == test_tables([(second, 1.0)], rules, 2, 50, 7)
    assert not np.array_equal(first.draw, train_tables(rules, 2, 40, 8).draw)


# ----- a tiny training run through JAX -----

def test_a_tiny_diablo_training_run_moves_the_weights():
    pytest.importorskip("jax")
    from agents.training import racko_diablo
    args = Namespace(hidden="8", rack_size=5, players=2, max_card=0, max_turns=200, games=16, batch=8, lr=0.01,
                     workers=1, eval_every=0, eval_games=4, seed=3, seconds=float("inf"), epochs=2,
                     cpu_seconds=float("inf"))
    before = Network.initial([FEATURES, 8, 1], 3)
    net, curve, evaluations, seconds, cpu = racko_diablo.train(args)
    assert net.shape == [17, 8, 1] and not np.allclose(net.layers[0][0], before.layers[0][0])
    assert curve[-1]["games"] == 16 and np.isfinite(curve[-1]["loss"]) and evaluations[-1]["deals"] == 4


def test_a_resumed_diablo_training_run_ends_as_the_run_without_a_stop(tmp_path):
    pytest.importorskip("jax")
    from agents.training import racko_diablo
    common = dict(hidden="8", rack_size=5, players=2, max_card=0, max_turns=200, batch=8, lr=0.01, workers=1,
                  eval_every=0, eval_games=2, seed=3, seconds=float("inf"), epochs=2, cpu_seconds=float("inf"),
                  checkpoint_every=8)
    whole, _, _, _, _ = racko_diablo.train(Namespace(games=24, resume=False, **common), out=tmp_path / "a.json")
    racko_diablo.train(Namespace(games=16, resume=False, **common), out=tmp_path / "b.json")
    assert (tmp_path / "b-g8.npz").exists() and (tmp_path / "b-g16.npz").exists()
    resumed, curve, _, _, _ = racko_diablo.train(Namespace(games=24, resume=True, **common), out=tmp_path / "b.json")
    assert curve[-1]["games"] == 24
    for (w, b), (w2, b2) in zip(whole.layers, resumed.layers):
        assert np.allclose(w, w2) and np.allclose(b, b2)
    assert np.allclose(Network.load(tmp_path / "b-g16.npz").layers[0][0],
                       Network.load(tmp_path / "a-g16.npz").layers[0][0])


def test_td_samples_chain_each_turn_to_the_next_and_end_on_the_points():
    from agents.training.racko_diablo import Deal, td_weights
    from engine.racko import Rules
    assert td_weights(3, 5).tolist() == [0.9, 0.95, 1.0]
    assert td_weights(30, 5)[:10].tolist() == [0.0] * 10
    deal = Deal(Rules(5, 20, 100), 2, 1)
    t = deal.table
    t.step(0)
    t.step(2)  # seat 0 discards
    t.step(0)
    t.step(2)
    t.end_deal(-1)
    deal.history = [[(np.full(FEATURES, 1.0), 0.3), (np.full(FEATURES, 2.0), 0.6)], []]
    rows, targets, weights = deal.samples()
    assert targets == [0.6, t.last_result.points[0] / 50] and weights == [0.95, 1.0]


# ----- strength (shipped agents, small fixed samples, margins of 4+ standard errors) -----

def duel(first, second, rules, deals, seed=0):
    """Deals won by each (seats alternating)."""
    rng = random.Random(seed)
    wins = [0, 0]
    for i in range(deals):
        seats = [first(), second()]
        if i % 2:
            seats.reverse()
        t = arena.play_deal(rules, 90_000 + seed * 1000 + i, seats, rng)
        if t.winner >= 0:
            wins[(t.winner + i) % 2] += 1
    return wins


@pytest.mark.parametrize("learner", ["baltar", "baltar-ensemble", "diablo", "diablo2"])
def test_random_loses_clearly_to_each_learner(learner):
    """100 two-player 5-slot deals: Random wins under 20, the learner over 75 (seen: Baltar 89-11,
    Diablo 95+)."""
    make = {"baltar": lambda: BaltarDecider(baltar_single()), "baltar-ensemble": lambda: BaltarDecider(baltar_tables()),
            "diablo": lambda: DiabloDecider(diablo_nets("diablo")),
            "diablo2": lambda: DiabloDecider(diablo_nets("diablo2"))}[learner]
    wins = duel(make, arena.RandomDecider, G.rules(2, {"rack_size": 5, "max_turns": 300}), 100)
    assert wins[0] > 75 and wins[1] < 20, wins


@pytest.mark.parametrize("claim_key,make", [
    ("single_vs_random", lambda: BaltarDecider(baltar_single())),
    ("ensemble_vs_random", lambda: BaltarDecider(baltar_tables())),
])
def test_shipped_baltar_wins_what_its_metadata_claims_against_random(claim_key, make):
    """The claims are measured over 2,001 deals; a fresh 400 stay within 4 standard errors of them."""
    claim = load_saved("racko", "baltar")["meta"]["claims"][claim_key]
    wins = duel(make, arena.RandomDecider, G.rules(2, {"rack_size": 5}), 400, seed=7)
    se = (claim * (1 - claim) / 400) ** 0.5
    assert abs(wins[0] / 400 - claim) < 4 * se + 0.02, (wins, claim)


@pytest.mark.parametrize("name", ["diablo", "diablo2"])
def test_shipped_diablo_beats_kyle_as_its_metadata_claims(name):
    """Each network's claim against Kyle (10 slots, measured on its own deals) on a fresh 200:
    within 4 standard errors of the claim, and on the claim's side of an even share."""
    claim = load_saved("racko", name)["meta"]["claims"]["vs_kyle"]
    wins = duel(lambda: DiabloDecider(diablo_nets(name)), arena.KyleDecider, G.rules(2, {}), 200, seed=3)
    se = (claim * (1 - claim) / 200) ** 0.5
    assert (wins[0] > wins[1]) == (claim > 0.5) and abs(wins[0] / 200 - claim) < 4 * se, (wins, claim)


def test_lookahead_decides_from_its_view_in_a_short_game():
    agent = Lookahead(diablo_nets("diablo"))
    state, _ = play_out(G, G.new_deal(2, 4, {"rack_size": 5}), [agent, make_agent("racko", "random")],
                        random.Random(4))
    assert G.is_over(state)
    view = G.observe(G.new_deal(2, 4, {}), 0)
    assert agent.explain(view, G.legal_actions(G.new_deal(2, 4, {}))).values.keys() == {"draw:deck", "draw:discard"}
    assert json.dumps(agent.explain(view, G.legal_actions(G.new_deal(2, 4, {}))).to_json())


def test_ensemble_votes_and_never_discards_a_card_it_must_place():
    from agents.racko.ensemble import Ensemble
    from engine.racko import DISCARD, DRAW_DECK, DRAW_DISCARD, PLACE

    class Says:
        name = "stub"

        def __init__(self, code):
            self.code = code

        def decide(self, view):
            return self.code

    place = {"phase": "place", "drawn_from": "discard"}
    assert Ensemble([Says(DISCARD), Says(DISCARD), Says(PLACE + 3)]).decide(place) == PLACE + 3
    assert Ensemble([Says(DISCARD), Says(PLACE + 1), Says(PLACE + 3)]).decide({**place, "drawn_from": "deck"}) == DISCARD
    draw = {"phase": "draw"}
    assert Ensemble([Says(DRAW_DISCARD), Says(DRAW_DISCARD), Says(DRAW_DECK), Says(DRAW_DECK)]).decide(draw) == DRAW_DECK
    assert Ensemble([Says(DRAW_DISCARD)] * 3 + [Says(DRAW_DECK)]).decide(draw) == DRAW_DISCARD


def test_diablo_agent_and_arena_decider_decide_alike_and_explain_the_same_scores():
    """The agent scores every slot once per decision (kept for its explanation) and picks among the
    usable ones; the arena's decider scores only those: the same moves over whole deals, and the
    explanation gives each slot the score it decided on."""
    from agents.racko.diablo import Diablo
    from engine.racko import ACTIONS, DRAW_DECK, DRAW_DISCARD, Table
    agent = Diablo(diablo_nets("diablo2"), forced_random=False)
    decider = DiabloDecider(diablo_nets("diablo2"), forced_random=False)
    rng = random.Random(0)
    checked = 0
    for seed in range(3):
        state = G.new_deal(2, 300 + seed, {})
        while not G.is_over(state):
            seat, table = G.current_player(state), Table.thaw(state)
            view, legal = G.observe(state, seat), G.legal_actions(state)
            code = agent.decide(view)
            if view["phase"] == "draw":
                assert code == (DRAW_DISCARD if decider.draw(table, seat, rng) else DRAW_DECK)
            else:
                assert ACTIONS[code].id == code_id(decider.place(table, seat, rng))
                why = agent.explain(view, legal)
                if ACTIONS[code].id != "discard":
                    assert why.values[ACTIONS[code].id] == max(why.values[a.id] for a in legal if a.id != "discard"
                                                               and int(a.id[6:]) - 1 in candidate_slots(
                                                                   view["drawn"], 10, view["options"]["max_card"]))
            state = G.apply(state, ACTIONS[code])
            checked += 1
    assert checked > 20


def test_served_diablo_decides_by_its_definition_and_reuses_scores_only_for_the_same_decision(monkeypatch):
    """Whole deals against Kyle with the shipped Diablo2 as the server runs it (one agent for every
    decision, its move and then its explanation, forced random moves on): every score it explains is
    the network's best over that rack's maximal sequences, computed rack by rack from the
    definitions, and its move is what the decision rule makes of those scores; it scores fewer times
    than it decides (placing a card taken from the discard reuses the draw's scores), never
    serving another decision's."""
    import agents.racko.diablo as diablo
    agent, kyle, nets = make_agent("racko", "diablo2"), make_agent("racko", "kyle"), diablo_nets("diablo2")
    real, scorings = diablo.score_groups, []
    monkeypatch.setattr(diablo, "score_groups", lambda *args: scorings.append(1) or real(*args))
    rng, decisions, taken = random.Random(5), 0, 0
    for seed in range(8):
        state = G.new_deal(2, 500 + seed, {})
        while not G.is_over(state):
            seat = G.current_player(state)
            view, legal = G.observe(state, seat), G.legal_actions(state)
            if seat == 1:
                state = G.apply(state, kyle.act(view, legal, rng))
                continue
            action, why = agent.act(view, legal, rng), agent.explain(view, legal)
            n, r, turns = view["options"]["max_card"], view["options"]["rack_size"], view["turns"][0]
            prefix, net = unseen_prefix(n, diablo.view_seen(view)), diablo.pick_net(nets, r)
            card = view["discard_top"] if view["phase"] == "draw" else view["drawn"]
            now = defined_score(net, view["rack"], n, turns, prefix)
            slots = [defined_score(net, view["rack"][:k] + [card] + view["rack"][k + 1:], n, turns, prefix)
                     for k in range(r)]
            best = max(candidate_slots(card, r, n), key=slots.__getitem__)
            if view["phase"] == "draw":
                margin = 1.0 / (diablo.MARGIN * r)
                assert why.values["draw:deck"] == pytest.approx(now, abs=1e-12)
                assert why.values["draw:discard"] == pytest.approx(max(slots) - margin, abs=1e-12)
                expected = "draw:discard" if slots[best] - margin > now else "draw:deck"
                taken += expected == "draw:discard"
            else:
                assert [why.values[f"place:{k + 1}"] for k in range(r)] == pytest.approx(slots, abs=1e-12)
                placed = view["drawn_from"] == "discard" or slots[best] > now
                expected = f"place:{best + 1}" if placed else "discard"
            if not agent.forced_now(view):
                assert action.id == expected, (seed, view["turn"], view["phase"])
            decisions += 1
            state = G.apply(state, action)
    assert decisions > 100 and taken > 5
    assert len(scorings) <= decisions - taken


def defined_score(net, rack, max_card, turns, prefix) -> float:
    """Diablo's score of one rack from the definitions: the network's best output over the rack's
    maximal usable sequences."""
    rows, masks, pts, _ = expand([rack], max_card)
    feats = feature_matrix(rows, masks, max_card, np.full(len(rows), turns), prefix[None, :],
                           np.zeros(len(rows), np.int64), pts)
    return float(net(feats).max())


def code_id(slot: int) -> str:
    return "discard" if slot < 0 else f"place:{slot + 1}"


# ----- Lookahead planning a turn ahead (the top level) -----

def test_a_rack_that_ascends_is_worth_a_rack_o_and_no_other_rack_more():
    from agents.racko.lookahead import rack_values
    net = diablo_nets("diablo2")[10]
    prefix = unseen_prefix(40, list(range(1, 15)))
    racks = [[1, 5, 9, 13, 17, 21, 25, 29, 33, 40], [1, 5, 9, 13, 17, 21, 25, 29, 40, 33], [3, 2, 1, 4, 5, 6, 7, 8, 9, 10]]
    values = rack_values(net, racks, 40, 4, prefix)
    assert values[0] == 1.0 and 0 < values[1] < 1 and 0 < values[2] < 1


def _by_hand(net, rack, unseen, turns, prefix):
    """deck(R) one card at a time: the better of keeping R and the card in each usable slot."""
    from agents.racko.lookahead import rack_values
    best = []
    for card in unseen:
        _slots, racks = tries_of(rack, card)
        best.append(max(float(v) for v in rack_values(net, racks, 40, turns, prefix)))
    return sum(best) / len(best)


def tries_of(rack, card):
    from agents.racko.diablo import tries
    return tries(rack, card, 40)


def test_planning_lookahead_values_its_best_placements_after_the_next_draw_and_plays_the_best():
    """At a placement the planning level weighs the three ways to play the card that score best
    after the turn, each by the mean over unseen cards of the best rack after the next draw
    (checked card by card), and plays the best of them; the explanation shows those values."""
    from agents.racko.lookahead import rack_values
    from engine.racko import ACTIONS
    agent = Lookahead(diablo_nets("diablo2"), plan=True)
    net = diablo_nets("diablo2")[10]
    state, rng, checked = G.new_deal(2, 77, {}), random.Random(1), 0
    while not G.is_over(state) and checked < 3:
        view, legal = G.observe(state, G.current_player(state)), G.legal_actions(state)
        if view["phase"] == "place":
            from agents.racko.diablo import view_seen
            seen = view_seen(view)
            unseen = [c for c in range(1, 41) if c not in seen]
            prefix, turns = unseen_prefix(40, seen), view["turns"][view["seat"]]
            why = agent.explain(view, legal)
            assert len(why.values) == 3
            options = {a.id: a for a in legal}
            after = {}
            for aid in options:
                rack = view["rack"][:]
                if aid != "discard":
                    rack[int(aid[6:]) - 1] = view["drawn"]
                after[aid] = rack
            now = {aid: float(rack_values(net, [r], 40, turns, prefix)[0]) for aid, r in after.items()}
            assert min(now[a] for a in why.values) >= max(v for a, v in now.items() if a not in why.values)
            for aid, value in why.values.items():
                assert value == pytest.approx(_by_hand(net, after[aid], unseen, turns + 1, prefix))
            assert ACTIONS[agent.decide(view)].id == max(why.values, key=why.values.get)
            other = min(now, key=now.get)  # the coach weighs the move a person made too
            coached = agent.coach_values(view, legal, other)
            assert coached[other] == pytest.approx(_by_hand(net, after[other], unseen, turns + 1, prefix))
            assert {a: coached[a] for a in why.values} == why.values
            checked += 1
        state = G.apply(state, rng.choice(legal))
    assert checked == 3


def test_planning_lookahead_is_first_at_the_write_ups_three_way_table():
    """Kyle, Diablo and the top level at 5 slots, 25 cards: first on fresh deals, 39(1)% against
    Diablo's 37(1)% over 1,500 (seed 11; 44 against 35 on the tuning seed, docs/measurements/racko.md).
    450 other deals here keep it first (by 3 points or more on this seed; Lookahead, the level it
    replaced, was not first on seed 11)."""
    from agents.tournament import play_by_observation
    agents = [make_agent("racko", a) for a in ("kyle", "diablo", "lookahead-plan")]
    records = play_by_observation("racko", agents, range(450), 5, {"rack_size": 5, "max_card": 25})
    wins = [0.0, 0.0, 0.0]
    for r in records:
        for seat in r.winners:
            wins[r.order[seat]] += 1 / len(r.winners)
    assert wins[2] > max(wins[:2]), wins


def test_a_diablo_run_whose_deals_never_end_in_a_rack_o_stops_and_says_why(monkeypatch):
    """Seed 3's starting network (10 slots, two hidden layers) finishes no rack in self-play: the run
    stops after STALL_DEALS deals instead of spending its budget; seed 4's finishes racks and runs on."""
    pytest.importorskip("jax")
    from agents.training import racko_diablo
    monkeypatch.setattr(racko_diablo, "STALL_DEALS", 8)
    common = dict(hidden="34,30", rack_size=10, players=2, max_card=0, max_turns=300, games=12, batch=4, lr=0.003,
                  workers=1, eval_every=0, eval_games=2, seconds=float("inf"), epochs=1, cpu_seconds=float("inf"))
    with pytest.raises(SystemExit, match="none of the first 8 self-play deals ended in a Rack-O.*--seed 3"):
        racko_diablo.train(Namespace(seed=3, **common))
    _net, curve, _e, _s, _c = racko_diablo.train(Namespace(seed=4, **common))
    assert curve[-1]["games"] == 12


def test_the_mask_tables_stop_growing_at_their_bound_and_the_rows_stay_the_same(monkeypatch):
    """At 20 slots a rack has up to 2^20 masks, and a server that kept a table row for each mask it
    met would grow for as long as people play: past ``LAYOUT_MASKS`` a batch is worked out the
    labelled way, with the same rows; and only the last eight (rack size, highest card) pairs keep
    their tables."""
    import agents.racko.features as features

    monkeypatch.setattr(features, "LAYOUT_MASKS", 30)
    features._layout.cache_clear()
    rng = random.Random(5)
    r, n = 20, 80
    for _ in range(20):
        racks = [rng.sample(range(1, n + 1), r) for _ in range(rng.randint(1, 4))]
        rows, masks, pts, _ = expand(racks, n)
        args = (rows, masks, n, np.full(len(rows), 4), unseen_prefix(n, racks[0])[None, :], np.zeros(len(rows), np.int64), pts)
        assert feature_matrix(*args).tobytes() == features._features_by_label(*args).tobytes()
        assert features._layout(r, n).count <= 30
    assert features._layout(r, n).count > 0
    for m in range(41, 51):
        features._layout(r, m)
    assert features._layout.cache_info().currsize == 8
    features._layout.cache_clear()
