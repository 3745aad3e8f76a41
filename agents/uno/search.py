"""The strongest Uno level: determinised Monte Carlo search with heuristic rollouts.

For a decision with more than one sensible move the searcher samples a few hundred
*worlds* and plays every sensible move in each of them:

1. a world deals the cards it cannot see (the other hands and the draw pile) at
   random, consistently with its view: hand sizes, the discard pile, its own hand,
   and what public draws revealed (``agents.uno.inference``: a player who drew had
   no playable card); whether a pending Wild Draw Four was illegal follows from the
   sampled hand of its player;
2. each sensible move is played in a copy of the world and the rest of the deal is
   played by a fast heuristic (``rollout`` for the searcher's seat, ``others`` for
   the other seats; ``Tactician``'s rule for all by default) on the rules table itself, with the same random stream for every move (common
   random numbers: the moves are compared on the same deals);
3. a move scores in a world by the deal's end: in a single deal (``objective="deal"``)
   1 if the searcher goes out first, else 0; in a whole game to a target score
   (``objective="points"``) the points the deal gives it: the others' hands when it
   goes out, minus its own hand when another player does (what it hands the winner);
   with ``relative``, minus the winner's points shared over the others instead (the
   same with two players; at more seats a deal another player wins costs it ground
   on that player, whatever it holds itself). By default (``"auto"``) the view decides: points in a whole game, the deal alone in
   a single deal. Whole games reward shedding high cards when going out is unlikely,
   which the deal's chance alone does not see.

It plays the move with the best mean, unless the rollout rule's own choice is not
worse by more than ``margin`` (1.5) standard errors of their paired difference:
with a few hundred worlds most gaps are noise, and trusting them would make it draw
or pass for nothing. Only the current deal is played out. Sensible moves: a missed UNO is always called out; when UNO can be
called only the calling variants count; a wild names only colours the searcher
holds (any colour if it holds none); everything else legal is searched, including
drawing with playable cards, passing on a drawn card and challenging a Wild Draw Four.

The budget is a number of moves made on the rules tables by all rollouts together
(``budget``, default 40,000), not a time limit, so tournaments replay exactly. Late
in a deal, where the choice matters most, rollouts are short, so the same budget
buys many more worlds (a few hundred early, thousands near the end). ``parlour
bench uno`` measures the time per decision.
"""
from __future__ import annotations

import json
import math
import random
from typing import Sequence

from agents.base import Explanation
from agents.uno.play import CardPlayer, hand_codes
from agents.uno.tactician import Tactician
from agents.uno.inference import voids
from engine.uno.actions import ACTIONS, CATCH, DRAW, UNO_FLAG, Action
from engine.uno.cards import COLOUR_OF, COLOURED, hand_points
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
        hidden = [p for p in range(self.base.players) if p != self.seat]
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
            fits: list[int] = []
            rest: list[int] = []
            for c in pool:
                (fits if len(fits) < void.cards and void.allows(c) else rest).append(c)
            need = size - len(fits)
            table.hands[p], pool = fits + rest[:need], rest[need:]
        table.pile = pool
        table.seed = rng.getrandbits(48)  # future reshuffles are unknown too
        if table.phase == CHALLENGED and table.wd4_by != self.seat:
            table.wd4_bad = wd4_was_illegal(table.hands[table.wd4_by], table.prev_colour, table.discard, table.rules)
        return table


def sensible(legal: Sequence[int], hand: Sequence[int]) -> list[int]:
    """The legal codes worth searching (see the module docstring)."""
    if legal[-1] == CATCH:
        return [CATCH]
    if any(UNO_FLAG <= a < DRAW for a in legal):
        legal = [a for a in legal if a >= UNO_FLAG]
    held = {COLOUR_OF[c] for c in hand} - {-1}
    return [a for a in legal if a >= DRAW or PLAYS[a][0] < COLOURED or not held or PLAYS[a][1] in held]


def playout_value(table: Table, seat: int, by_points: bool, relative: bool) -> float:
    """What a finished deal is worth to ``seat`` (the module docstring, step 3)."""
    won = table.winner == seat
    if not by_points or table.winner < 0:
        return float(won)
    points = sum(hand_points(h) for h in table.hands)  # what the winner scores
    if won:
        return points
    return -points / (table.players - 1) if relative else -hand_points(table.hands[seat])


class MonteCarloSearch:
    """Determinised Monte Carlo search: every sensible action tried in the same sampled worlds."""

    name = "mcts"
    LABELS = {"deal": "estimated chance to win the deal", "points": "expected points from the deal"}

    def __init__(self, budget: int = 40_000, rollout: CardPlayer | None = None, infer: bool = True,
                 margin: float = 1.5, objective: str = "auto", others: CardPlayer | None = None,
                 relative: bool = False):
        if objective not in ("auto", *self.LABELS):
            raise ValueError(f"objective must be auto, deal or points, not {objective!r}")
        self.budget = budget
        self.margin = margin
        self.objective = objective
        self.rollout = rollout or Tactician()
        self.others = others or self.rollout
        self.relative = relative
        self.infer = infer
        self._last: tuple[str, dict[int, list]] | None = None

    def objective_for(self, observation: dict) -> str:
        """What a playout scores: the deal alone, or its points (a whole game)."""
        if self.objective != "auto":
            return self.objective
        return "deal" if observation.get("single_deal", True) else "points"

    def search(self, observation: dict, legal: Sequence[int], rng: random.Random,
               extra: Sequence[int] = ()) -> dict[int, list]:
        """{action code: [total, worlds, the outcome in each world]} over the sensible actions and
        the legal ones in ``extra`` (the coach adds the move a person made); an outcome is 1 or 0
        (the deal won or not) or the deal's points for the searcher (``objective_for``)."""
        key = json.dumps(observation, sort_keys=True) + repr(tuple(extra))
        if self._last is not None and self._last[0] == key:
            return self._last[1]
        actions = sensible(legal, hand_codes(observation))
        actions += [a for a in extra if a in legal and a not in actions]
        stats: dict[int, list] = {a: [0.0, 0, []] for a in actions}
        if len(actions) > 1:
            by_points = self.objective_for(observation) == "points"
            sampler = Determiniser(observation, rng, self.infer)
            seat, policy = sampler.seat, self.rollout
            seats = [self.others] * sampler.base.players
            seats[seat] = policy
            steps = 0
            while steps < self.budget:
                world = sampler.sample(rng)
                play_seed = rng.getrandbits(32)
                for action in actions:
                    table = world.copy()
                    table.step(action)
                    play_rng = random.Random(play_seed)
                    while table.phase != OVER:
                        p = table.turn
                        table.step(seats[p].choose(table.hands[p], table.legal(), play_rng))
                    steps += table.moves - world.moves
                    entry = stats[action]
                    outcome = playout_value(table, seat, by_points, self.relative)
                    entry[0] += outcome
                    entry[1] += 1
                    entry[2].append(outcome)
        self._last = (key, stats)
        return stats

    def act(self, observation: dict, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        legal = [a.code for a in legal_actions]
        stats = self.search(observation, legal, rng)
        best = max(stats, key=lambda a: stats[a][0] / stats[a][1] if stats[a][1] else 0.0)
        usual = self.rollout.choose(hand_codes(observation), legal, rng)
        if best != usual and usual in stats and stats[usual][1]:
            diffs = [x - y for x, y in zip(stats[best][2], stats[usual][2])]
            mean = sum(diffs) / len(diffs)
            spread = math.sqrt(max(0.0, sum(d * d for d in diffs) / len(diffs) - mean * mean) / len(diffs))
            if mean <= self.margin * spread:
                best = usual  # not clearly better than the rollout rule's own move
        return ACTIONS[best]

    def explain(self, observation: dict, legal_actions: Sequence[Action]) -> Explanation:
        stats = self.search(observation, [a.code for a in legal_actions], random.Random(0))
        values = {ACTIONS[a].id: round(w / n, 3) for a, (w, n, _) in stats.items() if n}
        worlds = max((n for _, n, _ in stats.values()), default=0)
        rules = (f"the {self.rollout.name} rule" if self.others is self.rollout
                 else f"the {self.rollout.name} rule for it and the {self.others.name} rule for the others")
        note = (f"each move played on the same {worlds} deals of the unseen cards, then the deal played out by "
                f"{rules}" if values else "only one sensible move")
        return Explanation(self.LABELS[self.objective_for(observation)], values, note)
