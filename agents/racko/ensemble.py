"""The write-up's ensembles: a vote of Kyle, Max, Baltar and Diablo (its text: "a simple
vote of Kyle, Max, Baltar and Diablo", agent ``ensemble``) or of Kyle, Max and Baltar
(its public code's unweighted vote, agent ``ensemble-code``); ``agents.racko.ensemble()``
builds either. Each member decides as it would alone (without its own forced random move; the
ensemble makes the forced random move every 2 · rack_size turns, as the
write-up's players do): the draw by majority (the deck on a 2-2 tie), the slot by
plurality, a tie going to the discard pile when it may (the public code's tie
rule), else to the lowest of the tied slots; a vote to discard a card taken from the
discard pile (which must be placed) does not count. Baltar here is the voting tables
(``baltar-ensemble``).
"""
from __future__ import annotations

from collections import Counter
from typing import Sequence

from agents.base import Explanation
from agents.racko.common import WriteupPlayer
from engine.racko import ACTIONS, DISCARD, DRAW_DECK, DRAW_DISCARD, PLACE
from engine.racko.actions import label


class Ensemble(WriteupPlayer):
    name = "ensemble"

    def __init__(self, members: Sequence[WriteupPlayer], forced_random: bool = True):
        super().__init__(forced_random)
        self.members = list(members)

    def votes(self, view: dict) -> list[int]:
        return [m.decide(view) for m in self.members]

    def decide(self, view: dict) -> int:
        votes = self.votes(view)
        if view["phase"] == "draw":
            takes = sum(v == DRAW_DISCARD for v in votes)
            return DRAW_DISCARD if takes * 2 > len(votes) else DRAW_DECK
        if view["drawn_from"] == "discard":  # a member may vote to discard a card it must place
            votes = [v for v in votes if v != DISCARD] or [PLACE]
        counts = Counter(votes)
        top = max(counts.values())
        tied = sorted(v for v, n in counts.items() if n == top)
        return DISCARD if DISCARD in tied else tied[0]

    def explain(self, view: dict, legal_actions) -> Explanation:
        votes = self.votes(view)
        counts = Counter(votes)
        who = "; ".join(f"{m.name}: {label(ACTIONS[v])}" for m, v in zip(self.members, votes))
        return Explanation("votes", {a.id: float(counts.get(a.code, 0)) for a in legal_actions}, who)
