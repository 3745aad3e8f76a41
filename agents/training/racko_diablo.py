"""``parlour train racko diablo``: learn Diablo's rack-scoring network by self-play TD.

    parlour train racko diablo [--hidden 34] [--rack-size 10] [--players 2] [--max-card 0]
        [--games 20000] [--batch 32] [--lr 0.003] [--epochs 1] [--max-turns 1500] [--workers 2]
        [--eval-games 400] [--seconds S] [--cpu-seconds S] [--seed 1] [--out agents/saved/racko/diablo.json]
        [--checkpoint-every N] [--resume]

One shared network plays every seat (self-play on the engine's ``Table``, with
the same decisions as the agent: ``agents.racko.diablo.choose``), forced random
moves on (every 2·rack_size-th turn of a seat, as the write-up's code). For each
seat, the rack it chose at its turn k (its best sequence's feature row) gets as
target the score of the rack it chose at turn k + 1, computed by the network
that played; the last one gets the seat's final points / (5r + 25). Turn k of n
weighs ``max(0, 1 - (n - k) / (4r))`` (the write-up's 0.1 · (1 - (n - k)/(4r))
with the 0.1 moved into the learning rate), so only a seat's last 4r turns teach.

Training is batched: ``--workers`` processes play ``--batch`` deals with the
current weights (numpy forward passes, every candidate rack of a decision in one
pass), then ``--epochs`` jitted JAX/optax steps (Adam on the weighted squared TD
error) on those samples update the network (the two-layer network learns too
slowly with one step per 32 deals). The learning curve is the write-up's Figure 2: moves per
game (a seat's turns per deal) over training games; every ``--eval-every``
games Diablo also plays ``--eval-games`` deals against Kyle (forced random moves
on for both). Written: diablo.npz (weights), diablo.json (metadata with the
command, seed, seconds and curve), diablo.svg (the curve).
With ``--checkpoint-every N``, every N deals (the first whole batch past a multiple
of N) the run so far is written as ``<out>-checkpoint.npz`` (the weights, Adam's state and
the progress: deals played, curve, evaluations, time), and the network alone as
``<out>-g<deals>.npz``; ``--resume`` with the same arguments (a larger
``--games`` or budget if wanted) goes on from there and ends with the weights of a run
without a stop.

A run whose first ``STALL_DEALS`` deals all hit ``--max-turns`` with no Rack-O stops there, and
its network is not saved. Some starting networks never finish a rack in self-play: at 10 slots with
``--hidden 34,30``, seeds 3, 6 and 9 of 1 to 10 finished none of 16 deals (the others 1 to 16 of 16;
session 20), every deal running to the cap at about 0.7 s, and seed 3 had still finished none after
1,536 deals of training. Such a run would spend its whole budget and write a network that never
finishes a rack. Another ``--seed`` starts from another network.
"""
from __future__ import annotations

import argparse
import datetime as dt
import multiprocessing
import os
import random
import shlex
import sys
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from agents.racko.arena import Decider, KyleDecider, play_deal
from agents.racko.diablo import DiabloDecider, draw_margin, pick, score_groups, tries
from agents.racko.features import FEATURES, rack_points_scale, unseen_prefix
from agents.racko.network import Network
from agents.saved_files import checkpoint_path, read_checkpoint, saved_path, write_checkpoint, write_saved
from agents.training.yaniv_plot import Panel, line_charts
from agents.racko.common import forced_turn, random_code
from engine.racko import FROM_DISCARD, OVER, Rules, Table


def td_weights(n: int, r: int) -> np.ndarray:
    k = np.arange(1, n + 1)
    return np.maximum(0.0, 1.0 - (n - k) / (4.0 * r))


class Deal:
    """One self-play deal in progress and each seat's chosen racks (feature row, score)."""

    def __init__(self, rules: Rules, players: int, seed: int):
        self.table = Table.new(players, seed, rules, single=True, log=False)
        self.rng = random.Random(f"diablo:{seed}")
        self.history: list[list[tuple[np.ndarray, float]]] = [[] for _ in range(players)]

    def seen(self) -> list[int]:
        """The cards the seat to move has seen: its rack, the discard pile, others' known cards."""
        t = self.table
        p = t.to_move
        out = t.racks[p] + t.discard
        for q, known in enumerate(t.known):
            if q != p:
                out += [c for c in known if c]
        return out

    def samples(self):
        """(rows, targets, weights) of the finished deal: see the module docstring."""
        t, result = self.table, self.table.last_result
        assert result is not None, "the deal is over"
        r = t.rules.rack_size
        scale = rack_points_scale(r)
        rows, targets, weights = [], [], []
        for p, h in enumerate(self.history):
            n = len(h)
            w = td_weights(n, r)
            for k in range(n):
                if w[k] > 0:
                    rows.append(h[k][0])
                    targets.append(h[k + 1][1] if k + 1 < n else min(1.0, result.points[p] / scale))
                    weights.append(w[k])
        return rows, targets, weights


def selfplay(net: Network, rules: Rules, players: int, seeds: list[int], width: int = 16,
             forced_random: bool = True):
    """Self-play the deals ``seeds``, ``width`` of them side by side (each decision step scores
    the candidates of every deal in one batch). Returns per deal (rows, targets, weights,
    turns per seat, winner) in the order of ``seeds``."""
    r, n_cards = rules.rack_size, rules.max_card
    margin = draw_margin(r)
    pending = list(reversed(seeds))
    active: list[Deal] = []
    done: dict[int, tuple] = {}
    while pending or active:
        while pending and len(active) < width:
            active.append(Deal(rules, players, pending.pop()))
        # the draw: random for a forced turn, else the discard top tried in each slot
        groups, asks = [], []
        for deal in active:
            t = deal.table
            p = t.to_move
            if forced_random and forced_turn(t.turns[p], r):
                t.step(random_code(True, False, r, deal.rng))
                continue
            slots, racks = tries(t.racks[p], t.discard[-1], n_cards)
            groups.append((racks, t.turns[p], unseen_prefix(n_cards, deal.seen())))
            asks.append((deal, slots))
        for (deal, slots), (values, rows) in zip(asks, score_groups(net, groups, n_cards) if groups else []):
            c = pick(slots, values, rows, margin)
            t = deal.table
            if c.slot is None:
                t.step(0)
            else:
                p = t.to_move
                t.step(1)
                t.step(3 + c.slot)
                deal.history[p].append((c.row, c.value))
        # the place: for every deal still holding a card
        groups = []
        places: list[tuple[Deal, int, list[int] | None]] = []
        for deal in active:
            t = deal.table
            if t.phase == OVER or t.drawn == 0:
                continue
            p = t.to_move
            rack = t.racks[p]
            prefix = unseen_prefix(n_cards, deal.seen() + [t.drawn])
            if forced_random and forced_turn(t.turns[p], r):
                t.step(random_code(False, t.source == FROM_DISCARD, r, deal.rng))
                groups.append(([rack], t.turns[p] - 1, prefix))
                places.append((deal, p, None))
            else:
                slots, racks = tries(rack, t.drawn, n_cards)
                groups.append((racks, t.turns[p], prefix))
                places.append((deal, p, slots))
        for (deal, p, placing), (values, rows) in zip(places, score_groups(net, groups, n_cards) if groups else []):
            if placing is None:
                deal.history[p].append((rows[0], float(values[0])))
                continue
            c = pick(placing, values, rows, 0.0)
            deal.table.step(2 if c.slot is None else 3 + c.slot)
            deal.history[p].append((c.row, c.value))
        still = []
        for deal in active:
            t = deal.table
            if t.phase == OVER:
                result = t.last_result
                assert result is not None  # a single deal's result, once it is over
                done[t.seed] = (*deal.samples(), list(t.turns), result.winner)
            else:
                still.append(deal)
        active = still
    return [done[s] for s in seeds]


def play_batch(layers, rules: Rules, players: int, seeds: list[int], forced_random: bool = True):
    """Self-play deals ``seeds`` with the given weights (runs in a worker process); also the
    CPU seconds it took."""
    start = time.process_time()
    deals = selfplay(Network(layers), rules, players, seeds, forced_random=forced_random)
    return deals, time.process_time() - start


# ----- the JAX update -----
class Learner:
    """The network's parameters and Adam state; ``step`` is one jitted weighted TD update."""

    def __init__(self, net: Network, lr: float, pad: int):
        import jax
        import jax.numpy as jnp
        import optax

        self.jnp = jnp
        self.params = [(jnp.asarray(w, jnp.float32), jnp.asarray(b, jnp.float32)) for w, b in net.layers]
        self.opt = optax.adam(lr)
        self.state = self.opt.init(self.params)
        self.pad = pad

        def forward(params, x):
            h = x
            for w, b in params:
                h = jax.nn.sigmoid(h @ w + b)
            return h[:, 0]

        def loss(params, x, y, wt):
            err = forward(params, x) - y
            return jnp.sum(wt * err * err) / jnp.maximum(1.0, jnp.sum(wt > 0))

        opt = self.opt

        @jax.jit
        def step(params, state, x, y, wt):
            value, grads = jax.value_and_grad(loss)(params, x, y, wt)
            updates, state = opt.update(grads, state, params)
            return optax.apply_updates(params, updates), state, value

        self._step = step

    def step(self, rows, targets, weights) -> float:
        n = len(rows)
        size = self.pad
        while size < n:
            size *= 2
        x = np.zeros((size, FEATURES), np.float32)
        y = np.zeros(size, np.float32)
        wt = np.zeros(size, np.float32)
        x[:n], y[:n], wt[:n] = rows, targets, weights
        self.params, self.state, value = self._step(self.params, self.state, x, y, wt)
        return float(value)

    def network(self) -> Network:
        return Network([(np.asarray(w), np.asarray(b)) for w, b in self.params])

    def arrays(self) -> dict[str, np.ndarray]:
        """The parameters and the Adam state as named arrays (for a checkpoint)."""
        import jax

        leaves = jax.tree_util.tree_leaves((self.params, self.state))
        return {f"leaf{k}": np.asarray(x) for k, x in enumerate(leaves)}

    def restore(self, arrays) -> None:
        """Back to the parameters and Adam state ``arrays`` saved."""
        import jax

        count = len(jax.tree_util.tree_leaves((self.params, self.state)))
        treedef = jax.tree_util.tree_structure((self.params, self.state))
        leaves = [self.jnp.asarray(arrays[f"leaf{k}"]) for k in range(count)]
        self.params, self.state = jax.tree_util.tree_unflatten(treedef, leaves)


def snapshot(out: Path, learner: Learner, progress: dict) -> None:
    """The run so far, resumable with ``--resume`` (``agents.saved_files.write_checkpoint``: the
    parameters, Adam's state and the progress in ``<out>-checkpoint.npz``); also the network alone
    as ``<out>-g<games>.npz`` (a Diablo network part way)."""
    write_checkpoint(checkpoint_path(out), learner.arrays(), progress)
    net = learner.network()
    net.meta_rack_size = progress["rack_size"]
    net.save(out.with_name(f"{out.stem}-g{progress['played']}.npz"))


# ----- the command -----
def build_parser(prog: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hidden", default="34", help="hidden layer sizes, comma-separated (34 or 34,30)")
    p.add_argument("--rack-size", type=int, default=10)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--max-card", type=int, default=0, help="0: (players + 2) * rack size")
    p.add_argument("--max-turns", type=int, default=1500)
    p.add_argument("--games", type=int, default=20_000, help="training deals")
    p.add_argument("--batch", type=int, default=32, help="deals per update")
    p.add_argument("--lr", type=float, default=0.003, help="Adam's learning rate")
    p.add_argument("--epochs", type=int, default=1, help="Adam steps on each batch's TD samples")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--eval-every", type=int, default=0, help="games between matches against Kyle (0: at the end only)")
    p.add_argument("--eval-games", type=int, default=400)
    p.add_argument("--seconds", type=float, default=float("inf"),
                   help="stop training after this long (wall clock), even before --games")
    p.add_argument("--cpu-seconds", type=float, default=float("inf"),
                   help="stop training once it has used this many CPU seconds (every process), even before --games")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", type=Path, default=None, help="default agents/saved/racko/diablo[2][-r5].json")
    p.add_argument("--checkpoint-every", type=int, default=0,
                   help="games between resumable checkpoints (<out>-checkpoint.npz, and the network "
                        "then as <out>-g<games>.npz); 0: none")
    p.add_argument("--resume", action="store_true",
                   help="go on from <out>-checkpoint.npz (same arguments as the run that wrote it)")
    return p


STALL_DEALS = 128
"""Deals after which a run that has not seen one Rack-O stops (see the module docstring)."""


def default_name(hidden: list[int], rack_size: int) -> str:
    name = "diablo" if len(hidden) == 1 else "diablo2"
    return name if rack_size == 10 else f"{name}-r{rack_size}"


def train(args, progress=None, executor: Executor | None = None, out: Path | None = None):
    """Run the training; returns (network, curve, evaluations, train seconds, train CPU seconds
    of every process). With ``out``, checkpoints every ``args.checkpoint_every`` games and
    (``args.resume``) starts from the last one."""
    hidden = [int(h) for h in str(args.hidden).split(",")]
    rules = Rules(args.rack_size, args.max_card or (args.players + 2) * args.rack_size, args.max_turns)
    net = Network.initial([FEATURES, *hidden, 1], args.seed)
    learner = Learner(net, args.lr, pad=args.batch * args.players * 4 * args.rack_size)
    curve, evaluations = [], []
    played, seconds, cpu = 0, 0.0, 0.0
    window: list[tuple[float, bool]] = []
    rackos: int | None = 0  # deals ended by a Rack-O, for the stall check (None: resumed, not checked)
    if out is not None and getattr(args, "resume", False):
        rackos = None
        arrays, saved = read_checkpoint(checkpoint_path(out))
        learner.restore(arrays)
        net = learner.network()
        played, seconds, cpu = saved["played"], saved["seconds"], saved["cpu"]
        curve, evaluations = saved["curve"], saved["evaluations"]
        window = [(m, bool(w)) for m, w in saved["window"]]
        if progress is not None:
            progress(played)
    budget_start = time.perf_counter()
    loss = float("nan")
    per_point = max(args.batch, args.games // 100)
    workers = max(1, args.workers)
    while played < args.games and time.perf_counter() - budget_start < args.seconds and cpu < args.cpu_seconds:
        start = time.perf_counter()
        count = min(args.batch, args.games - played)
        seeds = [args.seed * 10_000_000 + played + i for i in range(count)]
        cpu_start = time.process_time()
        if executor is None:
            deals, _ = play_batch(net.layers, rules, args.players, seeds)
        else:
            parts = [seeds[k::workers] for k in range(workers)]
            futures = [executor.submit(play_batch, net.layers, rules, args.players, part) for part in parts if part]
            results = [f.result() for f in futures]
            cpu += sum(c for _, c in results)
            by_seed = {s: d for part, (res, _) in zip(parts, results) for s, d in zip(part, res)}
            deals = [by_seed[s] for s in seeds]
        rows = [x for d in deals for x in d[0]]
        targets = [x for d in deals for x in d[1]]
        weights = [x for d in deals for x in d[2]]
        for _ in range(args.epochs):
            loss = learner.step(rows, targets, weights)
        net = learner.network()
        seconds += time.perf_counter() - start
        cpu += time.process_time() - cpu_start
        played += count
        for d in deals:
            window.append((sum(d[3]) / len(d[3]), d[4] >= 0))
        if rackos is not None:
            rackos += sum(d[4] >= 0 for d in deals)
        if rackos == 0 and played - count < STALL_DEALS <= played:
            raise SystemExit(f"stopped: none of the first {played} self-play deals ended in a Rack-O (each ran to "
                             f"--max-turns {args.max_turns}): the network --seed {args.seed} starts from does not "
                             f"finish racks (seed 3's still finished none after 1,536 deals). The network is "
                             f"not saved; try another --seed.")
        if len(window) >= per_point or played >= args.games:
            curve.append({"games": played, "moves_per_game": float(np.mean([m for m, _ in window])),
                          "racko_share": float(np.mean([w for _, w in window])), "loss": loss,
                          "seconds": round(seconds, 1), "cpu_seconds": round(cpu, 1)})
            window = []
        if args.eval_every and played % args.eval_every < count and played < args.games:
            evaluations.append(evaluate(net, args, played))
        every = getattr(args, "checkpoint_every", 0)
        if out is not None and every and played % every < count:
            snapshot(out, learner, {"played": played, "seconds": seconds, "cpu": cpu, "curve": curve,
                                     "evaluations": evaluations, "window": window, "rack_size": args.rack_size})
        if progress is not None:
            progress(count)
    if window:
        curve.append({"games": played, "moves_per_game": float(np.mean([m for m, _ in window])),
                      "racko_share": float(np.mean([w for _, w in window])), "loss": loss,
                      "seconds": round(seconds, 1), "cpu_seconds": round(cpu, 1)})
    evaluations.append(evaluate(net, args, played))
    return net, curve, evaluations, seconds, cpu


def evaluate(net: Network, args, played: int) -> dict:
    """Diablo against Kyle (forced random moves on for both, seats alternating): Diablo's
    share of the deals won, its standard error, moves per game."""
    rules = Rules(args.rack_size, args.max_card or (args.players + 2) * args.rack_size, args.max_turns)
    wins, moves = 0.0, 0
    games = args.eval_games
    for i in range(games):
        deciders: list[Decider] = [DiabloDecider(net), *(KyleDecider() for _ in range(args.players - 1))]
        shift = i % args.players
        deciders = deciders[shift:] + deciders[:shift]
        diablo_seat = (-shift) % args.players
        rng = random.Random(f"eval:{args.seed}:{i}")
        t = play_deal(rules, 777_000_000 + i, deciders, rng)
        wins += t.winner == diablo_seat
        moves += t.turns[diablo_seat]
    share = wins / games
    return {"games": played, "vs": "kyle", "deals": games, "win_share": share,
            "win_se": float(np.sqrt(share * (1 - share) / games)), "moves_per_game": moves / games}


def main(argv: list[str] | None = None, prog: str = "parlour train racko diablo") -> int:
    args = build_parser(prog).parse_args(argv)
    if args.games < 1 or args.batch < 1 or args.eval_games < 1:
        raise SystemExit("--games, --batch and --eval-games must be at least 1")
    hidden = [int(h) for h in str(args.hidden).split(",")]
    out = args.out or saved_path("racko", default_name(hidden, args.rack_size))
    command = ("parlour train racko diablo " + shlex.join(sys.argv[1:] if argv is None else argv)).strip()
    console = Console()
    started = time.perf_counter()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TimeRemainingColumn())
    with Progress(*columns, console=console) as progress:
        task = progress.add_task(f"training Diablo {FEATURES}-{'-'.join(map(str, hidden))}-1", total=args.games)
        if args.workers > 1:
            with ProcessPoolExecutor(args.workers, mp_context=multiprocessing.get_context("spawn")) as pool:
                net, curve, evaluations, train_seconds, cpu = train(args, lambda n: progress.advance(task, n),
                                                                    pool, out)
        else:
            net, curve, evaluations, train_seconds, cpu = train(args, lambda n: progress.advance(task, n), out=out)
    seconds = time.perf_counter() - started
    last = evaluations[-1]
    meta = {
        "command": command, "seed": args.seed, "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "shape": net.shape, "rules": {"rack_size": args.rack_size, "players": args.players,
                                      "max_card": args.max_card or (args.players + 2) * args.rack_size,
                                      "max_turns": args.max_turns},
        "games": curve[-1]["games"], "batch": args.batch, "lr": args.lr, "workers": args.workers,
        "timing": {"seconds": round(seconds, 1), "train_seconds": round(train_seconds, 1),
                   "train_cpu_seconds": round(cpu, 1),
                   "train_games_per_second": round(curve[-1]["games"] / train_seconds, 1),
                   "load_average": os.getloadavg()[0]},
        "curve": curve, "evaluations": evaluations,
        "claims": {"vs_kyle": last["win_share"], "vs_kyle_deals": last["deals"],
                   "moves_per_game": curve[-1]["moves_per_game"]},
        "values_file": out.with_suffix(".npz").name,
    }
    net.meta_rack_size = args.rack_size
    net.save(out.with_suffix(".npz"))
    write_saved(out, {"meta": meta})
    svg = out.with_suffix(".svg")
    panels = [Panel("moves per game (self-play)", "a seat's turns per deal",
                    [("Diablo", [p["games"] for p in curve], [p["moves_per_game"] for p in curve])],
                    x_label="training games")]
    if len(evaluations) > 1:
        panels.append(Panel("share of deals won vs Kyle", "win share",
                            [("Diablo", [e["games"] for e in evaluations], [e["win_share"] for e in evaluations])],
                            x_label="training games"))
    svg.write_text(line_charts(panels, f"Diablo: {command}", panel_width=420))
    console.print(f"Diablo after {curve[-1]['games']:,} games: {curve[-1]['moves_per_game']:.2f} moves per game; "
                  f"{100 * last['win_share']:.1f}% ± {100 * last['win_se']:.1f} of {last['deals']} deals against Kyle; "
                  f"{seconds:.0f} s ({meta['timing']['train_games_per_second']} training games/s, "
                  f"{cpu:.0f} CPU s in training); "
                  f"saved {out.with_suffix('.npz')}, {out}, {svg}")
    return 0
