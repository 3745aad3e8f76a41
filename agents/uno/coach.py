"""The Uno coach: it judges with the top level (``mcts-dmc``, ``agents.uno.top``), as that level plays at the
table's size.

- **Two and three seats**: the top level's search (BetterOffensive's rule in its playouts, as ``mcts-bo``) rates
  each move, the one made included, by its chance to win the deal, every move played out in the same
  sampled deals of the cards the seat cannot see.
- **Four seats or more**: the top level's four networks rate the moves they choose among (the plays, a wild
  naming the colour the hand holds most, drawing when nothing plays, passing on a card just drawn) by the
  deal's expected points for the seat, as the level plays them. The moves the level makes by rule
  (naming another colour, drawing while a card plays, not calling UNO) are not rated: the review says so
  and names the move the level prefers.
"""
from __future__ import annotations

import random
from functools import lru_cache
from typing import Sequence

from agents.coach import Coach
from agents.uno.dmc import Dmc, big_tables_net
from agents.uno.heuristics import BetterOffensive
from agents.uno.search import MonteCarloSearch
from agents.uno.top import NETWORK_SEATS

BUDGET = 40_000
"""Rules-table moves per review: eight times the level's 5,000, for steadier values (``parlour bench uno``
times a review)."""

_search: list[MonteCarloSearch] = []


def searched_values(search: MonteCarloSearch, observation: dict, legal_actions: Sequence, chosen: str | None,
                    rng: random.Random) -> dict[str, float]:
    """Each move's share of the sampled deals won under ``search`` (the move made always searched)."""
    extra = tuple(a.code for a in legal_actions if a.id == chosen)
    stats = search.search(observation, [a.code for a in legal_actions], rng, extra=extra)
    ids = {a.code: a.id for a in legal_actions}
    return {ids[code]: wins / n for code, (wins, n, _) in stats.items() if n}


def values(observation: dict, legal_actions: Sequence, chosen: str | None, rng: random.Random) -> dict[str, float]:
    if not _search:
        _search.append(MonteCarloSearch(budget=BUDGET, rollout=BetterOffensive(), objective="deal"))
    return searched_values(_search[0], observation, legal_actions, chosen, rng)


@lru_cache(maxsize=None)
def _networks() -> Dmc:
    return Dmc(big_tables_net())


def network_values(observation: dict, legal_actions: Sequence, chosen: str | None,
                   rng: random.Random) -> dict[str, float]:
    """The top level's values at a big table, in points: none when a rule decides, as the level does."""
    return _networks().option_values(observation, legal_actions)


COACH = Coach("mcts-bo", "chance to win the deal (the top level's search: sampled deals of the unseen cards "
              "played out by BetterOffensive's rule)", threshold=0.1, values=values, points="in chance to win the deal")

BIG_TABLE_COACH = Coach("mcts-dmc", "expected points from the deal (the top level's four networks: what you win when "
                        "you go out, minus your hand when another player does)", threshold=5.0, values=network_values,
                        points="points")


def coach_at(players: int) -> Coach:
    """The coach of a table of ``players``: the networks' from ``NETWORK_SEATS`` (four) on, where the top level plays by them."""
    return BIG_TABLE_COACH if players >= NETWORK_SEATS else COACH
