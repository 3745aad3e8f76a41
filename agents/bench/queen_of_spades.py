"""``parlour bench queen_of_spades [--peers] [--json] [--seconds S] [--repeats R] [--decisions D]``

Timed on one core (single-threaded code):

- **random deals, rules core**: whole deals on ``engine.queen_of_spades.rules.Table``
  (the code ``QueenOfSpades.apply`` runs, without copying the state in and out), a
  uniformly random legal card each play, each deck shuffled from the deal's seed
  exactly as ``new_deal`` does (``chance(seed, "deal", 0)``). Goal: 15,000 deals/s;
- **random deals, rules core, decks from one generator**: the same with each deck
  shuffled from one running generator (how a training loop deals, without seeding a
  generator per deal);
- **random deals, public API**: ``new_deal``, ``legal_actions`` and ``apply`` (a new
  immutable state per card);
- **rule player deals**: four rule players deciding on the table (``of_table`` +
  ``choose``: the decisions their ``act`` makes, without building views);
- **rule player move time**: its ``act`` on a view (what the server calls).

With ``--peers`` OpenSpiel's ``hearts`` (Python API over its C++ game: its pass
direction set to "No Pass", chance nodes deal card by card, a uniformly random legal
move each turn, applied in place) runs the same way, if the ``bench`` extra is installed; otherwise a line says so.
Hearts is the nearest four-player trick-taking game OpenSpiel has (52 cards, 13 tricks).

The network levels add their figures (move time at batch 1, positions per second at
batch 1024, self-play deals per second) from ``agents.bench.queen_of_spades_network``.

Each rate is the best of ``--repeats`` runs of at least ``--seconds`` of CPU time, per
second of this process's CPU time and of wall-clock time.
"""
from __future__ import annotations

import random
import statistics
import sys
from typing import Callable


from agents.bench import queen_of_spades_network
from agents.bench.report import CardBench, card_bench_main, openspiel_random_deals, peer
from agents.bench.timing import Result, Row, Timed, deals_until, measure_rows
from agents.queen_of_spades.rules_player import RulePlayer, choose
from agents.queen_of_spades.seen import of_table
from engine import get_game
from engine.kernel import shuffled
from engine.queen_of_spades.rules import DECK, PLAYERS, Rules
from engine.queen_of_spades.rules import Table as RulesTable

GOAL = 15_000  # random-play deals per second on one core, rules core (issue 9)
GAME = get_game("queen_of_spades")


# ----- ours -----
def core_deals(n: int, rng: random.Random, seeded: bool = True) -> Callable[[], tuple[int, int]]:
    rules = Rules()
    seeds = iter(range(10**9))
    rand = rng.random

    def chunk() -> tuple[int, int]:
        for _ in range(n):
            table = (RulesTable.new(PLAYERS, next(seeds), rules) if seeded else
                     RulesTable.new(PLAYERS, 0, rules, deck=shuffled(DECK, rng)))
            legal, play = table.legal, table.step
            while table.to_move is not None:
                cards = legal()
                play(cards[int(rand() * len(cards))])
        return n, 32 * n

    return chunk


def api_deals(n: int, rng: random.Random) -> Callable[[], tuple[int, int]]:
    seeds = iter(range(10**9))

    def chunk() -> tuple[int, int]:
        for _ in range(n):
            state = GAME.new_deal(4, next(seeds))
            while not GAME.is_over(state):
                legal = GAME.legal_actions(state)
                state = GAME.apply(state, legal[rng.randrange(len(legal))])
        return n, 32 * n

    return chunk


def rule_deals(n: int) -> Callable[[], tuple[int, int]]:
    rules = Rules()
    seeds = iter(range(10**9))

    def chunk() -> tuple[int, int]:
        for _ in range(n):
            table = RulesTable.new(PLAYERS, next(seeds), rules)
            while table.to_move is not None:
                table.step(choose(of_table(table)))
        return n, 32 * n

    return chunk


def move_times(decisions: int, seed: int) -> dict:
    """Seconds per ``act`` call of the rule player (every seat of seeded deals)."""
    timed = Timed(RulePlayer(), decisions)
    deals_until(lambda: timed.full, GAME, 4, [timed] * 4, seed, random.Random(seed))
    times = sorted(timed.times)
    return {"agent": "rules", "decisions": len(times),
            "median_us": round(1e6 * statistics.median(times), 1), "max_us": round(1e6 * times[-1], 1)}


def run(peers: bool, seconds: float, repeats: int, decisions: int,
        progress: Callable[[str], None]) -> tuple[list[Result], list[dict], list[str]]:
    rng = random.Random(1)
    notes: list[str] = []
    rows = [Row("random deals, rules core", "deals/s", core_deals(200, rng),
                note="Table.legal/play; each deck shuffled from the deal's seed"),
            Row("random deals, rules core, decks from one generator", "deals/s", core_deals(200, rng, seeded=False),
                note="as a training loop deals"),
            Row("random deals, public API", "deals/s", api_deals(20, rng), note="new_deal/legal_actions/apply"),
            Row("rule player deals", "deals/s", rule_deals(20), note="four rule players on the table (of_table + choose)")]
    if peers:
        version, note = peer("OpenSpiel", "open_spiel", "pyspiel")
        if version:
            rows.append(Row(f"OpenSpiel {version} hearts", "deals/s", openspiel_random_deals("hearts", {}, 20, rng, first=0),
                            peer=True, note="C++ game via pyspiel, no passing, random moves"))
        else:
            notes.append(note)
    results = measure_rows(rows, seconds, repeats, progress)
    latency = [move_times(decisions, 1)] if decisions else []
    more, times = queen_of_spades_network.figures(seconds, repeats, decisions, progress)
    results += more
    latency += times
    return results, latency, notes


def goal(results: list[Result]) -> tuple[dict, str]:
    core = results[0].per_cpu_second
    return ({"goal": GOAL, "rules_core": round(core), "met": core >= GOAL},
            f"goal >= {GOAL:,} random deals/s on one core (rules core, seeded decks): {{verdict}} ({core:,.0f})")


BENCH = CardBench("Queen of Spades", "queen_of_spades", __doc__ or "", run, goal, "also run OpenSpiel's hearts",
                  decisions=400)


def main(argv: list[str] | None = None, prog: str = "parlour bench queen_of_spades") -> int:
    return card_bench_main(BENCH, argv, prog)


if __name__ == "__main__":
    sys.exit(main())
