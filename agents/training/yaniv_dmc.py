"""``parlour train yaniv dmc``: the Deep Monte-Carlo Yaniv player (``agents.yaniv.dmc``).

    parlour train yaniv dmc [--cpu-hours 2] [--deals N] [--pool self=0.3,sage=0.35,pythia=0.15,harel=0.1,greedyrandom=0.1]
        [--reference sage] [--max-turns 150] [--workers 2] [--cluster tcp://...]
        [--eval-every 4000] [--eval-deals 400] [--checkpoint-minutes 5] [--resume] [--init PATH] [--seed 1]

The trainer is ``agents.training.dmc`` (see there); this module says how a Yaniv deal is
played for it: one two-player deal under the default rules on the rules table
(``engine.yaniv.rules.Table``), the trained player a ``DmcDecider`` (both seats in
self-play), or against a pool agent: ``sage``, ``pythia``, ``harel`` (the shipped, frozen
table), ``greedyrandom``, ``semirandom``. A seat's return is the deal's result: +1 when it
scores 0 (its call, or the lowest hand at another's Assaf), -1 otherwise, 0 when the deal
reaches ``--max-turns`` (the players here call whenever they may past ``STALL_TURNS``, so
this cap is seldom met). The issue counts Yaniv in deals won, so the return is the deal
won, not its points. The learning curve is the share of fixed two-player deals the greedy
network wins against the reference (its seat alternating).
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from agents.qnet import QNet
from agents.training import dmc
from agents.yaniv.common import YANIV, seat_of_state
from agents.yaniv.dmc import NAME, DmcDecider
from agents.yaniv.dmc_features import FEATURES
from agents.yaniv.lookahead import Worlds
from agents.yaniv.sage import Outlook
from engine.yaniv.rules import Rules, Table

DEFAULTS = {"pool": "self=0.3,sage=0.35,pythia=0.15,harel=0.1,greedyrandom=0.1", "reference": "sage",
            "hidden": "256,128", "batch": 64, "eval_every": 4000, "eval_deals": 400}
NAMES = ("sage", "pythia", "harel", "greedyrandom", "semirandom")


def opponent(name: str):
    """A pool agent as a function ``(table, rng) -> decision`` for the seat to move."""
    if name == "sage":
        from agents.yaniv.sage import Sage
        sage = Sage()
        return lambda table, rng: sage.choose(Outlook.of_state(table), rng)
    if name == "pythia":
        from agents.yaniv.pythia import Pythia
        pythia = Pythia()
        return lambda table, rng: pythia.choose(Worlds.of_state(table), Outlook.of_state(table), rng)
    from agents.yaniv import trained_harel
    from agents.yaniv.heuristics import GreedyRandom, SemiRandom
    makers: dict[str, Callable] = {"harel": trained_harel, "greedyrandom": GreedyRandom, "semirandom": SemiRandom}
    if name not in makers:
        raise ValueError(f"no Yaniv player {name!r}: the pool takes self, {', '.join(NAMES)}")
    player = makers[name]()
    return lambda table, rng: player.choose(seat_of_state(table), rng)


def result(table: Table, seat: int) -> int:
    if table.to_move is not None:
        return 0
    return 1 if seat in table.results[-1].winners else -1


def play(layers, jobs, epsilon: float, options: dict, record: bool):
    """The trainer's ``Setup.play`` for Yaniv (see ``agents.training.dmc.Setup``)."""
    net = QNet(layers)
    rules, players, cap = Rules(), options["players"], options["max_turns"]
    rows, targets, results = [], [], []
    others: dict = {}
    learning: Sequence[int]
    for seed, name, seat in jobs:
        me = DmcDecider(net, epsilon, record)
        if name == dmc.SELF:
            deciders, learning = [me.choose_on] * players, range(players)
        else:
            if name not in others:
                others[name] = opponent(name)
            deciders = [others[name]] * players
            deciders[seat] = me.choose_on
            learning = [seat]
        rng = random.Random(f"dmc-actor:{seed}")
        table = Table.new(players, seed, rules, True)
        while table.to_move is not None and table.turn < cap:
            decision = deciders[table.to_move](table, rng)
            if decision is YANIV:
                table.call()
            else:
                table.discard(*decision)
        for s in learning if record else ():
            mine = me.rows.get(s, [])
            rows += mine
            targets += [float(result(table, s))] * len(mine)
        results.append(result(table, seat))
    return rows, targets, results


def add_options(parser) -> None:
    parser.add_argument("--max-turns", type=int, default=150, help="turns (all seats) that end a deal undecided")


def make_setup(args) -> dmc.Setup:
    if args.max_turns < 1:
        raise SystemExit("--max-turns must be at least 1")
    pool = dmc.pool_of(args.pool)
    for name in [*pool, args.reference]:
        if name != dmc.SELF:
            try:
                opponent(name)
            except ValueError as err:
                raise SystemExit(str(err)) from None
    options = {"players": 2, "max_turns": args.max_turns}
    return dmc.Setup("yaniv", NAME, FEATURES, 2, pool, args.reference, play, options, options)


def main(argv: list[str] | None = None, prog: str = "parlour train yaniv dmc") -> int:
    return dmc.main(argv, prog, __doc__.split("\n\n")[0], DEFAULTS, make_setup, add_options)
