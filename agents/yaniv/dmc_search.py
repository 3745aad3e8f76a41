"""One turn ahead of the Deep Monte-Carlo player's close throws (the search of the level ``dmc``).

When the network's two best throws are within ``CLOSE`` of each other (in its unit, +1 a win,
-1 a loss), the level plays each out one turn in ``WORLDS`` deals of the cards its seat has not
seen (``Worlds.deal``: the others' unknown cards and the stock dealt again from the seat's view
alone): the throw, the others' replies as Sage would make them (``REPLY``), then the network's
best value at the seat's next turn, as a chance of winning the deal (or the deal's result, if
a reply was the call). Both throws meet the same worlds. It plays the one that wins more.
Measured in docs/measurements/yaniv.md (session 14).
"""
from __future__ import annotations

import random
from typing import Callable, NamedTuple, Sequence

import numpy as np

from agents.yaniv.common import STALL_TURNS, YANIV, Decision, Throw
from agents.yaniv.dmc_features import candidates, seen_of_table
from agents.yaniv.lookahead import Worlds
from agents.yaniv.sage import Outlook, Sage
from engine.yaniv.rules import Table

CLOSE = 0.03  # the network's two best throws within this are searched
WORLDS = 16  # deals of the unseen cards per search
REPLY = Sage(samples=50)  # the others' replies in a world
Valuer = Callable[[np.ndarray], np.ndarray]


class Searched(NamedTuple):
    """The throws searched (indices into the decisions) and each one's share of the worlds won."""

    throws: list[int]
    won: list[float]


def close_throws(decisions: Sequence[Decision], values: np.ndarray, close: float = CLOSE) -> list[int]:
    """The network's two best throws when they are within ``close`` (the call left out), else none."""
    order = [int(i) for i in np.argsort(-values, kind="stable") if decisions[i] is not YANIV][:2]
    return order if len(order) == 2 and values[order[0]] - values[order[1]] <= close else []


def after_turn(world: Table, throw: Throw, leaf: Valuer, rng: random.Random) -> float:
    """The seat's chance of winning after ``throw`` in ``world`` and the others' replies: the deal's
    result if one of them calls, else the network's best value at the seat's next turn, as a chance."""
    seat, table = world.to_move, world.copy()
    table.discard(*throw)
    while table.to_move not in (seat, None):
        reply = REPLY.choose(Outlook.of_state(table), rng)  # type: ignore[arg-type]  # a Table reads as a State
        if reply is YANIV:
            table.call()
        else:
            table.discard(*reply)
    if table.to_move is None:
        return float(seat in table.results[-1].winners)
    values = leaf(candidates(seen_of_table(table))[1])
    return (float(values.max()) + 1) / 2


def search(worlds: Worlds, decisions: Sequence[Decision], throws: list[int], leaf: Valuer, rng: random.Random,
           count: int = WORLDS) -> Searched:
    """Each of ``throws``' share of ``count`` worlds won one turn ahead (the same worlds for each)."""
    won = np.zeros(len(throws))
    for _ in range(count):
        world = worlds.deal(rng)
        won += [after_turn(world, decisions[i], leaf, rng) for i in throws]  # type: ignore[arg-type]
    return Searched(throws, list(won / count))


def searchable(worlds: Worlds) -> bool:
    """Searched only in a deal not about to stall (where the players call whenever they may)."""
    return worlds.turn < STALL_TURNS - len(worlds.counts)
