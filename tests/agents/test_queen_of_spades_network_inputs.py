"""The write-up's 115 inputs: every block, the card order, and that training (from a Table) and
play (from an observation) encode the same position the same way."""
import random

import numpy as np
import pytest

from agents.queen_of_spades.network import observation_inputs
from agents.queen_of_spades.network_inputs import BLOCKS, CARD_IDS, COUNTING, SIZE, encode, encode_tables, mask_of
from engine import get_game
from engine.queen_of_spades import cards
from engine.queen_of_spades.cards import QUEEN_OF_SPADES
from engine.queen_of_spades.rules import Table

QS, KS, AC, D7 = 10, 9, 0, 31


def block(row, name):
    start, size = BLOCKS[name]
    return row[start:start + size]


def test_blocks_tile_the_115_inputs():
    spans = sorted(BLOCKS.values())
    assert spans[0][0] == 0 and sum(size for _, size in spans) == SIZE == 115
    assert all(a + n == b for (a, n), (b, _) in zip(spans, spans[1:]))


def test_card_order_is_the_engines_suit_major_order():
    assert CARD_IDS == cards.CARD_IDS
    assert CARD_IDS[:8] == ("AC", "KC", "QC", "JC", "10C", "9C", "8C", "7C")
    assert CARD_IDS[QUEEN_OF_SPADES] == "QS" and QUEEN_OF_SPADES == cards.QUEEN_OF_SPADES
    assert CARD_IDS[31] == "7D" and CARD_IDS[16] == "AH"


def test_a_leader_at_trick_one():
    hand = [AC, QS, D7]
    row = encode(1, mask_of(hand), [], 0, (True, False, False))
    assert list(block(row, "round")) == [1, -1, -1, -1, -1, -1, -1, -1]
    assert set(np.flatnonzero(block(row, "hand") == 1)) == set(hand)
    assert (np.abs(block(row, "hand")) == 1).all()
    assert (block(row, "table") == -1).all()
    assert set(np.flatnonzero(block(row, "others") == -1)) == set(hand)  # nothing played yet
    assert (block(row, "led") == 0).all()  # the player leads: not applicable
    assert list(block(row, "position")) == [1, -1, -1, -1]
    assert list(block(row, "flags")) == [1, -1, -1]


def test_third_to_play_in_trick_two():
    # trick 1 was 8C 9C 10C 7C (done); trick 2: KS then 7D are on the table
    done = [6, 5, 4, 7]
    on_table = [KS, D7]
    hand = [AC, QS]
    row = encode(2, mask_of(hand), on_table, mask_of(done + on_table), (False, True, False))
    assert list(block(row, "round")) == [-1, 1, -1, -1, -1, -1, -1, -1]
    assert set(np.flatnonzero(block(row, "table") == 1)) == set(on_table)
    others = set(np.flatnonzero(block(row, "others") == 1))
    assert others == set(range(32)) - set(done) - set(on_table) - set(hand)
    assert list(block(row, "led")) == [-1, 1, -1, -1]  # spades led
    assert list(block(row, "position")) == [-1, -1, 1, -1]
    assert list(block(row, "flags")) == [-1, 1, -1]


def test_took_the_queen_flag_and_the_last_round():
    row = encode(8, mask_of([AC]), [], mask_of(set(range(32)) - {AC, 1, 2, 3}), (False, False, True))
    assert block(row, "round")[7] == 1 and list(block(row, "flags")) == [-1, -1, 1]


def test_counting_levels_weaken_only_the_others_block():
    args = (3, mask_of([AC, 17]), [20], mask_of([20, 1, 2, 3, 4]), (True, False, False))
    full, part, none = (encode(*args, counting=c) for c in ("full", "partial", "none"))
    rest = np.r_[0:72, 104:115]
    assert (full[rest] == part[rest]).all() and (full[rest] == none[rest]).all()
    assert (block(none, "others") == 0).all()
    p, f = block(part, "others"), block(full, "others")
    assert (p[8:16] == f[8:16]).all()  # spades kept
    assert np.allclose(np.r_[p[:8], p[16:]], 0.75 * np.r_[f[:8], f[16:]])  # good: three quarters (PARTIAL)
    assert set(COUNTING) == {"full", "partial", "none"}


def test_training_and_play_encode_a_position_alike():
    """Rows from the Table (training, search) equal rows from the observation (the agent)."""
    game = get_game("queen_of_spades")
    rng = random.Random(3)
    for seed in range(6):
        state = game.new_deal(4, seed)
        while not game.is_over(state):
            seat = game.current_player(state)
            for counting in COUNTING:  # encode_many's rows (training) and encode's one row (play) agree
                from_table = encode_tables([Table.thaw(state)], counting)[0]
                from_view = observation_inputs(game.observe(state, seat), counting)
                assert np.array_equal(from_table, from_view) and from_view.dtype == np.float32
            legal = game.legal_actions(state)
            state = game.apply(state, legal[rng.randrange(len(legal))])


def test_many_rows_at_once_match_one_at_a_time():
    game = get_game("queen_of_spades")
    tables, state, rng = [], game.new_deal(4, 11), random.Random(0)
    while not game.is_over(state):
        tables.append(Table.thaw(state))
        legal = game.legal_actions(state)
        state = game.apply(state, legal[rng.randrange(len(legal))])
    many = encode_tables(tables)
    assert many.shape == (32, 115) and many.dtype == np.float32
    for t, row in zip(tables, many):
        assert np.array_equal(encode_tables([t])[0], row)


@pytest.mark.parametrize("bad", [0, 9])
def test_trick_number_out_of_range_is_refused(bad):
    with pytest.raises(ValueError):
        encode(bad, 0, [], 0, (True, False, False))
