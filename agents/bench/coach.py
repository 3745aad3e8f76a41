"""The coach's review time per decision (``parlour bench <game>`` prints it as a row).

Seat 0 plays Random in seeded single deals against the game's middle level; every decision
of seat 0 with more than one legal move is reviewed from its observation, timed on one core
(CPU time of this process) and by the wall clock, after one untimed review that loads the
coach's files. The coach's budget is 2 s per decision."""
from __future__ import annotations

import random
import statistics
import time
from typing import Any, Sequence

from agents.base import RandomAgent
from agents.bench.timing import deals_until
from agents.catalog import coach, levels, make_agent
from agents.coach import Coach, is_mistake, review
from engine import get_game

BUDGET_S = 2.0


class Reviewed:
    """Seat 0: Random, the first ``decisions`` of its moves with a choice reviewed by the coach
    (timed: CPU and wall seconds)."""

    name = "random"

    def __init__(self, the_coach: Coach, decisions: int):
        self.coach, self.decisions, self.me = the_coach, decisions, RandomAgent()
        self.cpu: list[float] = []
        self.wall: list[float] = []
        self.flagged = 0

    @property
    def full(self) -> bool:
        return len(self.cpu) >= self.decisions

    def act(self, view: dict, legal: Sequence[Any], rng: random.Random) -> Any:
        action = self.me.act(view, legal, rng)
        if len(legal) > 1 and not self.full:
            c0, w0 = time.process_time(), time.perf_counter()
            verdict = review(self.coach, 0, view, legal, action.id, random.Random(len(self.cpu)))
            self.cpu.append(time.process_time() - c0)
            self.wall.append(time.perf_counter() - w0)
            self.flagged += is_mistake(self.coach, verdict.loss)
        return action


def review_times(game_name: str, decisions: int = 20, seed: int = 1) -> dict:
    """Median and slowest review of ``decisions`` reviewed decisions, in CPU and wall ms, and the
    share of them flagged as mistakes."""
    game, the_coach = get_game(game_name), coach(game_name)
    ids = levels(game_name)
    other = make_agent(game_name, ids[len(ids) // 2])
    warm = game.new_deal(2 if game.max_players == 2 else game.min_players, seed)  # loads the coach's files
    review(the_coach, 0, game.observe(warm, game.current_player(warm)), game.legal_actions(warm),
           game.legal_actions(warm)[0].id, random.Random(0))
    me = Reviewed(the_coach, decisions)
    players = game.min_players if game.min_players > 2 or game.max_players == 2 else 3
    deals_until(lambda: me.full, game, players, [me] + [other] * (players - 1), seed * 1000, random.Random(seed))
    cpu, wall, flagged = me.cpu, me.wall, me.flagged
    return {"game": game_name, "decisions": len(cpu), "agent": the_coach.agent,
            "median_cpu_ms": round(1000 * statistics.median(cpu), 1), "max_cpu_ms": round(1000 * max(cpu), 1),
            "median_wall_ms": round(1000 * statistics.median(wall), 1), "max_wall_ms": round(1000 * max(wall), 1),
            "mistakes": flagged, "within_budget": max(cpu) <= BUDGET_S}


def line(times: dict) -> str:
    """The row a bench prints."""
    return (f"coach review ({times['agent']}), {times['decisions']} decisions of a Random player: median "
            f"{times['median_cpu_ms']:,.1f} ms, slowest {times['max_cpu_ms']:,.1f} ms of CPU per decision "
            f"(wall {times['median_wall_ms']:,.1f} / {times['max_wall_ms']:,.1f} ms); budget "
            f"{BUDGET_S:g} s: {'met' if times['within_budget'] else 'NOT met'}; "
            f"{times['mistakes']} flagged as mistakes")


def add_option(parser) -> None:
    parser.add_argument("--reviews", type=int, default=20,
                        help="decisions the coach reviews, timed (default 20; 0 skips the row)")


def measured(game_name: str, reviews: int) -> dict | None:
    if reviews < 0:
        raise SystemExit("--reviews must be at least 0")
    return review_times(game_name, reviews) if reviews else None
