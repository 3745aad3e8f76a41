"""The strongest Uno level: determinised Monte Carlo search with heuristic rollouts.

For each decision with more than one sensible action the searcher runs a fixed
number of simulations. Each simulation

1. deals the cards it cannot see (the other hands and the draw pile) at random,
   consistently with its view: hand sizes, the discard pile, its own hand
   (``engine.uno.view.determinise``; whether a pending Wild Draw Four was illegal
   follows from the sampled hand of its player);
2. picks a root action by UCB1 (every action once first);
3. plays the rest of the deal with a fast heuristic for every seat
   (BetterOffensive's card order by default) on the rules table itself;
4. scores 1 if the searcher went out first, else 0.

It plays the action with the best mean. Only the deal is looked at, also in a
match: winning the deal is what scores. Sensible actions: a caught missed UNO is
always called out, and when UNO can be called only the calling variants are
considered; everything else legal, including drawing with playable cards, the
four colours of a wild and challenging a Wild Draw Four, is searched.

A fixed number of simulations (not a time limit) keeps tournaments reproducible;
the default 400 takes well under a second per decision (``parlour bench uno``
measures it).
"""
from __future__ import annotations

import json
import random
from typing import Sequence

from agents.base import Explanation
from agents.uno.play import CardPlayer, hand_codes
from agents.uno.heuristics import BetterOffensive
from agents.uno.inference import voids
from engine.uno.actions import ACTIONS, CATCH, DRAW, UNO_FLAG, Action
from engine.uno.cards import COLOUR_OF, COLOURED
from engine.uno.rules import CHALLENGED, OVER, PLAYS, Table
from engine.uno.view import determinise, wd4_was_illegal


class Determiniser:
    """Samples rules tables a seat cannot tell from the real one, given its view.

    With ``infer`` the cards other players are known to lack (``agents.uno.inference``)
    are respected: their constrained cards are dealt from the unseen cards that fit."""

    def __init__(self, view: dict, rng: random.Random, infer: bool = True):
        self.seat = view["seat"]
        self.base = Table.thaw(determinise(view, rng, single=True))
        self.voids = voids(view) if infer else {}
        hidden = [p for p in range(self.base.n) if p != self.seat]
        self.hidden = sorted(hidden, key=lambda p: p not in self.voids)  # constrained seats first
        self.sizes = [len(self.base.hands[p]) for p in self.hidden]
        self.unseen = [c for p in hidden for c in self.base.hands[p]] + self.base.pile

    def sample(self, rng: random.Random) -> Table:
        table = self.base.copy()
        pool = self.unseen[:]
        rng.shuffle(pool)
        for p, size in zip(self.hidden, self.sizes):
            void = self.voids.get(p)
            if void is None:
                table.hands[p], pool = pool[:size], pool[size:]
                continue
            fits, rest = [], []
            for c in pool:
                (fits if len(fits) < void.cards and void.allows(c) else rest).append(c)
            need = size - len(fits)
            table.hands[p], pool = fits + rest[:need], rest[need:]
        table.pile = pool
        table.seed = rng.getrandbits(48)  # future reshuffles are unknown too
        if table.phase == CHALLENGED and table.wd4_by != self.seat:
            table.wd4_bad = wd4_was_illegal(table.hands[table.wd4_by], table.prev_colour)
        return table


def sensible(legal: Sequence[int], hand: Sequence[int]) -> list[int]:
    """The legal codes worth searching (see the module docstring)."""
    if legal[-1] == CATCH:
        return [CATCH]
    if any(UNO_FLAG <= a < DRAW for a in legal):
        legal = [a for a in legal if a >= UNO_FLAG]
    held = {COLOUR_OF[c] for c in hand} - {-1}
    return [a for a in legal if a >= DRAW or PLAYS[a][0] < COLOURED or not held or PLAYS[a][1] in held]


class MonteCarloSearch:
    """Determinised Monte Carlo search: every sensible action tried in the same sampled worlds."""

    name = "mcts"
    label = "estimated chance to win the deal"

    def __init__(self, simulations: int = 600, rollout: CardPlayer | None = None, infer: bool = True):
        self.simulations = simulations
        self.rollout = rollout or BetterOffensive()
        self.infer = infer
        self._last: tuple[str, dict[int, list[float]]] | None = None

    def search(self, observation: dict, legal: Sequence[int], rng: random.Random) -> dict[int, list[float]]:
        """{action code: [wins, worlds]} over the sensible actions."""
        key = json.dumps(observation, sort_keys=True)
        if self._last is not None and self._last[0] == key:
            return self._last[1]
        actions = sensible(legal, hand_codes(observation))
        stats = {a: [0.0, 0] for a in actions}
        if len(actions) > 1:
            sampler = Determiniser(observation, rng, self.infer)
            seat, policy = sampler.seat, self.rollout
            seats = [policy] * sampler.base.n
            for _ in range(max(1, self.simulations // len(actions))):
                world = sampler.sample(rng)
                play_seed = rng.getrandbits(32)
                for action in actions:
                    table = world.copy()
                    table.step(action)
                    play_rng = random.Random(play_seed)
                    while table.phase != OVER:
                        p = table.turn
                        table.step(seats[p].choose(table.hands[p], table.legal(), play_rng))
                    entry = stats[action]
                    entry[0] += table.winner == seat
                    entry[1] += 1
        self._last = (key, stats)
        return stats

    def act(self, observation: dict, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        stats = self.search(observation, [a.code for a in legal_actions], rng)
        best = max(stats, key=lambda a: stats[a][0] / stats[a][1] if stats[a][1] else 0.0)
        return ACTIONS[best]

    def explain(self, observation: dict, legal_actions: Sequence[Action]) -> Explanation:
        stats = self.search(observation, [a.code for a in legal_actions], random.Random(0))
        values = {ACTIONS[a].id: round(w / n, 3) for a, (w, n) in stats.items() if n}
        worlds = max((n for _, n in stats.values()), default=0)
        note = (f"each move played on the same {worlds} deals of the unseen cards, "
                "then the deal played out by BetterOffensive's rule" if values else "only one sensible move")
        return Explanation(self.label, values, note)
