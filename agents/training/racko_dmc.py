"""``parlour train racko dmc``: the Deep Monte-Carlo Rack-O player (``agents.racko.dmc``).

    parlour train racko dmc [--cpu-hours 2] [--deals N] [--pool self=0.3,diablo2=0.4,diablo=0.15,kyle=0.15]
        [--reference diablo2] [--rack-size 10] [--max-turns 300] [--workers 2] [--cluster tcp://...]
        [--eval-every 2000] [--eval-deals 200] [--checkpoint-minutes 5] [--resume] [--seed 1]

The trainer is ``agents.training.dmc`` (see there); this module says how a Rack-O
deal is played for it: on the arena's table (``agents.racko.arena``), the trained
player a ``DmcDecider`` (every seat in self-play), the write-up's players with their
forced random move as they play in the lobby. A seat's return is +1 when it goes
Rack-O, -1 when another seat does, 0 when the deal reaches ``--max-turns`` (shorter
than the game's 1,500 in training, so that early deals between untrained seats stay
short; the reference matches use the game's rules), plus ``--shaping`` times its
final rack's longest usable sequence / r. Without that term nothing is learned:
an untrained seat never goes Rack-O, so every target is -1 (against an agent) or 0
(self-play deals stall), and in a first try (960 deals, 47 CPU seconds) it lost
every deal against Diablo and Diablo2 and 75-100% against Kyle throughout; with 0.5,
1,024 deals (49 CPU seconds) still lost all 200 reference deals and every self-play
deal stalled at the cap; with 2.0 (and rows without the ``kept`` and ``outs`` features)
it won 22-27% of the reference deals against Diablo2 from 8,000 to 15,000 deals and
no more, and resumed with 0.5 it fell to 13%. The default is 1.0. The learning curve is the share
of 2-player, 10-slot deals won against the reference.
"""
from __future__ import annotations

import random
from collections.abc import Sequence

from agents.qnet import QNet
from agents.racko.common import usable_sequence_length
from agents.racko.arena import KyleDecider, MaxDecider, RandomDecider, play_deal
from agents.racko.dmc import NAME, DmcDecider
from agents.racko.dmc_features import feature_count
from agents.training import dmc
from engine.racko import Rules

DEFAULTS = {"pool": "self=0.3,diablo2=0.4,diablo=0.15,kyle=0.15", "reference": "diablo2", "hidden": "256,128",
            "batch": 64, "eval_every": 2000, "eval_deals": 200}


def opponent(name: str):
    """An arena decider for a pool agent (the catalog's players, forced random move on)."""
    if name in ("diablo", "diablo2"):
        from agents.racko.diablo import DiabloDecider
        from agents.racko.shipped import diablo_nets
        return DiabloDecider(diablo_nets(name))
    makers = {"kyle": KyleDecider, "max": MaxDecider, "random": RandomDecider}
    if name not in makers:
        raise ValueError(f"no arena player for {name!r}: the pool takes self, diablo, diablo2, kyle, max, random")
    return makers[name]()


def result(winner: int, seat: int) -> int:
    return 0 if winner < 0 else 1 if winner == seat else -1


def play(layers, jobs, epsilon: float, options: dict, record: bool):
    """The trainer's ``Setup.play`` for Rack-O (see ``agents.training.dmc.Setup``)."""
    net = QNet(layers)
    rules = Rules(options["rack_size"], options["max_card"], options["max_turns"])
    players = options["players"]
    rows, targets, results = [], [], []
    others = {}
    learning: Sequence[int]
    for seed, name, seat in jobs:
        me = DmcDecider(net, epsilon, record)
        if name == dmc.SELF:
            deciders, learning = [me] * players, range(players)
        else:
            if name not in others:
                others[name] = opponent(name)
            deciders = [others[name]] * players
            deciders[seat] = me
            learning = [seat]
        table = play_deal(rules, seed, deciders, random.Random(f"dmc-actor:{seed}"))
        for s in learning if record else ():
            rows += me.rows[s]
            done = usable_sequence_length(table.racks[s], rules.max_card) / rules.rack_size
            targets += [result(table.winner, s) + options["shaping"] * done] * len(me.rows[s])
        results.append(result(table.winner, seat))
    return rows, targets, results


def add_options(parser) -> None:
    parser.add_argument("--rack-size", type=int, default=10)
    parser.add_argument("--max-turns", type=int, default=300, help="turns (all seats) that end a training deal")
    parser.add_argument("--shaping", type=float, default=1.0,
                        help="added to a seat's return: this times its final rack's longest usable sequence / r")


def make_setup(args) -> dmc.Setup:
    if args.rack_size < 3 or args.max_turns < 1:
        raise SystemExit("--rack-size must be at least 3 and --max-turns at least 1")
    players = 2
    max_card = (players + 2) * args.rack_size
    base = {"players": players, "rack_size": args.rack_size, "max_card": max_card}
    pool = dmc.pool_of(args.pool)
    for name in [*pool, args.reference]:
        if name != dmc.SELF:
            opponent(name)
    return dmc.Setup("racko", NAME, feature_count(args.rack_size), players, pool, args.reference, play,
                     {**base, "max_turns": args.max_turns, "shaping": args.shaping}, {**base, "max_turns": 1500})


def main(argv: list[str] | None = None, prog: str = "parlour train racko dmc") -> int:
    return dmc.main(argv, prog, __doc__.split("\n\n")[0], DEFAULTS, make_setup, add_options)
