"""Fast Rack-O play on a mutable ``engine.racko.Table`` for benchmarks, tournaments of
many deals, and training loops: no views, no copies.

A *decider* is the int form of a player (``RandomDecider``, ``MaxDecider`` and
``KyleDecider`` here, calling the same decision functions as the agents' ``act``), with:

- ``forced_random``: whether the write-up's forced random move applies to it;
- ``begin(table, seat)``: a deal starts (``table.racks[seat]`` is the dealt rack);
- ``draw(table, seat, rng) -> bool``: True to take the discard (``table.discard[-1]``);
- ``place(table, seat, rng) -> int``: slot index for ``table.drawn`` (its source in
  ``table.source``), or -1 to discard it.

``play(table, deciders, rng)`` plays the table to its end; forced random moves are
made here (``agents.racko.common.forced_turn``'s rule), so a decider never sees them, as in
the public code where the random model plays those turns instead of the player.
"""
from __future__ import annotations

import random
from typing import Protocol, Sequence

from agents.racko import kyle, max as max_player
from agents.racko.common import forced_period, random_code
from engine.racko import DISCARD, DRAW_DECK, DRAW_DISCARD, FROM_DISCARD, OVER, PLACE, Rules, Table


class Decider(Protocol):
    forced_random: bool

    def begin(self, table: Table, seat: int) -> None: ...

    def draw(self, table: Table, seat: int, rng: random.Random) -> bool: ...

    def place(self, table: Table, seat: int, rng: random.Random) -> int: ...


def play(table: Table, deciders: Sequence[Decider], rng: random.Random) -> Table:
    """Play ``table`` (a deal or a match) to its end with one decider per seat."""
    size = table.size
    period = forced_period(size)  # forced_turn, inline: this runs every turn
    deal = -1
    step = table.step
    while table.phase != OVER:
        if table.deal != deal:
            deal = table.deal
            for seat, d in enumerate(deciders):
                d.begin(table, seat)
        p = table.to_move
        d = deciders[p]
        if d.forced_random and (table.turns[p] + 1) % period == 0:
            step(random_code(True, False, size, rng))
            step(random_code(False, table.source == FROM_DISCARD, size, rng))
            continue
        step(DRAW_DISCARD if d.draw(table, p, rng) else DRAW_DECK)
        k = d.place(table, p, rng)
        step(DISCARD if k < 0 else PLACE + k)
    return table


def play_deal(rules: Rules, seed: int, deciders: Sequence[Decider], rng: random.Random) -> Table:
    """One seeded deal (no event log) played to its end; the finished table."""
    return play(Table.new(len(deciders), seed, rules, single=True, log=False), deciders, rng)


class RandomDecider:
    """The write-up's Random: a fair coin for the source, a random slot (or discard)."""

    forced_random = False

    def begin(self, table: Table, seat: int) -> None:
        pass

    def draw(self, table: Table, seat: int, rng: random.Random) -> bool:
        return rng.random() < 0.5

    def place(self, table: Table, seat: int, rng: random.Random) -> int:
        code = random_code(False, table.source == FROM_DISCARD, table.size, rng)
        return -1 if code == DISCARD else code - PLACE


class KyleDecider:
    """Kyle on ints, his anchors kept per seat and grown as he places (as coded). His ranges
    are computed again only when his rack has changed (they depend on nothing else)."""

    def __init__(self, forced_random: bool = True, grow_anchors: bool = True):
        self.forced_random = forced_random
        self.grow = grow_anchors
        self.anchors: dict[int, list[bool]] = {}
        self.cache: dict[int, tuple[tuple[int, ...], list]] = {}
        self.now: list = []  # the ranges of the seat deciding now

    def begin(self, table: Table, seat: int) -> None:
        self.anchors[seat] = kyle.anchors_at_deal(table.racks[seat], table.rules.max_card)
        self.cache.pop(seat, None)

    def ranges(self, table: Table, seat: int) -> list:
        rack = table.racks[seat]
        key = tuple(rack)
        cached = self.cache.get(seat)
        if cached is not None and cached[0] == key:
            self.now = cached[1]
            return self.now
        self.now = kyle.ranges(rack, self.anchors[seat], table.rules.max_card)
        self.cache[seat] = (key, self.now)
        return self.now

    def draw(self, table: Table, seat: int, rng: random.Random) -> bool:
        return kyle.find_range(self.ranges(table, seat), table.discard[-1], True) >= 0

    def place(self, table: Table, seat: int, rng: random.Random) -> int:
        rs = self.now  # ``draw`` just brought them up to date (the rack has not changed since)
        card = table.drawn
        j = kyle.find_range(rs, card, table.source == FROM_DISCARD)
        if j < 0:
            return -1
        lo, hi, start, n = rs[j]
        k = kyle.slot_in(lo, hi, start, n, card)
        if self.grow:
            self.anchors[seat][k] = True
        return k


class MaxDecider:
    """Max on ints (no memory)."""

    def __init__(self, forced_random: bool = True):
        self.forced_random = forced_random

    def begin(self, table: Table, seat: int) -> None:
        pass

    def draw(self, table: Table, seat: int, rng: random.Random) -> bool:
        return max_player.draw_discard(table.racks[seat], table.discard[-1], table.rules.max_card)

    def place(self, table: Table, seat: int, rng: random.Random) -> int:
        return max_player.place_slot(table.racks[seat], table.drawn, table.source == FROM_DISCARD,
                                     table.rules.max_card)
