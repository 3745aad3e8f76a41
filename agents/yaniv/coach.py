"""The Yaniv coach: Sage, the strongest level, rates every legal move in points against you.

A throw (any group: a single, a set or part of one, a run; from the stock or the pile) is worth
minus the hand Sage expects the seat to hold after its *next* throw (the card from the pile is
known, the stock is averaged over the cards the seat has not seen): what Sage itself minimises.
Calling Yaniv is worth minus the points the call is expected to cost: the chance it is Assaf
(``CALL_SAMPLES`` random deals of the unseen cards to the others) times the seat's total plus
the Assaf penalty. Both are points the seat would count against itself, so one loss scale
serves every decision; the two are estimates of different horizons (a throw's looks one turn
ahead), which the unit says."""
from __future__ import annotations

import random
from typing import Any, Sequence

from agents.coach import Coach
from agents.yaniv.common import decision_id
from agents.yaniv.sage import Outlook, call_chance, discard_scores

CALL_SAMPLES = 400
"""Deals of the unseen cards sampled to rate a call (Sage plays with 200)."""


def values(observation: dict, legal_actions: Sequence[Any], chosen: str | None, rng: random.Random) -> dict[str, float]:
    outlook = Outlook.of(observation)
    legal = {a.id for a in legal_actions}
    rated = {decision_id(d): -score for d, score in discard_scores(outlook).items()}
    if "yaniv" in legal:
        assaf = 1.0 - call_chance(outlook, rng, CALL_SAMPLES)
        rated["yaniv"] = -assaf * (outlook.total(outlook.hand) + observation["options"]["assaf_penalty"])
    return {k: round(v, 3) for k, v in rated.items() if k in legal}


COACH = Coach("sage", "points against you (minus): for a throw, the hand Sage expects you to hold after your "
              "next throw; for a call, the chance of Assaf times your total plus the penalty",
              threshold=3.0, values=values, points="points")
