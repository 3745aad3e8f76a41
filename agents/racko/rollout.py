"""Rollout: ``lookahead-deep`` improved by simulated rounds (policy improvement by Monte-Carlo).

At a decision where ``lookahead-deep``'s best candidates are close, each of them is tried in the
same imagined worlds and played out to the end of the round; the seat plays the one that won most.
Written down before any tuning run (issue 25, session 19):

- **Candidates.** ``lookahead-deep`` values the decision as it always does (``Lookahead._weigh``).
  Drawing: both piles. Placing: its best ``width`` ways to play the card (3: the placements it
  weighed, and discarding a deck card when it is one of them). Only the candidates within ``gap``
  of the best value are kept (**the gate**); with one left it plays ``lookahead-deep``'s move and
  simulates nothing, so most decisions cost what ``lookahead-deep``'s do.
- **Worlds.** ``worlds`` deals of what the seat cannot see, made from its view alone: the cards it
  has not seen (all cards less its rack, the card it holds, the discard pile and the cards it saw
  others take from it) shuffled into the other racks' hidden slots and the deck, as
  ``Racko.resample_hidden`` deals them. A world is an engine ``Table`` (no log, one deal).
- **Common random numbers.** Every candidate is played in the same worlds (same hidden racks, same
  deck order, same reshuffles), so the comparison's noise is mostly what the candidates change.
- **The candidate, then the play-out.** A placement is played; a draw is played and the turn ends
  as the policy places. Then every seat, this one included, plays **Diablo2's decisions without its
  forced random move** (the opponent of issue 25 is Diablo2; its draw margin, its placements), each
  seat from its own rack in the world and the cards it has seen there. All the worlds and candidates
  move in lockstep, each step's racks scored in one batch of the network.
- **Score.** 1 if the seat goes Rack-O, 0 if another does. A round still going after ``horizon``
  more turns (all seats), or stalled, scores ``0.5 + (v_me - v_best_other) / 2`` with v Diablo2's
  rack values (``lookahead.rack_values``, a Rack-O is 1), clipped to [0, 1].
- **Choice.** The candidate with the best mean score; ties to ``lookahead-deep``'s order.
- **Randomness.** Its own generator, seeded by ``seed`` and the decision (``decision_key``), never
  the game's: the move is a function of the view, the same for every deal of the hidden cards and on
  a second asking (the explanation), and the other agents' random moves are left as they were.

The real decision reads only the seat's view; inside a world each seat reads its own world rack.
Variants (``AGENTS``), fixed before the tuning runs from a first timing only (5 deals against Diablo2,
seeds 1000-1004: with gap 0.05, 24 worlds and a horizon of 30 turns, 63 of 90 decisions were simulated,
median 389 ms, slowest decile from 897 ms; ``lookahead-deep``'s best two values were within 0.02 in
about a quarter of its decisions and within 0.05 in about a half):

- ``rollout``: gap 0.02, 16 worlds, horizon 20 turns (a quarter of the decisions simulated, cheaply);
- ``rollout-wide``: gap 0.05, 20 worlds, horizon 20 turns (about half of them).
"""
from __future__ import annotations

import random
import zlib

import numpy as np

from agents.base import Explanation
from agents.racko.common import decision_key
from agents.racko.diablo import draw_margin, pick, pick_net, score_groups, table_seen, tries, view_seen
from agents.racko.features import unseen_prefix
from agents.racko.lookahead import Lookahead, rack_values
from engine.racko import DISCARD, DRAW_DECK, DRAW_DISCARD, PLACE, Rules, Table
from engine.racko.rules import DRAW, FROM_DECK, FROM_DISCARD, FROM_NONE, OVER, PLACE_PHASE


def world_of_view(view: dict, rng: random.Random) -> Table:
    """A deal of the table consistent with ``view`` (the seat to move's): its unseen cards dealt
    at random into the other racks' hidden slots and the deck (no log, a single deal)."""
    seat, n = view["seat"], view["players"]
    rules = Rules(**view["options"])
    r = rules.rack_size
    known = [[0] * r for _ in range(n)]
    for p, pairs in enumerate(view["known"]):
        for slot, card in pairs:
            known[p][slot - 1] = card
    pool = sorted(set(range(1, rules.max_card + 1)) - set(view_seen(view)))
    rng.shuffle(pool)
    racks = []
    for p in range(n):
        if p == seat:
            racks.append(list(view["rack"]))
        else:
            racks.append([c if c else pool.pop() for c in known[p]])
    if len(pool) != view["deck_size"]:
        raise ValueError(f"the view leaves {len(pool)} unseen cards for a deck of {view['deck_size']}")
    t = Table()
    t.seed, t.players, t.rules, t.single = rng.getrandbits(48), n, rules, True
    t.deal, t.dealer = view["deal"], view["dealer"]
    t.racks, t.deck, t.discard = racks, pool, list(view["discard_pile"])
    t.known, t.dealt = known, tuple(tuple(rack) for rack in racks)  # dealt: not read by play
    t.placed = [list(p) for p in view["placed"]]
    t.to_move, t.phase = seat, DRAW if view["phase"] == "draw" else PLACE_PHASE
    t.drawn = view["drawn"] or 0
    t.source = {None: FROM_NONE, "deck": FROM_DECK, "discard": FROM_DISCARD}[view["drawn_from"]]
    t.turn, t.turns, t.reshuffles = view["turn"], list(view["turns"]), 0
    t.scores, t.winner, t.log, t.last_result = [0] * n, -1, None, None
    t.derive()
    return t


def copy_table(t: Table) -> Table:
    c = Table()
    c.seed, c.players, c.rules, c.single, c.deal, c.dealer = t.seed, t.players, t.rules, t.single, t.deal, t.dealer
    c.racks, c.deck, c.discard = [list(x) for x in t.racks], list(t.deck), list(t.discard)
    c.known, c.dealt, c.placed = [list(x) for x in t.known], t.dealt, [list(x) for x in t.placed]
    c.to_move, c.phase, c.drawn, c.source = t.to_move, t.phase, t.drawn, t.source
    c.turn, c.turns, c.reshuffles = t.turn, list(t.turns), t.reshuffles
    c.scores, c.winner, c.log, c.last_result = list(t.scores), t.winner, None, None
    c.derive()
    return c


def policy_step(net, tables: list[Table]) -> None:
    """One step of Diablo2's decisions (no forced random move) in every table not over, each
    seat to move reading its own rack and what it has seen: the draws of the tables in the draw
    phase (a discard taken is placed in its best slot at once), then the placements of the
    tables holding a deck card. One batch of the network for each."""
    drawing = [t for t in tables if t.phase == DRAW]
    if drawing:
        n_cards = drawing[0].rules.max_card
        groups, slots_of = [], []
        for t in drawing:
            p = t.to_move
            slots, racks = tries(t.racks[p], t.discard[-1], n_cards)
            slots_of.append(slots)
            groups.append((racks, t.turns[p], unseen_prefix(n_cards, table_seen(t, p))))
        for t, slots, (values, rows) in zip(drawing, slots_of, score_groups(net, groups, n_cards)):
            choice = pick(slots, values, rows, draw_margin(t.size))
            if choice.slot is None:
                t.step(DRAW_DECK)
            else:
                t.step(DRAW_DISCARD)
                t.step(PLACE + choice.slot)  # the best slot: where a discard taken must go
    placing = [t for t in tables if t.phase == PLACE_PHASE]
    if placing:
        n_cards = placing[0].rules.max_card
        groups, slots_of = [], []
        for t in placing:
            p = t.to_move
            slots, racks = tries(t.racks[p], t.drawn, n_cards)
            slots_of.append(slots)
            groups.append((racks, t.turns[p], unseen_prefix(n_cards, table_seen(t, p))))
        for t, slots, (values, rows) in zip(placing, slots_of, score_groups(net, groups, n_cards)):
            choice = pick(slots, values, rows, 0.0, must_place=t.source == FROM_DISCARD)
            t.step(DISCARD if choice.slot is None else PLACE + choice.slot)


def play_out(net, tables: list[Table], seat: int, horizon: int) -> np.ndarray:
    """Each table played on by the policy until its round ends or ``horizon`` more turns pass;
    ``seat``'s score in each (see the module docstring)."""
    stop = [t.turn + horizon for t in tables]
    live = [t for t, s in zip(tables, stop) if t.phase != OVER and t.turn < s]
    while live:
        policy_step(net, live)
        live = [t for t, s in zip(live, stop) if t.phase != OVER and t.turn < s]
    out = np.empty(len(tables))
    unfinished = []
    for i, t in enumerate(tables):
        if t.phase == OVER and t.winner >= 0:
            out[i] = 1.0 if t.winner == seat else 0.0
        else:
            unfinished.append(i)
    if unfinished:
        t0 = tables[unfinished[0]]
        n_cards = t0.rules.max_card
        for i in unfinished:
            t = tables[i]
            values = [float(rack_values(net, [t.racks[p]], n_cards, t.turns[p],
                                        unseen_prefix(n_cards, table_seen(t, p)))[0]) for p in range(t.players)]
            other = max(v for p, v in enumerate(values) if p != seat)
            out[i] = min(1.0, max(0.0, 0.5 + (values[seat] - other) / 2))
    return out


class Rollout(Lookahead):
    """``lookahead-deep`` (``plan=True, plan_draw=1``) whose close decisions are settled by
    simulated rounds (the module docstring)."""

    name = "rollout"

    def __init__(self, nets, gap: float = 0.02, worlds: int = 16, horizon: int = 20, seed: int = 0,
                 name: str = "rollout"):
        super().__init__(nets, plan=True, plan_draw=1)
        self.name = name
        self.gap, self.worlds, self.horizon, self.seed = gap, worlds, horizon, seed
        self._settled: tuple | None = None  # (decision_key, (code, rollout means by code or None))

    def candidates(self, view: dict) -> list[int]:
        """``lookahead-deep``'s choices within ``gap`` of its best, best first (its order on ties)."""
        values, choices, _note = self._weigh(view)
        order = sorted(choices, key=lambda c: -values[c])  # stable: ties keep lookahead-deep's order
        best = values[order[0]]
        return [c for c in order if best - values[c] <= self.gap]

    def settle(self, view: dict) -> tuple[int, dict[int, float] | None]:
        """The move and, when the decision was simulated, each candidate's mean score."""
        key = decision_key(view)
        if self._settled is not None and self._settled[0] == key:
            return self._settled[1]
        cands = self.candidates(view)
        if len(cands) < 2:
            result: tuple[int, dict[int, float] | None] = (cands[0], None)
        else:
            rng = random.Random(zlib.crc32(repr((self.seed, key)).encode()))
            worlds = [world_of_view(view, rng) for _ in range(self.worlds)]
            tables = []
            for code in cands:
                for w in worlds:
                    t = copy_table(w)
                    t.step(code)  # a draw: the policy's step places the card
                    tables.append(t)
            net = pick_net(self.nets, view["options"]["rack_size"])
            scores = play_out(net, tables, view["seat"], self.horizon).reshape(len(cands), self.worlds).mean(axis=1)
            means = {c: float(s) for c, s in zip(cands, scores)}
            result = (max(cands, key=means.__getitem__), means)
        self._settled = (key, result)
        return result

    def decide(self, view: dict) -> int:
        return self.settle(view)[0]

    def explain(self, view: dict, legal_actions) -> Explanation:
        _code, means = self.settle(view)
        if means is None:
            base = super().explain(view, legal_actions)
            return Explanation(base.label, base.values, base.note + "; no close alternative, so no simulated rounds")
        return Explanation(f"share of {self.worlds} simulated rounds won (Diablo2's play for every seat after this move)",
                           {a.id: means[a.code] for a in legal_actions if a.code in means},
                           f"{len(means)} close choices of lookahead-deep (within {self.gap} of its best), each played "
                           f"in the same {self.worlds} deals of the cards it has not seen")
