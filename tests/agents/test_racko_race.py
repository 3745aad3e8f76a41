"""Lookahead valuing the race at the end (``agents.racko.race``): the race value of a rack one card
from Rack-O worked out by hand, the fast expectimax against one written rack by rack, and a racing
choice that does not change when the hidden cards are dealt again."""
import random

import numpy as np
import pytest

from agents.catalog import make_agent
from agents.racko.diablo import view_seen
from agents.racko.race import Hazard, fitted_hazard, race_values, survival
from engine import get_game
from engine.racko import DRAW_DISCARD, PLACE

G = get_game("racko")
ONE_SHORT = [3, 7, 12, 15, 39, 21, 26, 30, 34, 38]  # slot 5 wrong: any card 16..20 there is a Rack-O (40 cards)
UNSEEN = [1, 2, 17, 19, 32, 35]  # two of them (17, 19) finish it


@pytest.mark.parametrize("h", [0.0, 0.3])
def test_one_card_short_is_worth_its_exact_completion_chance_against_the_hazard(h):
    s = np.full(12, 1.0 - h)
    # after this turn the other seat moves (survives 1 - h); then 2 of the 6 cards finish; with any
    # of the other 4 kept, 2 of the 5 cards left finish at each later draw, the other seat first each time
    later = sum((1.0 - h) ** (m + 1) * 0.6 ** m * 0.4 for m in range(11))
    want = (1.0 - h) * (2 / 6 + 4 / 6 * later)
    assert race_values([ONE_SHORT], UNSEEN, 40, s)[0] == pytest.approx(want)
    assert race_values([ONE_SHORT[:4] + [17] + ONE_SHORT[5:]], UNSEEN, 40, s)[0] == 1.0  # a Rack-O
    assert race_values([[39] + ONE_SHORT[1:4] + [2] + ONE_SHORT[5:9] + [5]], UNSEEN, 40, s)[0] == 0.0  # three short


def brute(rack, unseen, s, gone):
    """``A`` by its definition, one rack at a time."""
    def ascends(r):
        return all(a < b for a, b in zip(r, r[1:]))

    def chance(r, left):  # of finishing at one draw from ``left``
        return sum(any(ascends(r[:k] + [x] + r[k + 1:]) for k in range(len(r))) for x in left) / len(left)

    def tail(p):
        total, run = 0.0, 1.0
        for m, sj in enumerate(s[1:]):
            run *= sj
            total += run * (1 - p) ** m * p
        return total

    pool = [c for c in unseen if c != gone]
    best = []
    for c in pool:
        left = [x for x in pool if x != c]
        options = [tail(chance(rack, left))]
        for i in range(len(rack)):
            r = rack[:i] + [c] + rack[i + 1:]
            options.append(1.0 if ascends(r) else tail(chance(r, left)))
        best.append(max(options))
    return s[0] * sum(best) / len(best)


def test_the_expectimax_matches_its_definition_rack_by_rack():
    rng, s, checked = random.Random(4), np.array([0.9, 0.8, 0.85, 0.7, 0.75, 0.7, 0.6, 0.7, 0.7, 0.7, 0.7, 0.7]), 0
    while checked < 150:
        rack = sorted(rng.sample(range(1, 31), 6))
        for _ in range(rng.choice([1, 1, 2, 2, 3])):
            rack[rng.randrange(6)] = rng.randrange(1, 31)
        if len(set(rack)) < 6 or all(a < b for a, b in zip(rack, rack[1:])):
            continue
        unseen = sorted(rng.sample([c for c in range(1, 31) if c not in rack], rng.randrange(3, 14)))
        gone = rng.choice([0] + unseen)
        assert race_values([rack], unseen, 30, s, [gone])[0] == pytest.approx(brute(rack, unseen, s, gone))
        checked += 1


def test_the_hazard_is_fitted_and_read_from_what_the_seat_sees():
    table = {"rack_size": 10, "won": [0, 0, 50, 30], "reached": [0, 1000, 1000, 60],
             "won_by_slots": [[0, 0], [0, 0], [10, 40], [0, 30]], "reached_by_slots": [[0, 0], [1000, 0], [500, 500], [0, 60]]}
    h = fitted_hazard(table, False)
    assert h.by_turn == (0.0, 0.0, 0.05, 0.5)  # turn 3 seen 60 times: pooled with every later turn
    hs = fitted_hazard(table, True)
    assert hs.at(2, 1) == pytest.approx((40 + 20 * 0.05) / 520)
    view = {"seat": 0, "turns": [2, 1], "placed": [[3, 4], [5]]}
    assert survival(view, h, 3) == pytest.approx([0.95, 0.5, 0.5])  # its turns 2, 3, 4 (pooled)
    assert survival(view, Hazard(10, (0.0, 0.1, 0.2)), 2) == pytest.approx([0.8, 0.8])


def test_one_card_short_it_takes_or_places_the_card_that_finishes():
    agent = make_agent("racko", "deep-race")
    view = G.observe(G.new_deal(2, 7), 0)  # a made-up position: the first turn's view, its rack and pile replaced
    view = dict(view, rack=ONE_SHORT, discard_top=18, discard_pile=[18], known=[[], []])
    assert agent.decide(view) == DRAW_DISCARD
    view = dict(view, phase="place", drawn=18, drawn_from="discard", discard_top=None, discard_pile=[])
    assert agent.decide(view) == PLACE + 4


def test_its_racing_choice_does_not_change_when_the_hidden_cards_are_dealt_again():
    agent, deep = make_agent("racko", "deep-race"), make_agent("racko", "lookahead-deep")
    rng, checked, changed = random.Random(5), 0, 0
    for deal in range(40):
        state = G.new_deal(2, 300 + deal)
        while not G.is_over(state) and checked < 6:
            seat, legal = int(G.current_player(state)), G.legal_actions(state)
            view = G.observe(state, seat)
            seen = set(view_seen(view))
            if agent._racing(view, [c for c in range(1, view["options"]["max_card"] + 1) if c not in seen]):
                chose = agent.decide(view)
                for _ in range(3):
                    other = G.resample_hidden(state, seat, rng)
                    changed += other.racks[1 - seat] != state.racks[1 - seat]
                    assert agent.decide(G.observe(other, seat)) == chose
                checked += 1
            state = G.apply(state, deep.act(view, legal, rng))
        if checked >= 6:
            break
    assert checked >= 6 and changed  # the other rack was dealt again at least once
