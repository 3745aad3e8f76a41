"""The Yaniv coach: the Deep Monte-Carlo level (``dmc``), the strongest, rates every legal move by
the chance to win the deal.

Its network values the call and every (group, source), runs and parts of sets included, from
the seat's own view (``agents.yaniv.dmc_features``), averaged over the suits' renamings as the
level plays; a value is the deal's expected result for
the seat, +1 a win and -1 a loss, shown here as the chance to win, (value + 1) / 2 held within 0 and 1
(the network's estimate can stray a little past either end). How its
verdicts compare with the players' own moves: ``docs/measurements/coach.md``."""
from __future__ import annotations

import random
from typing import Any, Sequence

from agents.coach import Coach
from agents.yaniv.common import decision_id
from agents.yaniv.dmc import shipped_net, valued
from agents.yaniv.dmc_features import seen_of_view


def values(observation: dict, legal_actions: Sequence[Any], chosen: str | None, rng: random.Random) -> dict[str, float]:
    decisions, _, q = valued(shipped_net(), seen_of_view(observation))
    legal = {a.id for a in legal_actions}
    rated = {decision_id(d): min(1.0, max(0.0, (float(v) + 1) / 2)) for d, v in zip(decisions, q)}
    return {k: round(v, 4) for k, v in rated.items() if k in legal}


COACH = Coach("dmc", "chance to win the deal (the Deep Monte-Carlo network's value of each move)",
              threshold=0.1, values=values, points="in chance to win the deal")
