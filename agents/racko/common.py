"""What the Rack-O players here share: the forced random move, the longest usable
sequence, reading a view into plain ints, and the base of the write-up's players.

Conventions: a rack is a list of ints, index 0 = slot 1 (the front, lowest); a
decision is an action code of ``engine.racko`` (0 draw from the deck, 1 take the
discard, 2 discard the drawn card, 3 + k put it in slot k + 1), or for the
decision functions of a player, a slot index k (0-based) or -1 to discard.
Players decide from ints so simulations (``agents.racko.arena``) and ``act`` run
the same code.

**The forced random move.** The write-up's public code makes every AI play one
random move (random source, random slot or discard) on every (2 · rack_size)-th
turn it takes in a deal, to break deadlocks (Kyle can get stuck: see
``agents.racko.kyle``). It shaped the write-up's numbers, so the write-up's
players here do the same (``forced_random=True``); the strongest level turns it
off. ``forced_period`` and ``forced_turn`` are the one place that says when.
"""
from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Sequence

from engine.racko import ACTIONS, DISCARD, DRAW_DECK, DRAW_DISCARD, PLACE, Action


def forced_period(rack_size: int) -> int:
    """Every how many of its own turns in a deal a write-up player moves at random: 2 · rack_size."""
    return 2 * rack_size


def forced_turn(own_turns: int, rack_size: int) -> bool:
    """True when a seat's next turn is a forced random move: its (2 · rack_size)-th,
    4 · rack_size-th, ... turn of the deal. ``own_turns``: turns it already took in this deal."""
    return (own_turns + 1) % forced_period(rack_size) == 0


def random_code(drawing: bool, from_discard: bool, rack_size: int, rng: random.Random) -> int:
    """A random move as an action code: a fair coin for the source; a card from the deck goes
    to one of the slots or the discard pile (1/(rack_size+1) each), one from the discard to a slot."""
    if drawing:
        return DRAW_DISCARD if rng.random() < 0.5 else DRAW_DECK
    if from_discard:
        return PLACE + rng.randrange(rack_size)
    k = rng.randrange(rack_size + 1)
    return DISCARD if k == rack_size else PLACE + k


def usable_sequence_length(rack: Sequence[int], max_card: int) -> int:
    """The length of the longest usable sequence: rack cards in slot order, strictly
    ascending, that could all stay in a winning rack. A card c at index i needs i smaller
    cards below it (c - 1 >= i) and room above (max_card - c >= r - 1 - i); two cards at
    indices i < j need room between them (c_j - c_i >= j - i). Exact (dynamic programming)."""
    r = len(rack)
    best = [0] * r
    longest = 0
    for j in range(r):
        c = rack[j]
        if c - 1 < j or max_card - c < r - 1 - j:
            continue
        top = 0
        d = c - j
        for i in range(j):
            b = best[i]
            if b > top and rack[i] - i <= d:
                top = b
        best[j] = top + 1
        if top + 1 > longest:
            longest = top + 1
    return longest


class WriteupPlayer(ABC):
    """Base of the write-up's players: ``act`` plays the forced random move when it is due
    (``forced_random``), else ``decide(view)``, which subclasses implement (an action code)."""

    name = "writeup"

    def __init__(self, forced_random: bool = True):
        self.forced_random = forced_random

    def forced_now(self, view: dict) -> bool:
        return self.forced_random and forced_turn(view["turns"][view["seat"]], view["options"]["rack_size"])

    def act(self, view: dict, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        if self.forced_now(view):
            return ACTIONS[random_code(view["phase"] == "draw", view["drawn_from"] == "discard",
                                       view["options"]["rack_size"], rng)]
        return ACTIONS[self.decide(view)]

    @abstractmethod
    def decide(self, view: dict) -> int:
        """The player's action code for ``view`` (no forced random move here)."""


class RandomPlayer:
    """The write-up's Random (a bozo sort): a fair coin for the source, a random slot or discard."""

    name = "random"

    def act(self, view: dict, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        return ACTIONS[random_code(view["phase"] == "draw", view["drawn_from"] == "discard",
                                   view["options"]["rack_size"], rng)]


def decision_key(view: dict) -> tuple:
    """What names one decision in a view (deal, turn, phase, seat, rack and the cards in sight):
    the server asks an agent for its move and then for its explanation on the same view, so an
    agent that keeps its last valuation under this key values each decision once."""
    return (view["deal"], view["turn"], view["phase"], view["seat"], tuple(view["rack"]), view["discard_top"],
            view["drawn"], len(view["discard_pile"]))


def code_of_slot(k: int) -> int:
    """A player's slot decision (index, -1 to discard) as an action code."""
    return DISCARD if k < 0 else PLACE + k
