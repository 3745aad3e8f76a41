"""Pythia: Sage's throws, bent towards calling sooner, and a call weighed against waiting.

Between good players a two-player deal is a race: the first to hold at most the Yaniv limit
calls and nearly always wins. Pythia scores each (group, source) as Sage does (the hand
expected after its next throw) less ``REACH`` times the chance that the hand it draws to may
call (``sage.discard_scores``), and throws the best. When it may call, it weighs the call's
chance (that its total is strictly the lowest: ``belief.lowest_chance``, which knows the
others have been throwing their high cards) against the chance of winning the deal from the
hand its best throw leaves (``race.Race``), and calls when the call is worth at least as
much. In a deal stuck past ``STALL_TURNS`` turns it calls whenever it may.
"""
from __future__ import annotations

import random
from typing import Sequence

from agents.base import Explanation
from agents.yaniv.belief import lowest_chance
from agents.yaniv.common import STALL_TURNS, YANIV, Decision, Throw, decision_id, to_action
from agents.yaniv.lookahead import Worlds
from agents.yaniv.race import Race, win_chance
from agents.yaniv.sage import Outlook, best_discard, with_each_card
from engine.yaniv.cards import DECK_SIZE

REACH = 5.0  # points of hand a chance of 1 to be able to call next turn is worth


def waiting_chance(worlds: Worlds, outlook: Outlook, throw: Throw) -> float:
    """The chance of winning the deal from the hand ``throw`` leaves (the stock's cards averaged)."""
    race, values = Race(worlds, outlook), outlook.values
    group, take = throw
    rest = tuple(c for c in outlook.hand if c not in group)
    base, cards, after = sum(values[c] for c in rest), len(rest) + 1, with_each_card(rest, values)
    pool = outlook.unseen or tuple(c for c in range(DECK_SIZE) if c not in outlook.hand)
    drawn = pool if take is None else (take,)
    return sum(win_chance(race.row(base + values[x], cards, after[x])) for x in drawn) / len(drawn)


class Pythia:
    name = "pythia"

    def weigh(self, worlds: Worlds, outlook: Outlook) -> tuple[Throw, dict[Throw, float], float | None]:
        """The best throw, every throw's score, and (when it may call) the call's edge over waiting."""
        best, scores = best_discard(outlook, REACH)
        edge = None
        if outlook.total(outlook.hand) <= outlook.limit:
            edge = lowest_chance(worlds) - waiting_chance(worlds, outlook, best)
        return best, scores, edge

    def choose(self, worlds: Worlds, outlook: Outlook, rng: random.Random) -> Decision:
        if outlook.turn >= STALL_TURNS and outlook.total(outlook.hand) <= outlook.limit:
            return YANIV
        best, _, edge = self.weigh(worlds, outlook)
        return YANIV if edge is not None and edge >= 0 else best

    def act(self, observation: dict, legal_actions: Sequence, rng: random.Random):
        return to_action(self.choose(Worlds.of(observation), Outlook.of(observation), rng))

    def explain(self, observation: dict, legal_actions: Sequence) -> Explanation:
        _, scores, edge = self.weigh(Worlds.of(observation), Outlook.of(observation))
        values = {decision_id(d): -round(v, 2) for d, v in scores.items()}
        note = (f"a throw: minus the hand expected after the next throw, plus {REACH:g} times the chance the hand "
                "drawn to may call (higher is better)")
        if edge is not None:
            values["yaniv"] = round(edge, 3)
            note += ("; yaniv: the chance its total is strictly the lowest minus the chance of winning by "
                     "waiting with the best throw (it calls at 0 or more)")
        return Explanation("score", values, note)
