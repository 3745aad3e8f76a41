"""What a Queen of Spades player decides on, as plain ints: ``Seen``, built from a seat's
observation (``of_view``) or straight from a rules-core ``Table`` (``of_table``), so the
server's players and simulations call the same decision code.

Only what the seat to move may know goes in: its own hand, the trick, every card
played this deal (a 32-bit mask), tricks taken, who took the Q♠ trick, and the suits
each seat has shown it lacks.
"""
from __future__ import annotations

from typing import NamedTuple

from engine.queen_of_spades.cards import SUITS, parse_card
from engine.queen_of_spades.rules import Table

FULL = (1 << 32) - 1


class Seen(NamedTuple):
    seat: int
    hand: list[int]  # sorted
    legal: list[int]
    trick: list[tuple[int, int]]  # (seat, card), led first
    played: int  # mask of the cards played this deal
    tricks: list[int]
    queen_by: int | None
    tricks_done: int
    voids: list[int]  # per seat, bit per suit it failed to follow

    @property
    def unseen(self) -> int:
        """Mask of the cards in the other hands (neither played nor held)."""
        mask = 0
        for c in self.hand:
            mask |= 1 << c
        return FULL & ~self.played & ~mask


def of_table(t: Table) -> Seen:
    p = t.to_move
    assert p is not None  # a deal in play has a player to move
    return Seen(p, t.hands[p], t.legal(), t.trick, t.played, t.tricks, t.queen_by, t.tricks_done, t.voids)


def of_view(view: dict, legal: list[int]) -> Seen:
    played = 0
    for card_id in view["played"]:
        played |= 1 << parse_card(card_id)
    voids = [sum(1 << SUITS.index(s) for s in v) for v in view["voids"]]
    return Seen(view["seat"], sorted(parse_card(c) for c in view["hand"]), legal,
                [(p["seat"], parse_card(p["card"])) for p in view["trick"]], played, list(view["tricks"]),
                view["queen_by"], len(view["tricks_done"]), voids)
