"""How far a coach's verdicts can be trusted, for the two coaches that judge by a chance to win.

``python docs/measurements/coach_verdicts.py uno`` reviews 60 decisions of a Random player (two-player
deals 900-919) with the shipped Uno coach and with the same search at four times its budget (other
random streams), and prints the mean gap between the two losses and how often one calls the move a
mistake where the other does not. ``--old`` does the same for the coach before session 12 (the search
with Tactician's playouts, 80,000 moves against 320,000).

``python docs/measurements/coach_verdicts.py yaniv PLAYER`` plays 150 two-player deals (5000-5149) of
PLAYER (seat 0) against Sage and, over PLAYER's decisions with a choice, prints how often the coach's
best move was the one PLAYER made, the mean loss the coach gives PLAYER's moves, and how many lose at
least 0.05 and 0.1 (the threshold).

``python docs/measurements/coach_verdicts.py uno-five PLAYER`` does the same for the Uno coach at five
seats (the top level's networks, in points): 60 five-seat deals (7000-7059) of PLAYER (seat 0) against the
perceptron, BetterOffensive, Offensive and Defensive, with the losses counted at 2, 5 and 10 points, and
the decisions the coach does not rate (the level's rule makes them), and the CPU time of a review.
``uno-four PLAYER``: the same at the write-up's four-seat table (against the perceptron, Offensive and
Defensive; deals 7100-7159)."""
from __future__ import annotations

import random
import statistics
import sys
import time
from functools import partial

from agents.base import RandomAgent
from agents.catalog import coach, make_agent
from agents.coach import Coach, review
from agents.uno.coach import searched_values
from agents.uno.heuristics import BetterOffensive
from agents.uno.search import MonteCarloSearch
from engine import get_game


def searched(search: MonteCarloSearch):
    return partial(searched_values, search)


def uno(old: bool) -> None:
    game, shipped = get_game("uno"), coach("uno")
    if old:
        budget, rollout = 80_000, None
        judge = Coach("mcts", "", shipped.threshold, searched(MonteCarloSearch(budget=budget, objective="deal")))
    else:
        from agents.uno.coach import BUDGET as budget
        rollout, judge = BetterOffensive(), shipped
    kwargs = {} if rollout is None else {"rollout": rollout}
    steady = Coach("reference", "", judge.threshold,
                   searched(MonteCarloSearch(budget=4 * budget, objective="deal", **kwargs)))
    me, rng = RandomAgent(), random.Random(5)
    gaps, differ, mistakes = [], 0, 0
    for deal in range(20):
        state = game.new_deal(2, 900 + deal)
        while not game.is_over(state) and len(gaps) < 60:
            seat, legal = game.current_player(state), game.legal_actions(state)
            action = me.act(game.observe(state, seat), legal, rng)
            if seat == 0 and len(legal) > 2:
                view = game.observe(state, seat)
                a = review(judge, 0, view, legal, action.id, random.Random(len(gaps))).loss
                b = review(steady, 0, view, legal, action.id, random.Random(10_000 + len(gaps))).loss
                if a is not None and b is not None:
                    gaps.append(abs(a - b))
                    mistakes += b >= judge.threshold
                    differ += (a >= judge.threshold) != (b >= judge.threshold)
            state = game.apply(state, action)
    print(f"{judge.agent} at {budget:,} moves against {4 * budget:,}: {len(gaps)} decisions, mean |loss gap| "
          f"{statistics.mean(gaps):.3f}, largest {max(gaps):.3f}; mistakes by the reference {mistakes}, "
          f"verdicts that differ {differ}")


TABLES = {5: (["perceptron", "betteroffensive", "offensive", "defensive"], 7000),
              4: (["perceptron", "offensive", "defensive"], 7100)}
"""Seats: the others at the write-up's table of that size, and the first deal's seed."""


def uno_big(player: str, seats: int) -> None:
    game, judge = get_game("uno"), coach("uno", seats)
    others, first = TABLES[seats]
    me, rest, rng = make_agent("uno", player), [make_agent("uno", o) for o in others], random.Random(3)
    losses, agree, unrated, over, cpu = [], 0, 0, {2.0: 0, 5.0: 0, 10.0: 0}, []
    for deal in range(60):
        state = game.new_deal(seats, first + deal)
        while not game.is_over(state):
            seat, legal = game.current_player(state), game.legal_actions(state)
            view = game.observe(state, seat)
            action = (me if seat == 0 else rest[seat - 1]).act(view, legal, rng)
            if seat == 0 and len(legal) > 1:
                start = time.process_time()
                verdict = review(judge, 0, view, legal, action.id, random.Random(0))
                cpu.append(time.process_time() - start)
                if verdict.loss is None:
                    unrated += 1
                elif verdict.best_value is not None:
                    losses.append(verdict.loss)
                    agree += verdict.best == action.id
                    for bound in over:
                        over[bound] += verdict.loss >= bound
            state = game.apply(state, action)
    print(f"{player} at {seats} seats, judged by {judge.agent}: {len(losses)} decisions rated ({unrated} not rated), "
          f"the coach's best was the move made in {agree}; mean loss {statistics.mean(losses):.2f} points, largest "
          f"{max(losses):.1f}; losing at least 2: {over[2.0]}, 5: {over[5.0]}, 10: {over[10.0]}; review CPU "
          f"{1000 * statistics.median(cpu):.2f} ms at the median, {1000 * max(cpu):.2f} ms at most")


def yaniv(player: str) -> None:
    game, judge = get_game("yaniv"), coach("yaniv")
    me, sage, rng = make_agent("yaniv", player), make_agent("yaniv", "sage"), random.Random(3)
    losses, agree, over = [], 0, {0.05: 0, 0.1: 0}
    for deal in range(150):
        state = game.new_deal(2, 5000 + deal)
        while not game.is_over(state):
            seat, legal = game.current_player(state), game.legal_actions(state)
            view = game.observe(state, seat)
            action = (me if seat == 0 else sage).act(view, legal, rng)
            if seat == 0 and len(legal) > 1:
                verdict = review(judge, 0, view, legal, action.id, random.Random(0))
                if verdict.loss is not None and verdict.best_value is not None:
                    losses.append(verdict.loss)
                    agree += verdict.best == action.id
                    for bound in over:
                        over[bound] += verdict.loss >= bound
            state = game.apply(state, action)
    print(f"{player} against sage, judged by {judge.agent}: {len(losses)} decisions, the coach's best was the move "
          f"made in {agree}; mean loss {statistics.mean(losses):.4f}, largest {max(losses):.3f}; "
          f"losing at least 0.05: {over[0.05]}, at least 0.1: {over[0.1]}")


if __name__ == "__main__":
    if sys.argv[1] == "uno":
        uno("--old" in sys.argv)
    elif sys.argv[1] in ("uno-four", "uno-five"):
        uno_big(sys.argv[2], 4 if sys.argv[1] == "uno-four" else 5)
    else:
        yaniv(sys.argv[2])
