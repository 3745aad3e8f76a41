"""The Deep Monte-Carlo level's look one turn ahead (``agents.yaniv.dmc_search``): which throws it
searches, how a world is scored on hand-checkable tables, and that the level's searched choice
and its reasoning read nothing the seat cannot see."""
from __future__ import annotations

import random

import numpy as np

from agents.yaniv.common import YANIV
from agents.yaniv.dmc import Dmc
from agents.yaniv.dmc_search import after_turn, close_throws, search
from agents.yaniv.lookahead import Worlds
from agents.yaniv.sage import Sage
from engine import get_game
from engine.yaniv import Rules, State
from engine.yaniv.cards import DECK_SIZE, parse_card
from engine.yaniv.rules import Table

G = get_game("yaniv")


def cards(*ids: str) -> tuple[int, ...]:
    return tuple(sorted(parse_card(c).index for c in ids))


def table(theirs: tuple[int, ...]) -> Table:
    """Seat 0 to move with K♣ Q♦ A♠ (21 points), the pile's top 5♥; seat 1 holds ``theirs``, all of it
    known (taken from the pile), so every world gives seat 1 exactly that hand."""
    mine, top = cards("Kc", "Qd", "As"), cards("5h")
    stock = tuple(c for c in range(DECK_SIZE) if c not in mine + top + theirs)
    return Table.thaw(State(Rules(), 7, 2, True, 0, (mine, theirs), ((), theirs), stock, (), top, 1, 0, 6, 0,
                            (0, 0), (False, False), ()))


def leaf(value: float):
    """A stand-in network: every row valued ``value``."""
    return lambda x: np.full(len(x), value)


def test_close_throws_are_the_two_best_throws_within_the_margin_the_call_left_out():
    throw_a, throw_b, throw_c = (cards("Kc"), None), (cards("Qd"), None), (cards("As"), None)
    assert close_throws([throw_a, throw_b, throw_c], np.array([0.10, 0.50, 0.48])) == [1, 2]
    assert close_throws([throw_a, throw_b, throw_c], np.array([0.10, 0.50, 0.40])) == []
    assert close_throws([YANIV, throw_a, throw_b], np.array([0.90, 0.30, 0.29])) == [1, 2]
    assert close_throws([YANIV, throw_a], np.array([0.90, 0.30])) == []


def test_a_world_is_scored_by_the_replys_call_or_by_the_network_at_the_seats_next_turn():
    rng = random.Random(1)
    low = table(cards("Ad", "2h"))  # 3 points: Sage would call now, and seat 0 holds more whatever it throws
    for throw in [(cards("Kc"), None), (cards("As"), cards("5h")[0])]:
        assert after_turn(low, throw, leaf(1.0), rng) == 0.0  # the call's result, not the network's +1
    high = table(cards("Kd", "Kh"))  # 20 points: Sage may not call; the network's best value decides
    assert after_turn(high, (cards("Kc"), None), leaf(0.6), rng) == 0.8
    worlds = Worlds.of_state(high)  # type: ignore[arg-type]  # a Table reads as a State
    decisions = [(cards("Kc"), None), (cards("Qd"), None)]
    assert search(worlds, decisions, [0, 1], leaf(-0.5), rng, count=4).won == [0.25, 0.25]


def test_the_levels_searched_choice_and_reasoning_do_not_change_with_the_hidden_cards():
    level, rng, sage = Dmc(), random.Random(4), Sage(samples=50)
    searched = 0
    for d in range(30):
        state = G.new_deal(2, 8100 + d)
        while not G.is_over(state) and searched < 4:
            seat = G.current_player(state)
            view, legal = G.observe(state, seat), G.legal_actions(state)
            if seat == 0:
                action, why = level.act(view, legal, rng), level.explain(view, legal)
                if "one turn ahead" in why.note:
                    searched += 1
                    for _ in range(2):
                        other = G.resample_hidden(state, seat, rng)
                        assert other.hands[1] != state.hands[1] or other.stock != state.stock
                        again = Dmc()  # a fresh level: nothing remembered from the first
                        seen = G.observe(other, seat)
                        assert again.act(seen, legal, rng) == action and again.explain(seen, legal) == why
            else:
                action = sage.act(view, legal, rng)
            state = G.apply(state, action)
    assert searched == 4
