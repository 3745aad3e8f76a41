"""Fits Pythia's two logistic models and prints them as the code holds them.

``call``: at every turn where a seat may call, in two-player deals of Sage against Sage and
of Sage against the shipped Harel, the seat's ``belief.readings`` and whether the other's
total was above the seat's: one model per number of unknown cards (``belief.CALL_MODEL``).

``race``: in two-player deals of the behaviour player (Sage's throws with ``REACH``, the call
on ``belief.lowest_chance`` at Sage's thresholds; one throw in ``EXPLORE`` among its 4 best
instead) against Sage, Harel and itself, the ``Race`` row of every position its throws left
and its share of the deal's win (``race.RACE_MODEL``).

``PYTHONPATH=TREE python docs/measurements/yaniv_pythia_fit.py call`` (then ``race``) prints
the model; paste it into the module. Deal seeds and counts are the ones the shipped models
were fitted with; each part takes a few CPU minutes.
"""
from __future__ import annotations

import random
import sys

import numpy as np

from agents.yaniv import trained_harel
from agents.yaniv.belief import lowest_chance, readings
from agents.yaniv.common import STALL_TURNS, YANIV, seat_of_state
from agents.yaniv.lookahead import Worlds
from agents.yaniv.pythia import REACH
from agents.yaniv.race import Race
from agents.yaniv.sage import Outlook, Sage, after_next_throw, best_discard, others_threaten, ranked_discards
from engine.yaniv.rules import Rules, Table

EXPLORE = 0.15


def logistic(x: np.ndarray, y: np.ndarray, l2: float) -> np.ndarray:
    """Weights minimising the log loss (+ l2 |w|^2 / 2), by Newton's method."""
    w = np.zeros(x.shape[1])
    for _ in range(40):
        p = 1 / (1 + np.exp(-x @ w))
        w -= np.linalg.solve((x * (p * (1 - p))[:, None]).T @ x + l2 * np.eye(x.shape[1]), x.T @ (p - y) + l2 * w)
    return w


def opponent(name: str):
    return {"sage": Sage(), "harel": trained_harel()}[name]


def move(player, table: Table, rng: random.Random):
    return player.choose(seat_of_state(table) if player is not None and not isinstance(player, Sage)
                         else Outlook.of_state(table), rng)


def call_rows(opp: str, deals: int, seed: int) -> list[tuple[int, tuple[float, ...], bool]]:
    rules, sage, other, rng, rows = Rules(), Sage(), opponent(opp), random.Random(seed), []
    for i in range(deals):
        table, me = Table.new(2, seed * 1_000_000 + i, rules, True), i % 2
        while table.to_move is not None:
            seat = table.to_move
            player = sage if seat == me or opp == "sage" else other
            if player is sage and table.can_call():
                mine = rules.total(table.hands[seat])
                for r in readings(Worlds.of_state(table)):
                    rows.append((r.unknown, r.row(), rules.total(table.hands[1 - seat]) > mine))
            decision = move(player, table, rng)
            table.call() if decision is YANIV else table.discard(*decision)
    return rows


def behaviour(table: Table, rng: random.Random):
    """The player the race model was fitted on (see the module)."""
    worlds, outlook = Worlds.of_state(table), Outlook.of_state(table)
    if outlook.total(outlook.hand) <= outlook.limit:
        if outlook.turn >= STALL_TURNS:
            return YANIV
        if lowest_chance(worlds) >= (0.45 if others_threaten(outlook) else 0.75):
            return YANIV
    if rng.random() < EXPLORE:
        order = ranked_discards(outlook, REACH)[0][:4]
        return order[rng.randrange(len(order))]
    return best_discard(outlook, REACH)[0]


def race_rows(opp: str, deals: int, seed: int) -> list[tuple[tuple[float, ...], float]]:
    rules, rng, rows = Rules(), random.Random(seed), []
    other = None if opp == "self" else opponent(opp)
    for i in range(deals):
        table, me, left = Table.new(2, seed * 1_000_000 + i, rules, True), i % 2, []
        while table.to_move is not None:
            seat = table.to_move
            if seat == me or other is None:
                race = Race(Worlds.of_state(table), Outlook.of_state(table))
                decision = behaviour(table, rng)
                if decision is not YANIV:
                    table.discard(*decision)
                    hand = table.hands[seat]
                    left.append((seat, race.row(rules.total(hand), len(hand), after_next_throw(hand, rules.values))))
                    continue
            else:
                decision = move(other, table, rng)
            table.call() if decision is YANIV else table.discard(*decision)
        won = table.results[-1].winners
        rows += [(row, 1 / len(won) if seat in won else 0.0) for seat, row in left]
    return rows


def main(part: str) -> None:
    if part == "call":
        rows = call_rows("sage", 20_000, 511) + call_rows("harel", 20_000, 512)
        print("CALL_MODEL: dict[int, tuple[float, ...]] = {")
        for u in range(1, 6):
            mine = [(r, y) for k, r, y in rows if k == u]
            w = logistic(np.array([r for r, _ in mine]), np.array([y for _, y in mine], float), 1e-3)
            print(f"    {u}: ({', '.join(f'{v:.3f}' for v in w)}),  # {len(mine)} turns")
        print("}")
    else:
        rows = race_rows("sage", 16_000, 601) + race_rows("self", 5_000, 602) + race_rows("harel", 6_000, 603)
        w = logistic(np.array([r for r, _ in rows]), np.array([y for _, y in rows]), 1e-2)
        print(f"RACE_MODEL: tuple[float, ...] = ({', '.join(f'{v:.3f}' for v in w)})  # {len(rows)} positions")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "call")
