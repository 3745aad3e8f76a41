"""The Queen of Spades coach: the search level's mean points in the deal, each card tried in the
same sampled deals of the unseen cards (agreeing with the suits each seat has shown it lacks)
and played out by the network."""
from __future__ import annotations

import random
from typing import Sequence

from agents.coach import Coach
from agents.queen_of_spades.search import DeterminisedSearch

ROLLOUTS = 800
"""Deals played out per review: five times the level's 160, for steadier values (well under 2 s of
CPU per decision: ``parlour bench queen_of_spades``)."""

_search: list[DeterminisedSearch] = []


def values(observation: dict, legal_actions: Sequence, chosen: str | None, rng: random.Random) -> dict[str, float]:
    if not _search:
        _search.append(DeterminisedSearch(rollouts=ROLLOUTS))
    return {a.id: v for a, v in _search[0].values(observation, legal_actions, rng).items()}


COACH = Coach("search", "mean points in the deal (the search level's sampled deals)", threshold=0.25,
              values=values, points="points")
