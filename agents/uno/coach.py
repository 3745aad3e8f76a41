"""The Uno coach: the top level's search (BetterOffensive's rule in its playouts, ``mcts-bo``) rates each
move, the one made included, by its chance to win the deal, every move played out in the same sampled
deals of the cards the seat cannot see."""
from __future__ import annotations

import random
from typing import Sequence

from agents.coach import Coach
from agents.uno.heuristics import BetterOffensive
from agents.uno.search import MonteCarloSearch

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


COACH = Coach("mcts-bo", "chance to win the deal (the top level's search: sampled deals of the unseen cards "
              "played out by BetterOffensive's rule)", threshold=0.1, values=values, points="in chance to win the deal")
