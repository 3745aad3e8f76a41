"""How a hand stands in the race to call: the value of the position a throw leaves.

Two-player deals between good players are a race: the first to hold at most the Yaniv
limit calls and nearly always wins. ``Race`` reads what the seat sees after its throw and
draw (its own hand; the others' counts, known cards and turns; whether one of them could
call next) and a logistic model (``RACE_MODEL``, fitted on deals played out to their end:
``docs/measurements/yaniv_pythia_fit.py``) turns it into the chance of winning the deal.
"""
from __future__ import annotations

import math

from agents.yaniv.belief import chance_above, readings
from agents.yaniv.lookahead import Worlds
from agents.yaniv.sage import Outlook, others_threaten

RACE_FEATURES = ("bias", "total", "cards", "after next throw", "may call", "may call after next throw",
                 "nearest's cards", "nearest's known", "others' most turns", "threatened", "threatened x total",
                 "threatened x may call", "chance not below", "threatened x chance not below")
RACE_MODEL: tuple[float, ...] = (-1.872, 0.278, -0.975, -1.110, -5.511, 0.318, 3.762, 0.049, -0.811, 0.248, -0.556, 3.888, 7.692, -3.435)
"""The logistic weights of ``RACE_FEATURES``, fitted on 183,695 positions (see the module)."""


class Race:
    """The seat's view, ready to value the hands its throws could leave."""

    def __init__(self, worlds: Worlds, outlook: Outlook):
        self.worlds, self.outlook = worlds, outlook
        self.threat = float(others_threaten(outlook))
        values = outlook.values
        nearest = min(outlook.others, key=lambda o: (o[0], sum(values[c] for c in o[1])))
        self.nearest = (nearest[0] / 5, sum(values[c] for c in nearest[1]) / 10)
        self.turns = min(max(worlds.turns[s] for s in range(len(worlds.counts)) if s != worlds.seat), 20) / 10
        self.not_below: dict[int, float] = {}

    def chance_not_below(self, total: int) -> float:
        """The chance that every other total is at least ``total`` (someone calling then meets an Assaf)."""
        if total > self.outlook.limit:
            return 0.0
        if total not in self.not_below:
            p = 1.0
            for r in readings(self.worlds, total - 1):
                p *= chance_above(r)
            self.not_below[total] = p
        return self.not_below[total]

    def row(self, total: int, cards: int, after: int) -> tuple[float, ...]:
        """The inputs for a hand of ``cards`` cards worth ``total``, ``after`` after its best throw."""
        limit = self.outlook.limit
        may = float(total <= limit)
        below = self.chance_not_below(total)
        t = self.threat
        return (1.0, total / 10, cards / 5, after / 10, may, float(after <= limit), *self.nearest, self.turns,
                t, t * total / 10, t * may, below, t * below)


def win_chance(row: tuple[float, ...]) -> float:
    z = sum(w * x for w, x in zip(RACE_MODEL, row))
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))

