"""``parlour train uno dmc``: the Deep Monte-Carlo Uno player (``agents.uno.dmc``).

    parlour train uno dmc [--cpu-hours 2] [--deals N] [--pool self=0.2,mix=0.3,betteroffensive=0.25,...]
        [--seats 2=0.5,3=0.1,4=0.2,5=0.2] [--reference betteroffensive] [--max-turns 400] [--lam 0.7]
        [--workers 2] [--cluster tcp://...] [--eval-every 4000] [--eval-deals 400]
        [--checkpoint-minutes 5] [--resume] [--seed 1]

The trainer is ``agents.training.dmc`` (see there); this module says how an Uno deal is
played for it: one deal under the official rules on the rules table, at a number of seats
drawn per deal from ``--seats``, the trained seat drawn too. The pool's opponents fill
every other seat: ``self`` (the network at every seat, and every seat learns), an agent
(``betteroffensive``, ``perceptron``, ``offensive``, ``defensive``, ``tactician``,
``random``) at all of them, or ``mix`` (each other seat one of BetterOffensive, the
perceptron, Offensive, Defensive, Tactician, at random): the write-up's tables are mixed.

A seat's return is the deal's points for it / 100 (``agents.uno.dmc.SCALE``): what it
scores when it goes out (every other hand), minus its own hand when another player goes
out, 0 when the deal reaches ``--max-turns`` (shorter than the game's 2,000 in training,
so that early deals of an untrained network stay short; the reference deals use the
game's rules). Why points and not the deal won: a whole game goes to the first past 500,
and the points decide it (docs/measurements/uno.md: in whole games the card rules that
shed high cards win, in single deals they tie); a deal lost holding few points costs
little, one lost holding wilds hands the winner 100. The learning curve is the share of
two-player deals the greedy network wins against the reference (its seat alternating).

Targets: with ``--lam`` 1 each decision learns the deal's return, as Deep Monte-Carlo does;
the default 0.7 mixes in the network's own value of the seat's next decision
(lambda-returns, ``lambda_returns``), which lowers the targets' noise. Measured with the
two-player training of ``tests/agents/test_uno_dmc.py`` at 16,384 deals (64-32 network,
about 30 s of CPU, 400 whole games each): 1.0 won 63.5% against Random and 37% against
BetterOffensive, 0.7 won 73% and 49.5%. The main run before it (Monte-Carlo targets,
256-128) won 47% of 300 whole games against BetterOffensive at 22,000 deals and 35% at
136,000: it drifted away.
"""
from __future__ import annotations

import random
from typing import Callable

from agents.qnet import QNet
from agents.training import dmc
from agents.uno.dmc import NAME, SCALE, DmcDecider
from agents.uno.dmc_features import FEATURES
from agents.uno.play import CardPlayer
from agents.uno.heuristics import BetterOffensive, Defensive, Offensive, RandomPlayer
from agents.uno.tactician import Tactician
from engine.uno.cards import hand_points
from engine.uno.rules import OVER, Rules, Table

DEFAULTS = {"pool": "self=0.2,mix=0.3,betteroffensive=0.25,perceptron=0.15,offensive=0.05,defensive=0.05",
            "reference": "betteroffensive", "hidden": "256,128", "batch": 64, "eval_every": 4000, "eval_deals": 400}
MIX = ("betteroffensive", "perceptron", "offensive", "defensive", "tactician")


def opponent(name: str):
    """A pool agent (a ``CardPlayer``)."""
    if name == "perceptron":
        from agents.uno.perceptron import load
        return load("linear")
    makers: dict[str, Callable[[], CardPlayer]] = {"betteroffensive": BetterOffensive, "offensive": Offensive, "defensive": Defensive,
              "tactician": Tactician, "random": RandomPlayer}
    if name not in makers:
        raise ValueError(f"no Uno player {name!r}: the pool takes self, mix, perceptron, {', '.join(makers)}")
    return makers[name]()


def seats_of(text: str) -> dict[int, float]:
    """``"2=0.4,4=0.6"`` -> {players: share}."""
    shares = dmc.pool_of(text)
    try:
        out = {int(k): v for k, v in shares.items()}
    except ValueError:
        raise SystemExit(f"--seats {text!r}: give players=share pairs, e.g. 2=0.5,4=0.5") from None
    if min(out) < 2 or max(out) > 10:
        raise SystemExit("--seats: 2 to 10 players")
    return out


def table_of(seed: int, seat: int, options: dict) -> tuple[int, int]:
    """The players and the trained seat of a deal: fixed (``players``) or drawn from ``seats``."""
    if "seats" not in options:
        return options["players"], seat % options["players"]
    rng = random.Random(f"uno-dmc-table:{seed}")
    counts = list(options["seats"])
    n = int(rng.choices(counts, [options["seats"][k] for k in counts])[0])
    return n, rng.randrange(n)


def deal_return(table: Table, seat: int) -> float:
    """The deal's points for ``seat`` (see the module docstring), / SCALE."""
    if table.winner < 0:
        return 0.0
    if table.winner == seat:
        return sum(hand_points(h) for h in table.hands) / SCALE
    return -hand_points(table.hands[seat]) / SCALE


def lambda_returns(values: list[float], final: float, lam: float) -> list[float]:
    """Each decision's target: ``lam`` times the next one's target plus ``1 - lam`` times the
    network's value of the next decision, the last one's the deal's return (``lam`` 1: the
    return itself, Monte-Carlo)."""
    out = [final] * len(values)
    for t in range(len(values) - 2, -1, -1):
        out[t] = lam * out[t + 1] + (1 - lam) * values[t + 1]
    return out


def play(layers, jobs, epsilon: float, options: dict, record: bool):
    """The trainer's ``Setup.play`` for Uno (see ``agents.training.dmc.Setup``)."""
    net = QNet(layers)
    rules = Rules(max_turns=options["max_turns"])
    rows, targets, results = [], [], []
    agents: dict = {}
    for seed, name, job_seat in jobs:
        n, seat = table_of(seed, job_seat, options)
        me = DmcDecider(net, epsilon, record)
        rng = random.Random(f"uno-dmc-actor:{seed}")
        if name == dmc.SELF:
            others = [None] * n
        else:
            names = [rng.choice(MIX) if name == "mix" else name for _ in range(n)]
            others = [agents.setdefault(x, opponent(x)) for x in names]
            others[seat] = None
        table = Table.new(n, seed, rules, single=True)
        while table.phase != OVER:
            p = table.turn
            other = others[p]
            table.step(me.choose_on(table, p, rng) if other is None else other.choose(table.hands[p], table.legal(), rng))
        for s, chosen in me.rows.items():
            rows += chosen
            targets += lambda_returns(me.values[s], deal_return(table, s), options["lam"])
        results.append(0 if table.winner < 0 else 1 if table.winner == seat else -1)
    return rows, targets, results


def add_options(parser) -> None:
    parser.add_argument("--seats", default="2=0.5,3=0.1,4=0.2,5=0.2", help="players at a training deal: n=share")
    parser.add_argument("--max-turns", type=int, default=400, help="moves that end a training deal")
    parser.add_argument("--lam", type=float, default=0.7,
                        help="1: each decision learns the deal's return (Monte-Carlo); below 1, lambda-returns "
                             "mixing in the network's value of the seat's next decision")


def make_setup(args) -> dmc.Setup:
    if args.max_turns < 1 or not 0 <= args.lam <= 1:
        raise SystemExit("--max-turns must be at least 1 and --lam in [0, 1]")
    seats = seats_of(args.seats)
    pool = dmc.pool_of(args.pool)
    for name in [*pool, args.reference]:
        if name not in (dmc.SELF, "mix"):
            try:
                opponent(name)
            except ValueError as err:
                raise SystemExit(str(err)) from None
    if args.reference in (dmc.SELF, "mix"):
        raise SystemExit("--reference must name an agent")
    return dmc.Setup("uno", NAME, FEATURES, 2, pool, args.reference, play,
                     {"seats": seats, "max_turns": args.max_turns, "lam": args.lam}, {"players": 2, "max_turns": Rules().max_turns})


def main(argv: list[str] | None = None, prog: str = "parlour train uno dmc") -> int:
    return dmc.main(argv, prog, __doc__.split("\n\n")[0], DEFAULTS, make_setup, add_options)
