"""Is there anything to gain by searching at Yaniv's call, or one turn ahead of a throw? Two-player deals of the
Deep Monte-Carlo level (``dmc``: the shipped network averaged over the suits' renamings) against Sage, on the
head-to-head harness's deals (deal i is ``Table.new(2, SEED * 1_000_000 + i)``, seats alternating), played by
one of these variants of the level:

- ``network``: the network's best, no search: the level as shipped (main's, unchanged by session 14);
- ``level``: the network's best, and when its two best throws are within ``CLOSE`` (0.03 in its unit, +1 a
  win, -1 a loss) a look one turn ahead: each of the two played in the same ``WORLDS`` (16) deals of the
  cards the seat has not seen (``Worlds.deal``), the others replying as Sage would (``REPLY``), then the
  network alone's best value at the seat's next turn as a chance of winning (or the deal's result, if a
  reply was the call); it plays the one that wins more (tried as a new top level in session 14, not kept);
- ``seer``: a diagnostic, never a player: the network's throws, with a call that looks at the other hand (it
  calls exactly when its total is strictly the lowest, whenever it may): the ceiling of any call decision;
- ``belief``: the call valued by the belief alone (2 b - 1, ``belief.lowest_chance``) instead of the network's
  value of the call;
- ``wait-W``: where the belief b is between 0.3 and 0.9, the best throw's value one turn ahead
  (``after_turn``) in W worlds (``Worlds.deal``: the unseen cards dealt again from the seat's
  view), the worlds where the call would win and those where it would not averaged apart and weighed b and
  1 - b; it calls when b is at least that.

``PYTHONPATH=TREE python docs/measurements/yaniv_call_search.py VARIANT DEALS SEED [PROCESSES]`` prints the
variant's share of deals won with its standard error and what it did where it could call: how often it called,
how often the call was Assaf, how often it waited when a call would have won. With ``--predictors`` it also
scores, at those spots, four estimates of the chance that a call wins (the belief, the network's call value as
a chance, and the share of 200 resampled deals of the hidden cards, uniform or sifted as ``Worlds.deal``):
their mean, log loss, Brier score and ranking (AUC) against what happened.
"""
from __future__ import annotations

import math
import random
import sys
from multiprocessing import Pool
from typing import Callable, Sequence

import numpy as np

from agents.yaniv.common import STALL_TURNS, YANIV, Decision, Throw
from agents.yaniv.dmc import shipped_net, shipped_network, valued
from agents.yaniv.dmc_features import candidates, seen_of_table
from agents.yaniv.lookahead import Worlds
from agents.yaniv.sage import Outlook, Sage
from engine.yaniv.rules import Rules, Table

CLOSE = 0.03  # the network's two best throws within this are searched
WORLDS = 16  # deals of the unseen cards per search
REPLY = Sage(samples=50)  # the others' replies in a world
Valuer = Callable[[np.ndarray], np.ndarray]


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
           count: int = WORLDS) -> np.ndarray:
    """Each of ``throws``' share of ``count`` worlds won one turn ahead (the same worlds for each)."""
    won = np.zeros(len(throws))
    for _ in range(count):
        world = worlds.deal(rng)
        won += [after_turn(world, decisions[i], leaf, rng) for i in throws]  # type: ignore[arg-type]
    return won / count


def searchable(worlds: Worlds) -> bool:
    """Searched only in a deal not about to stall (where the players call whenever they may)."""
    return worlds.turn < STALL_TURNS - len(worlds.counts)


def lowest(table: Table, seat: int) -> bool:
    mine = table.rules.total(table.hands[seat])
    return all(mine < table.rules.total(h) for s, h in enumerate(table.hands) if s != seat and not table.out[s])


def wait_search(seen: Worlds, throw, belief: float, worlds: int, leaf, rng: random.Random) -> bool:
    """Whether to call: the belief against the searched value of waiting (see the module)."""
    won: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(worlds):
        world = seen.deal(rng)
        won[lowest(world, seen.seat)].append(after_turn(world, throw, leaf, rng))
    wait = belief * float(np.mean(won[True] or [1.0])) + (1 - belief) * float(np.mean(won[False] or [0.0]))
    return belief >= wait


def decide(variant: str, table: Table, net, leaf, rng: random.Random, spots: list) -> Decision:
    seat, seen = table.to_move, seen_of_table(table)
    assert seat is not None
    decisions, x, values = valued(net, seen)
    k = int(np.argmax(values))
    may_call = decisions[0] is YANIV and len(decisions) > 1 and table.turn < STALL_TURNS
    belief = float(x[0, 3])  # the seat row's belief that a call now wins
    kind, _, rest = variant.partition("-")
    if may_call:
        best = 1 + int(np.argmax(values[1:]))
        if kind == "seer":
            k = 0 if lowest(table, seat) else best
        elif kind == "belief":
            k = 0 if 2 * belief - 1 >= values[best] else best
        elif kind == "wait" and 0.3 <= belief <= 0.9:
            k = 0 if wait_search(seen.worlds, decisions[best], belief, int(rest), leaf, rng) else best
        spots.append((seen.worlds, belief, float(values[0]), k == 0, lowest(table, seat)))
    throws = close_throws(decisions, values) if kind == "level" and decisions[k] is not YANIV else []
    if throws and searchable(seen.worlds):
        k = throws[int(np.argmax(search(seen.worlds, decisions, throws, leaf, rng)))]
    return decisions[k]


def chunk(args) -> tuple[float, list[tuple]]:
    variant, seed, deals = args
    net, leaf, sage, won, spots = shipped_net(), shipped_network(), Sage(), 0.0, []
    for i in deals:
        rng, table = random.Random(f"{seed}:{i}"), Table.new(2, seed * 1_000_000 + i, Rules(), True)
        me, mine = i % 2, list[tuple]()
        while table.to_move is not None:
            if table.to_move == me:
                decision = decide(variant, table, net, leaf, rng, mine)
            else:
                decision = sage.choose(Outlook.of_state(table), rng)  # type: ignore[arg-type]
            table.call() if decision is YANIV else table.discard(*decision)
        winners = table.results[-1].winners
        won += 1 / len(winners) if me in winners else 0.0
        spots += [(*spot, me in winners) for spot in mine]
    return won, spots


def sampled(worlds: Worlds, rng: random.Random, samples: int, sifted: bool) -> float:
    """The share of resampled deals of the hidden cards in which the seat's total is strictly the lowest."""
    seat, wins = worlds.seat, 0
    for _ in range(samples):
        if sifted:
            wins += lowest(worlds.deal(rng), seat)
            continue
        pool, pos, others = rng.sample(worlds.unseen, len(worlds.unseen)), 0, []
        for s, held in enumerate(worlds.hands):
            if s != seat and not worlds.out[s]:
                n = worlds.counts[s] - len(held)
                others.append(worlds.rules.total(held + tuple(pool[pos:pos + n])))
                pos += n
        wins += worlds.rules.total(worlds.hands[seat]) < min(others)
    return wins / samples


def scores(name: str, p: np.ndarray, y: np.ndarray) -> str:
    q = np.clip(p, 1e-3, 1 - 1e-3)
    loss = -np.mean(y * np.log(q) + (1 - y) * np.log(1 - q))
    pos, neg = p[y == 1], p[y == 0]
    auc = np.mean([(a > neg).mean() + 0.5 * (a == neg).mean() for a in pos])
    return f"  {name}: mean {p.mean():.3f}, log loss {loss:.3f}, Brier {np.mean((p - y) ** 2):.3f}, AUC {auc:.3f}"


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--predictors"]
    variant, deals, seed = args[0], int(args[1]), int(args[2])
    processes = int(args[3]) if len(args) > 3 else 1
    parts = [(variant, seed, range(i, min(deals, i + 100))) for i in range(0, deals, 100)]
    with Pool(processes) as pool:
        results = pool.map(chunk, parts)
    share = sum(r[0] for r in results) / deals
    spots = [s for r in results for s in r[1]]
    called = [s for s in spots if s[3]]
    waited = [s for s in spots if not s[3]]
    print(f"{variant} vs sage: {share:.4f} ± {math.sqrt(share * (1 - share) / deals):.4f} over {deals} deals "
          f"(seed {seed})")
    print(f"  {len(spots)} decisions where it could call: called {len(called)}, of which Assaf "
          f"{sum(not s[4] for s in called)}; waited {len(waited)}, of which a call would have won "
          f"{sum(s[4] for s in waited)}, and the deal was won after waiting {sum(s[5] for s in waited)}")
    if "--predictors" in sys.argv:
        rng, y = random.Random(1), np.array([s[4] for s in spots], dtype=float)
        print(f"  chance that a call wins, at those {len(spots)} decisions (truth {y.mean():.3f}):")
        print(scores("belief", np.array([s[1] for s in spots]), y))
        print(scores("network's call value", (np.array([s[2] for s in spots]) + 1) / 2, y))
        print(scores("200 uniform resamples", np.array([sampled(s[0], rng, 200, False) for s in spots]), y))
        print(scores("200 sifted resamples", np.array([sampled(s[0], rng, 200, True) for s in spots]), y))


if __name__ == "__main__":
    main()
