"""The Uno coach: the Monte Carlo search level's chance to win the deal, each move (the one made
included) played out in the same sampled deals of the cards the seat cannot see."""
from __future__ import annotations

import random
from typing import Sequence

from agents.coach import Coach
from agents.uno.search import MonteCarloSearch

BUDGET = 80_000
"""Rules-table moves per review: twice the level's 40,000, for steadier values (well under 2 s of CPU
per decision: ``parlour bench uno``)."""

_search: list[MonteCarloSearch] = []


def values(observation: dict, legal_actions: Sequence, chosen: str | None, rng: random.Random) -> dict[str, float]:
    if not _search:
        _search.append(MonteCarloSearch(budget=BUDGET, objective="deal"))
    extra = tuple(a.code for a in legal_actions if a.id == chosen)
    stats = _search[0].search(observation, [a.code for a in legal_actions], rng, extra=extra)
    ids = {a.code: a.id for a in legal_actions}
    return {ids[code]: wins / n for code, (wins, n, _) in stats.items() if n}


COACH = Coach("mcts", "chance to win the deal (Monte Carlo search, sampled deals of the unseen cards)",
              threshold=0.1, values=values, points="in chance to win the deal")
