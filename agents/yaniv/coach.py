"""The Yaniv coach: Pythia, the strongest level, rates every legal move by the chance to win the deal.

A throw (any group: a single, a set or part of one, a run; from the stock or the pile) is worth
the chance of winning the deal from the hand it leaves (``pythia.waiting_chance``: Pythia's race
model, the stock's cards averaged over the cards the seat has not seen); calling Yaniv is worth
the chance that the seat's total is strictly the lowest (``belief.lowest_chance``, which knows the
others have been throwing their high cards). These are the two chances Pythia weighs when it may
call, so the call and the throws share one scale. Pythia throws by its own score (Sage's hand after
the next throw, less its reach term); over 884 of its decisions against Sage the coach's best move
was its own in 747, and none of them lost 0.1 (``docs/measurements/coach.md``)."""
from __future__ import annotations

import random
from typing import Any, Sequence

from agents.coach import Coach
from agents.yaniv.belief import lowest_chance
from agents.yaniv.common import decision_id
from agents.yaniv.lookahead import Worlds
from agents.yaniv.pythia import REACH, waiting_chance
from agents.yaniv.sage import Outlook, discard_scores


def values(observation: dict, legal_actions: Sequence[Any], chosen: str | None, rng: random.Random) -> dict[str, float]:
    worlds, outlook = Worlds.of(observation), Outlook.of(observation)
    legal = {a.id for a in legal_actions}
    rated = {decision_id(t): waiting_chance(worlds, outlook, t) for t in discard_scores(outlook, REACH)}
    if "yaniv" in legal:
        rated["yaniv"] = lowest_chance(worlds)
    return {k: round(v, 4) for k, v in rated.items() if k in legal}


COACH = Coach("pythia", "chance to win the deal: for a throw, from the hand it leaves (Pythia's race model); "
              "for a call, that your total is strictly the lowest", threshold=0.1, values=values,
              points="in chance to win the deal")
