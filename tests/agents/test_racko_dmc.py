"""The Deep Monte-Carlo Rack-O player: its features see only the seat's own view, the agent
and the arena decider decide alike, training learns, the shipped weights hold their claim."""
from __future__ import annotations

import random

import numpy as np
import pytest

from agents.qnet import QNet
from agents.racko.arena import RandomDecider, play_deal
from agents.racko.dmc import Dmc, DmcDecider
from agents.racko.dmc_features import candidates, feature_count, seen_of_table, seen_of_view
from agents.racko.kyle import Kyle
from agents.saved_files import saved_path
from agents.training import dmc, racko_dmc
from engine import get_game
from engine.racko import Rules, Table
from tests.agents.dmc_checks import assert_plays_at_its_claim, assert_resume_is_exact

G = get_game("racko")


def positions(deals: int, players: int = 2, seed: int = 0):
    """States where some seat decides, from deals between Kyles."""
    rng = random.Random(seed)
    kyle = Kyle()
    for d in range(deals):
        state = G.new_deal(players, 5000 + d)
        while not G.is_over(state):
            yield state
            seat = G.current_player(state)
            state = G.apply(state, kyle.act(G.observe(state, seat), G.legal_actions(state), rng))


def rows_of_table(state, seat):
    return candidates(seen_of_table(Table.thaw(state), seat))[1]


def test_features_from_the_view_equal_the_tables_and_ignore_hidden_cards():
    rng = random.Random(3)
    changed = 0
    for state in positions(6, players=3):
        seat = G.current_player(state)
        mine = rows_of_table(state, seat)
        assert mine.shape[1] == feature_count(10)
        assert np.array_equal(mine, candidates(seen_of_view(G.observe(state, seat)))[1])
        for _ in range(3):
            assert np.array_equal(rows_of_table(G.resample_hidden(state, seat, rng), seat), mine)
        # the check can fail: resampled for another seat, this seat's own rack changes
        other = (seat + 1) % state.players
        changed += not np.array_equal(rows_of_table(G.resample_hidden(state, other, rng), seat), mine)
    assert changed > 0


def test_the_agent_and_the_arena_decider_decide_alike():
    net = QNet.initial([feature_count(10), 32, 16, 1], 5)
    agent, decider = Dmc(net), DmcDecider(net)
    rng = random.Random(0)
    checked = 0
    for state in positions(4):
        seat = G.current_player(state)
        table = Table.thaw(state)
        view = G.observe(state, seat)
        got = agent.act(view, G.legal_actions(state), rng).id
        assert got in {a.id for a in G.legal_actions(state)}
        if view["phase"] == "draw":
            want = "draw:discard" if decider.draw(table, seat, rng) else "draw:deck"
        elif view["drawn_from"] == "discard":
            before = Table.thaw(state)  # the draw's decision, remade with the card back on the pile
            before.discard.append(before.drawn)
            before.drawn, before.source, before.phase = 0, 0, 0
            if not decider.draw(before, seat, rng):  # it would not have taken the card (Kyle did)
                continue
            want = f"place:{decider.place(table, seat, rng) + 1}"
        else:
            k = decider.place(table, seat, rng)
            want = "discard" if k < 0 else f"place:{k + 1}"
        assert got == want
        explained = agent.explain(view, G.legal_actions(state))
        assert explained.values and set(explained.values) <= {a.id for a in G.legal_actions(state)}
        checked += 1
    assert checked > 50


def test_a_few_minutes_of_training_beats_random(tmp_path):
    """A small network, 5 slots, a short run: it must go Rack-O far more often than Random
    (Random almost never sorts a rack; an untrained network rarely does)."""
    parser = dmc.build_parser("test", "", racko_dmc.DEFAULTS)
    racko_dmc.add_options(parser)
    args = parser.parse_args(["--rack-size", "5", "--hidden", "64,32", "--deals", "1500", "--batch", "50",
                              "--pool", "self=0.5,kyle=0.5", "--reference", "random", "--eval-every", "1500",
                              "--eval-deals", "100", "--workers", "1", "--seed", "3", "--max-turns", "200", "--shaping", "0.5"])
    args.command = "test"
    setup = racko_dmc.make_setup(args)
    out = tmp_path / "dmc.json"
    progress = dmc.train(setup, args, None, out, lambda p: None)
    last = progress["windows"][-1]
    assert last["win"] >= 85, last
    assert dmc.checkpoint_path(out).exists()
    # the untrained network, for comparison: the margin comes from training
    untrained = QNet.initial(progress["net"].shape, args.seed)
    rules = Rules(5, 20, 1500)
    wins = sum(play_deal(rules, 900 + k, [DmcDecider(untrained), RandomDecider()], random.Random(k)).winner == 0
               for k in range(40))
    assert wins < 0.85 * 40


def test_resume_reaches_the_weights_of_an_uninterrupted_run(tmp_path):
    parser = dmc.build_parser("test", "", racko_dmc.DEFAULTS)
    racko_dmc.add_options(parser)
    base = ["--rack-size", "5", "--hidden", "16", "--batch", "10", "--pool", "self=0.5,kyle=0.5",
            "--reference", "kyle", "--eval-every", "20", "--eval-deals", "10", "--workers", "1", "--seed", "4"]
    assert_resume_is_exact(racko_dmc, parser, base, tmp_path)


SHIPPED = saved_path("racko", "dmc")


@pytest.mark.skipif(not SHIPPED.exists(), reason="no shipped DMC weights")
def test_the_shipped_weights_play_at_their_claimed_strength():
    """Against the reference of its curve, on deals other than the curve's: within four
    standard errors of the claim (300 deals)."""
    assert_plays_at_its_claim(racko_dmc, SHIPPED, 300, se_floor=0.01)


def test_the_chains_kept_by_order_are_the_chains_worked_out_and_the_longest_sequences():
    """``chains`` answers from what it kept for racks of the same order: every rack must still get
    its own, equal bit for bit to working it out (``_chains``), and its kept slots must be those on
    a longest maximal usable sequence (``agents.racko.features``)."""
    from agents.racko.dmc_features import _chains, chains
    from agents.racko.features import maximal_sequences
    rng = random.Random(21)
    for _ in range(60):
        r = rng.choice([3, 5, 8, 10])
        n = rng.choice([2 * r + 2, 4 * r])
        base = rng.sample(range(1, n + 1), r)
        slot = rng.randrange(r)
        racks = np.array([base[:slot] + [c] + base[slot + 1:] for c in range(1, n + 1) if c not in base] + [base])
        compat, kept, longest = chains(racks, n)
        want = _chains(racks, n)
        assert compat.tobytes() == want[0].tobytes() and longest.tobytes() == want[2][:, 0].tobytes()
        assert np.array_equal(kept, want[1] > 0.5)
        for rack, row, length in zip(racks.tolist(), kept, longest):
            seqs = maximal_sequences(rack, n)
            top = max(len(s) for s in seqs)
            assert length == top
            assert row.tolist() == [top > 0 and any(len(s) == top and i in s for s in seqs) for i in range(r)]
