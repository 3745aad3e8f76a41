"""``parlour bench uno [--peers] [--json] [--seconds S] [--repeats R]``

Timed on one core (single-threaded code), for 2 and 4 players:

- **random deals, rules core**: whole deals on ``engine.uno.rules.Table`` (the
  code ``Uno.apply`` runs, without copying the state in and out), each deck
  shuffled from the deal's seed exactly as ``Uno.new_deal`` does;
- **random deals, public API**: the same through ``new_deal``, ``legal_actions``
  and ``apply`` (a new immutable state per move);
- **heuristic deals**: four BetterOffensive players in ``agents.uno.arena`` (what
  training and the search's rollouts run);
- **search move time**: the Monte Carlo search levels' time per decision (``mcts``
  and the top level ``mcts-bo``) with
  more than one sensible move, median and slowest, on positions from seeded deals;
  the Deep Monte-Carlo level's likewise (``act`` on a view, decisions it values: ten
  times as many).

Random play means: a uniformly random legal play if there is one (a wild's four
colours are four plays), else draw, and after drawing play the drawn card if
possible, else pass. That is the policy of RLCard's random agent on its Uno, whose
legal actions hold ``draw`` only when nothing can be played. With ``--peers`` RLCard's
Uno game (``rlcard.games.uno.game.UnoGame``) and OpenSpiel's ``crazy_eights``
(uniformly random legal moves and chance outcomes, ``apply_action`` in place) run
the same way, if installed (the ``bench`` extra); otherwise a line says so.

Each rate is the best of ``--repeats`` runs of at least ``--seconds`` of CPU time,
per second of this process's CPU time and of wall-clock time.
"""
from __future__ import annotations

import random
import statistics
from typing import Callable, Sequence


from agents.catalog import make_agent
from agents.bench.report import CardBench, card_bench_main, openspiel_random_deals, peer
from agents.bench.timing import Result, Row, Timed, deals_until, measure_rows
from agents.uno.arena import play_deal
from agents.uno.heuristics import BetterOffensive
from agents.uno.play import hand_codes
from agents.uno.search import sensible
from engine import get_game
from engine.uno.actions import DRAW, Action
from engine.uno.rules import OVER, Rules
from engine.uno.rules import Table as RulesTable

GOAL = 10_000  # two-player random deals per second on one core (issue 3)
SEARCH_LEVELS = {"mcts": "search level", "mcts-bo": "top level (search, BetterOffensive playouts)"}


# ----- ours -----
def core_deals(players: int, n: int, rng: random.Random) -> Callable[[], tuple[int, int]]:
    rules = Rules()
    seeds = iter(range(10**9))
    rand = rng.random

    def chunk() -> tuple[int, int]:
        moves = 0
        for _ in range(n):
            table = RulesTable.new(players, next(seeds), rules, single=True)
            legal, step = table.legal, table.step
            while table.phase != OVER:
                codes = legal()  # plays first, then draw or pass (default rules: nothing else)
                step(codes[int(rand() * (len(codes) - 1))] if codes[0] < DRAW else codes[int(rand() * len(codes))])
            moves += table.moves  # a single deal: its moves are all the steps made
        return n, moves

    return chunk


def api_deals(players: int, n: int, rng: random.Random) -> Callable[[], tuple[int, int]]:
    game = get_game("uno")
    seeds = iter(range(10**9))

    def chunk() -> tuple[int, int]:
        moves = 0
        for _ in range(n):
            state = game.new_deal(players, next(seeds))
            while not game.is_over(state):
                legal = game.legal_actions(state)
                plays = [a for a in legal if a.code < DRAW]
                options = plays or legal
                state = game.apply(state, options[rng.randrange(len(options))])
                moves += 1
        return n, moves

    return chunk


def heuristic_deals(players: int, n: int, rng: random.Random) -> Callable[[], tuple[int, int]]:
    rules = Rules()
    seats = [BetterOffensive()] * players
    seeds = iter(range(10**9))

    def chunk() -> tuple[int, int]:
        moves = 0
        for _ in range(n):
            moves += play_deal(RulesTable.new(players, next(seeds), rules, single=True), seats, rng)
        return n, moves

    return chunk


class TimedWhereValued:
    """Seat 0 of the move-time deals: ``agent`` where ``valued(legal codes, view)`` (timed, the
    first ``decisions`` of them), BetterOffensive elsewhere."""

    name = "timed"

    def __init__(self, agent, valued: Callable[[list[int], dict], bool], decisions: int):
        self.timed = Timed(agent, decisions)
        self.valued = valued
        self.other = BetterOffensive()

    def act(self, view: dict, legal: Sequence[Action], rng: random.Random) -> Action:
        if not self.timed.full and self.valued([a.code for a in legal], view):
            return self.timed.act(view, legal, rng)
        return self.other.act(view, legal, rng)


def decision_times(agent, valued: Callable[[list[int], dict], bool], players: int, decisions: int,
                   seed: int) -> dict:
    """Seconds per ``agent.act`` at seat 0 on the decisions ``valued`` picks (the others
    BetterOffensive), on positions from seeded deals."""
    seat = TimedWhereValued(agent, valued, decisions)
    deals_until(lambda: seat.timed.full, get_game("uno"), players, [seat] + [seat.other] * (players - 1), seed,
                random.Random(seed))
    times = sorted(seat.timed.times)
    return {"players": players, "decisions": len(times),
            "median_ms": round(1000 * statistics.median(times), 2),
            "p95_ms": round(1000 * times[int(0.95 * (len(times) - 1))], 2),
            "max_ms": round(1000 * times[-1], 2)}


def search_times(players: int, decisions: int, seed: int, level: str = "mcts") -> dict:
    """Seconds per searched decision of a Monte Carlo level (the catalog's ``mcts`` or ``mcts-bo``)."""
    searcher = make_agent("uno", level)
    times = decision_times(searcher, lambda legal, view: len(sensible(legal, hand_codes(view))) > 1,
                           players, decisions, seed)
    return {**times, "level": SEARCH_LEVELS[level], "budget": searcher.budget}


def dmc_times(players: int, decisions: int, seed: int) -> dict:
    """Seconds per decision the Deep Monte-Carlo level values (two or more candidates)."""
    from agents.uno.dmc import Dmc
    from agents.uno.dmc_features import candidate_codes, phase_code, rule_action

    def valued(legal: list[int], view: dict) -> bool:
        hand = hand_codes(view)
        return rule_action(phase_code(view), legal, hand) is None and len(candidate_codes(legal, hand)) > 1

    return {**decision_times(Dmc(), valued, players, decisions, seed), "level": "Deep Monte-Carlo level"}


# ----- peers -----
def rlcard_deals(players: int, n: int, rng: random.Random) -> Callable[[], tuple[int, int]]:
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    game = UnoGame(num_players=players)
    game.np_random = np.random.RandomState(1)

    def chunk() -> tuple[int, int]:
        moves = 0
        for _ in range(n):
            game.init_game()
            while not game.is_over():
                legal = game.get_legal_actions()
                game.step(legal[rng.randrange(len(legal))])
                moves += 1
        return n, moves

    return chunk


def run(peers: bool, seconds: float, repeats: int, decisions: int,
        progress: Callable[[str], None]) -> tuple[list[Result], list[dict], list[str]]:
    rng = random.Random(1)
    rows: list[Row] = []
    notes: list[str] = []
    for players in (2, 4):
        rows += [Row(f"{players}p random deals, rules core", "deals/s", core_deals(players, 200, rng),
                     note="Table.legal/step, deck shuffled from the seed"),
                 Row(f"{players}p random deals, public API", "deals/s", api_deals(players, 50, rng),
                     note="new_deal/legal_actions/apply"),
                 Row(f"{players}p BetterOffensive deals", "deals/s", heuristic_deals(players, 100, rng),
                     note="agents.uno.arena")]
    if peers:
        version, note = peer("RLCard", "rlcard", "rlcard.games.uno.game")
        if version:
            rows += [Row(f"{players}p RLCard {version} Uno", "deals/s", rlcard_deals(players, 50, rng), peer=True,
                         note="UnoGame, random legal action") for players in (2, 4)]
        else:
            notes.append(note)
        version, note = peer("OpenSpiel", "open_spiel", "pyspiel")
        if version:
            rows += [Row(f"{players}p OpenSpiel {version} crazy_eights", "deals/s",
                         openspiel_random_deals("crazy_eights", {"players": players}, 50, rng), peer=True,
                         note="C++ game, random legal move") for players in (2, 4)]
        else:
            notes.append(note)
    results = measure_rows(rows, seconds, repeats, progress)
    latency = []
    if decisions:
        for level, title in SEARCH_LEVELS.items():
            for players in (2, 4):
                progress(f"{title} move time, {players} players")
                latency.append(search_times(players, decisions, 1, level))
        for players in (2, 4):
            progress(f"Deep Monte-Carlo move time, {players} players")
            latency.append(dmc_times(players, 10 * decisions, 1))
    return results, latency, notes


def goal(results: list[Result]) -> tuple[dict, str]:
    core2 = results[0].per_cpu_second
    return ({"goal": GOAL, "two_player_core": round(core2), "met": core2 >= GOAL},
            f"goal >= {GOAL:,} two-player random deals/s on one core (rules core): {{verdict}} ({core2:,.0f})")


def search_lines(latency: list[dict]) -> list[str]:
    lines = []
    for point in latency:
        budget = f", budget {point['budget']:,} moves" if "budget" in point else ""
        lines.append(f"{point['level']}, {point['players']} players{budget}: median {point['median_ms']} ms, "
                     f"95th percentile {point['p95_ms']} ms, slowest {point['max_ms']} ms per decision "
                     f"({point['decisions']} decisions)")
    return lines


BENCH = CardBench("Uno", "uno", __doc__ or "", run, goal, "also run RLCard's Uno and OpenSpiel's crazy_eights",
                  decisions=60, decisions_help="searched decisions timed per player count", latency_key="search",
                  latency_lines=search_lines)


def main(argv: list[str] | None = None, prog: str = "parlour bench uno") -> int:
    return card_bench_main(BENCH, argv, prog)
