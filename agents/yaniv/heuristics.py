"""The write-up's two heuristic Yaniv players.

- **SemiRandom** throws all cards of a rank it holds, chosen at random; it takes
  the pile's (lowest) card when that card is worth less than one card of the rank
  it throws, else the stock; it calls Yaniv whenever it may.
- **GreedyRandom(p)** throws the rank it holds most cards of (ties: the higher
  value, then the higher rank); it takes the pile's lowest card with probability
  ``p``, else the stock; it calls Yaniv whenever it may.

Both decide on card indices (``choose(seat, rng)``), which ``act`` wraps.
"""
from __future__ import annotations

import random
from typing import Sequence

from agents.yaniv.common import YANIV, Decision, Seat, pile_card, rank_drop, ranks_held, seat_of, to_action
from engine.yaniv.cards import JOKER, RANK_OF


class SemiRandom:
    name = "semirandom"

    def choose(self, seat: Seat, rng: random.Random) -> Decision:
        if seat.can_call:
            return YANIV
        ranks = ranks_held(seat.hand)
        drop = rank_drop(seat.hand, ranks[rng.randrange(len(ranks))])
        pile = pile_card(seat)
        return drop, pile if seat.values[pile] < seat.values[drop[0]] else None

    def act(self, observation: dict, legal_actions: Sequence, rng: random.Random):
        return to_action(self.choose(seat_of(observation), rng))


class GreedyRandom:
    name = "greedyrandom"

    def __init__(self, p: float = 0.5):
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"p is a probability, got {p!r}")
        self.p = p

    def choose(self, seat: Seat, rng: random.Random) -> Decision:
        if seat.can_call:
            return YANIV
        values, hand = seat.values, seat.hand
        counts: dict[int, int] = {}
        sample: dict[int, int] = {}
        for c in hand:
            rank = RANK_OF[c]
            counts[rank] = 1 if rank == JOKER else counts.get(rank, 0) + 1
            sample[rank] = c
        rank = max(counts, key=lambda r: (counts[r], values[sample[r]], r))
        return rank_drop(hand, rank), pile_card(seat) if rng.random() < self.p else None

    def act(self, observation: dict, legal_actions: Sequence, rng: random.Random):
        return to_action(self.choose(seat_of(observation), rng))
