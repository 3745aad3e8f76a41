"""Deep Monte-Carlo training (DouZero's method), for any game that gives it a ``Setup``.

A Q-network (``agents.qnet.QNet``: ReLU layers, one linear output) values a (state,
action) feature row. **Actors** play whole deals on the game's fast table with the
current weights (numpy forward passes, epsilon-greedy), each deal against an opponent
drawn from the pool: ``self`` (the current weights in every seat, and every seat
learns) or one of the game's agents (so it learns to beat them, not only itself).
Every action a learning seat chose becomes a row whose target is that seat's final
return of the deal. The **learner** (this process) fits the rows with Adam on the
mean squared error (JAX + optax), then the next batch of deals is played with the new
weights. Actors run on a ``concurrent.futures.Executor``: a local process pool
(``--workers``), or a Dask cluster with ``--cluster tcp://...`` (the executor
``parlour tournament`` uses); deal k's seed, opponent and seat depend only on the
run's seed and k, so the result does not depend on how the actors are spread.

Budget: ``--cpu-hours`` (at most 2) counts every process's CPU (the actors report
theirs). Every ``--eval-every`` training deals it plays ``--eval-deals`` fixed deals
greedily against the reference: the learning curve (the agent page draws its
windows). Checkpoints (weights, Adam's state, counters, curve) every
``--checkpoint-minutes`` and at the end; ``--init`` starts from saved weights
instead of random ones (a fine-tune; Adam starts afresh); ``--resume`` continues a run, reaching the
weights an uninterrupted run would have reached. SIGTERM or Ctrl-C stops it after the
batch in hand, with a checkpoint and the files below. Written: <name>.npz (weights),
<name>.json (metadata: command, seed, curve, timing), <name>.svg (the curve), and
<name>-checkpoint.npz.
"""
from __future__ import annotations

import argparse
import datetime as dt
import math
import multiprocessing
import os
import random
import shlex
import signal
import sys
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import numpy as np
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from agents.executors import executor
from agents.qnet import QNet
from agents.saved_files import checkpoint_path, read_checkpoint, saved_path, write_checkpoint, write_saved
from agents.training.yaniv_plot import Panel, line_charts

MAX_CPU_HOURS = 2.0
SELF = "self"


@dataclass(frozen=True)
class Setup:
    """What a game gives the trainer.

    ``play(layers, jobs, epsilon, options, record)`` (a module-level function, so it can
    be sent to an actor process) plays one deal per job ``(seed, opponent, seat)``
    (``opponent``: an agent id or ``SELF``; ``seat``: the trained player's seat when
    the opponent is an agent) and returns ``(rows, targets, results)``: with ``record``
    the learning seats' chosen feature rows (float32) and each one's final return; and
    per job the trained seat's result (1 win, 0 draw, -1 loss)."""

    game: str
    name: str
    features: int
    players: int
    pool: dict[str, float]
    reference: str
    play: Callable
    options: dict  # for training deals
    eval_options: dict  # for the reference matches


def pool_of(text: str) -> dict[str, float]:
    """``"self=0.4,diablo2=0.4,kyle=0.2"`` -> {name: share} (shares normalised)."""
    out = {}
    for part in text.split(","):
        name, _, share = part.partition("=")
        out[name.strip()] = float(share or 1)
    total = sum(out.values())
    if not out or total <= 0 or min(out.values()) < 0:
        raise SystemExit(f"--pool {text!r}: give name=share pairs with positive shares")
    return {k: v / total for k, v in out.items()}


def jobs_for(seed: int, first: int, count: int, pool: dict[str, float], players: int) -> list[tuple[int, str, int]]:
    """Training deals ``first .. first + count - 1``: (deal seed, opponent, trained seat)."""
    names, shares = list(pool), list(pool.values())
    out = []
    for k in range(first, first + count):
        opponent = random.Random(f"dmc:{seed}:{k}").choices(names, shares)[0]
        out.append((seed * 10_000_000 + k, opponent, k % players))
    return out


def actor(play: Callable, layers, jobs, epsilon: float, options: dict, record: bool):
    """One actor's share of a batch (runs in a worker): ``play``'s answer and its CPU seconds."""
    start = time.process_time()
    out = play(layers, jobs, epsilon, options, record)
    return out, time.process_time() - start


def run_jobs(setup: Setup, executor: Executor | None, workers: int, layers, jobs, epsilon: float,
             options: dict, record: bool):
    """Every job's rows, targets and results (in job order), and the actors' CPU seconds."""
    if executor is None:
        (rows, targets, results), cpu = actor(setup.play, layers, jobs, epsilon, options, record)
        return rows, targets, results, cpu
    parts = [jobs[k::workers] for k in range(workers)]
    futures = [executor.submit(actor, setup.play, layers, part, epsilon, options, record) for part in parts if part]
    answers = [f.result() for f in futures]
    results = [0] * len(jobs)
    for k, ((_, _, res), _) in enumerate(answers):
        results[k::workers] = res
    rows = [r for (a, _) in answers for r in a[0]]
    targets = [t for (a, _) in answers for t in a[1]]
    return rows, targets, results, sum(c for _, c in answers)


# ----- the learner -----
class Learner:
    """The network's parameters and Adam's state; ``fit`` runs minibatch steps (MSE)."""

    def __init__(self, net: QNet, lr: float, minibatch: int):
        os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")
        import jax
        import jax.numpy as jnp
        import optax

        self.jax = jax
        self.params = [(jnp.asarray(w, jnp.float32), jnp.asarray(b, jnp.float32)) for w, b in net.layers]
        self.opt = optax.adam(lr)
        self.state = self.opt.init(self.params)
        self.minibatch = minibatch

        def forward(params, x):
            h = x
            for w, b in params[:-1]:
                h = jax.nn.relu(h @ w + b)
            w, b = params[-1]
            return (h @ w + b)[:, 0]

        def loss(params, x, y):
            err = forward(params, x) - y
            return jnp.mean(err * err)

        opt = self.opt

        @jax.jit
        def step(params, state, x, y):
            value, grads = jax.value_and_grad(loss)(params, x, y)
            updates, state = opt.update(grads, state, params)
            return optax.apply_updates(params, updates), state, value

        self._step = step

    def fit(self, rows: np.ndarray, targets: np.ndarray, epochs: float, rng: np.random.Generator) -> float:
        """``epochs`` passes over the rows in shuffled minibatches (the last one wraps
        around, so every step has the same shape); the mean loss."""
        n = len(rows)
        if n == 0:
            return float("nan")
        steps = max(1, math.ceil(epochs * n / self.minibatch))
        order = np.concatenate([rng.permutation(n) for _ in range(math.ceil(steps * self.minibatch / n))])
        losses = []
        for s in range(steps):
            idx = order[s * self.minibatch:(s + 1) * self.minibatch]
            self.params, self.state, value = self._step(self.params, self.state, rows[idx], targets[idx])
            losses.append(float(value))
        return float(np.mean(losses))

    def network(self) -> QNet:
        return QNet([(np.asarray(w), np.asarray(b)) for w, b in self.params])

    def state_arrays(self) -> dict[str, np.ndarray]:
        leaves = self.jax.tree_util.tree_leaves(self.state)
        return {f"adam{k}": np.asarray(leaf) for k, leaf in enumerate(leaves)}

    def load_state(self, data: dict) -> None:
        treedef = self.jax.tree_util.tree_structure(self.state)
        count = len(self.jax.tree_util.tree_leaves(self.state))
        leaves = [self.jax.numpy.asarray(data[f"adam{k}"]) for k in range(count)]
        self.state = self.jax.tree_util.tree_unflatten(treedef, leaves)


def initial_net(path: Path, sizes: list[int]) -> QNet:
    """``--init``: the weights at ``path``, which must have the shape the options ask for."""
    if not path.is_file():
        raise SystemExit(f"--init: no weights at {path}")
    net = QNet.load(path)
    if net.shape != sizes:
        raise SystemExit(f"--init: {path}'s network is {net.shape}, the options ask for {sizes}")
    return net


# ----- checkpoints -----
def save_checkpoint(path: Path, learner: Learner, progress: dict) -> None:
    write_checkpoint(path, {**learner.network().arrays(), **learner.state_arrays()}, progress)


def load_checkpoint(path: Path) -> tuple[QNet, dict, dict]:
    arrays, progress = read_checkpoint(path)
    return QNet.from_arrays(arrays), arrays, progress


# ----- the loop -----
def evaluate(setup: Setup, net: QNet, executor, workers: int, deals: int, seed: int) -> dict:
    """``deals`` fixed deals, greedy, against the reference (seats alternating)."""
    jobs = [(900_000_000 + seed * 100_000 + k, setup.reference, k % setup.players) for k in range(deals)]
    _, _, results, cpu = run_jobs(setup, executor, workers, net.layers, jobs, 0.0, setup.eval_options, False)
    return {"games": deals, "win": results.count(1), "draw": results.count(0), "loss": results.count(-1),
            "cpu": cpu}


def train(setup: Setup, args, executor: Executor | None, out: Path, report: Callable[[dict], None]) -> dict:
    """Train until ``args.deals`` or the CPU budget; returns the final progress record."""
    sizes = [setup.features, *[int(h) for h in args.hidden.split(",")], 1]
    ckpt = checkpoint_path(out)
    if args.resume:
        net, arrays, progress = load_checkpoint(ckpt)
        if net.shape != sizes:
            raise SystemExit(f"--resume: the checkpoint's network is {net.shape}, the options ask for {sizes}")
        learner = Learner(net, args.lr, args.minibatch)
        learner.load_state(arrays)
    else:
        net = initial_net(args.init, sizes) if args.init else QNet.initial(sizes, args.seed)
        learner = Learner(net, args.lr, args.minibatch)
        progress = {"deals": 0, "cpu": 0.0, "seconds": 0.0, "windows": [], "batches": [], "commands": []}
    if progress["commands"]:  # commands[k + 1] took over from commands[k] at resumed_at[k] deals
        progress.setdefault("resumed_at", []).append(progress["deals"])
    progress["commands"].append(args.command)
    budget = min(args.cpu_hours, MAX_CPU_HOURS) * 3600
    workers = max(1, args.workers)
    cpu_mark, wall_mark, saved_at = time.process_time(), time.perf_counter(), time.perf_counter()

    def account() -> None:
        nonlocal cpu_mark, wall_mark
        now_cpu, now_wall = time.process_time(), time.perf_counter()
        progress["cpu"] += now_cpu - cpu_mark
        progress["seconds"] += now_wall - wall_mark
        cpu_mark, wall_mark = now_cpu, now_wall

    stop = []
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.append(True))
    while progress["deals"] < args.deals and progress["cpu"] < budget and not stop:
        first = progress["deals"]
        count = min(args.batch, args.deals - first)
        jobs = jobs_for(args.seed, first, count, setup.pool, setup.players)
        rows, targets, results, actor_cpu = run_jobs(setup, executor, workers, net.layers, jobs, args.epsilon,
                                                     setup.options, True)
        rng = np.random.default_rng([args.seed, first])
        loss = learner.fit(np.asarray(rows, np.float32), np.asarray(targets, np.float32), args.epochs, rng)
        net = learner.network()
        progress["deals"] = first + count
        progress["cpu"] += actor_cpu
        by_opponent: dict[str, list[int]] = {}
        for (_, opponent, _), r in zip(jobs, results):
            by_opponent.setdefault(opponent, []).append(r)
        progress["batches"].append({"end": progress["deals"], "rows": len(rows), "loss": round(loss, 5),
                                    "results": {k: round(float(np.mean(v)), 3) for k, v in by_opponent.items()}})
        account()
        if progress["deals"] // args.eval_every > first // args.eval_every:
            e = evaluate(setup, net, executor, workers, args.eval_deals, args.seed)
            progress["cpu"] += e.pop("cpu")
            account()
            progress["windows"].append({**e, "end": progress["deals"], "cpu_seconds": round(progress["cpu"], 1)})
        if time.perf_counter() - saved_at > 60 * args.checkpoint_minutes:
            save_checkpoint(ckpt, learner, progress)
            saved_at = time.perf_counter()
        report(progress)
    account()
    save_checkpoint(ckpt, learner, progress)
    progress["net"] = net
    return progress


def build_parser(prog: str, doc: str, defaults: dict) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=prog, description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--deals", type=int, default=defaults.get("deals", 1_000_000), help="training deals at most")
    p.add_argument("--cpu-hours", type=float, default=defaults.get("cpu_hours", 2.0),
                   help=f"CPU budget, every process counted (at most {MAX_CPU_HOURS:g})")
    p.add_argument("--batch", type=int, default=defaults.get("batch", 64), help="deals per update")
    p.add_argument("--epochs", type=float, default=1.0, help="passes over each batch's rows")
    p.add_argument("--minibatch", type=int, default=256)
    p.add_argument("--lr", type=float, default=1e-3, help="Adam's learning rate")
    p.add_argument("--hidden", default=defaults.get("hidden", "256,128"), help="hidden layer sizes")
    p.add_argument("--epsilon", type=float, default=0.03, help="share of random actions in training deals")
    p.add_argument("--pool", default=defaults["pool"], help="opponents and shares: self=0.4,NAME=0.6")
    p.add_argument("--reference", default=defaults["reference"], help="the agent the learning curve is measured against")
    p.add_argument("--eval-every", type=int, default=defaults.get("eval_every", 2000))
    p.add_argument("--eval-deals", type=int, default=defaults.get("eval_deals", 200))
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--cluster", default=None, help="a Dask scheduler, e.g. tcp://127.0.0.1:8786")
    p.add_argument("--checkpoint-minutes", type=float, default=5.0)
    p.add_argument("--resume", action="store_true", help="continue from <out>-checkpoint.npz")
    p.add_argument("--init", type=Path, default=None,
                   help="start from these weights (a .npz the trainer wrote) instead of random ones; Adam starts afresh")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", type=Path, default=None, help="default agents/saved/<game>/dmc.json")
    return p


def validate(args) -> None:
    if args.cpu_hours <= 0 or args.cpu_hours > MAX_CPU_HOURS:
        raise SystemExit(f"--cpu-hours must be in (0, {MAX_CPU_HOURS:g}]")
    if min(args.deals, args.batch, args.minibatch, args.eval_every, args.eval_deals, args.workers) < 1:
        raise SystemExit("--deals, --batch, --minibatch, --eval-every, --eval-deals and --workers must be at least 1")
    if not 0 <= args.epsilon <= 1 or args.epochs <= 0:
        raise SystemExit("--epsilon must be in [0, 1] and --epochs positive")


def write_outputs(setup: Setup, args, out: Path, progress: dict) -> dict:
    net: QNet = progress["net"]
    windows = progress["windows"]
    pooled = windows[-5:]  # the claim: the last five points of the curve together (one is noisy)
    meta = {
        "command": progress["commands"][0], "commands": progress["commands"],
        "resumed_at": progress.get("resumed_at", []), "seed": args.seed,
        "init": str(args.init) if args.init else None,
        "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"), "method": "deep Monte-Carlo",
        "shape": net.shape, "options": setup.options, "pool": setup.pool, "epsilon": args.epsilon, "lr": args.lr,
        "batch": args.batch, "epochs": args.epochs, "deals": progress["deals"],
        "timing": {"cpu_seconds": round(progress["cpu"], 1), "seconds": round(progress["seconds"], 1),
                   "load_average": os.getloadavg()[0]},
        "curve": {"window": args.eval_every, "reference": setup.reference, "options": setup.eval_options,
                  "games": progress["deals"], "windows": windows, "x_label": "deals trained"},
        "batches": progress["batches"][::max(1, len(progress["batches"]) // 200)],
        "claims": None if not pooled else {
            "vs": setup.reference, "deals": sum(w["games"] for w in pooled),
            "win_share": sum(w["win"] for w in pooled) / sum(w["games"] for w in pooled),
            "from": f"the last {len(pooled)} points of the curve (greedy, fixed deals)"},
        "values_file": out.with_suffix(".npz").name,
    }
    net.save(out.with_suffix(".npz"))
    write_saved(out, {"meta": meta})
    batches = progress["batches"]
    names = sorted({k for b in batches for k in b["results"]})
    series = []
    for name in names:  # each opponent's mean result, per stretch of --eval-every deals
        stretches: dict[int, list[float]] = {}
        for b in batches:
            if name in b["results"]:
                stretches.setdefault(-(-b["end"] // args.eval_every), []).append(b["results"][name])
        series.append((name, [k * args.eval_every for k in stretches], [float(np.mean(v)) for v in stretches.values()]))
    panels = [Panel("training deals by opponent (epsilon-greedy)", "mean result (+1 won, -1 lost)", series,
                    x_label="training deals"),
              Panel(f"greedy vs {setup.reference}, fixed deals (one line)", "share of deals won",
                    [("won", [w["end"] for w in windows], [w["win"] / w["games"] for w in windows])],
                    x_label="training deals")]
    out.with_suffix(".svg").write_text(line_charts(panels, f"{setup.name}: {meta['command']}", panel_width=420))
    return meta


@contextmanager
def actors(workers: int, cluster: str | None) -> Iterator[Executor | None]:
    """``parlour tournament``'s Dask executor with ``--cluster``; else a local pool of
    spawned processes (not forked: this process runs JAX; they leave Ctrl-C to this one,
    which stops after the batch in hand), None for one worker."""
    if cluster:
        with executor(workers, cluster) as pool:
            yield pool
    elif workers == 1:
        yield None
    else:
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                 initializer=signal.signal, initargs=(signal.SIGINT, signal.SIG_IGN)) as pool:
            yield pool


def main(argv: list[str] | None, prog: str, doc: str, defaults: dict,
         make_setup: Callable[[argparse.Namespace], Setup], add_options: Callable[[argparse.ArgumentParser], None]) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(prog, doc, defaults)
    add_options(parser)
    args = parser.parse_args(argv)
    validate(args)
    args.command = f"{prog} {shlex.join(argv)}".strip()
    setup = make_setup(args)
    out = args.out or saved_path(setup.game, setup.name)
    console = Console()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console) as bar, actors(args.workers, args.cluster) as pool:
        task = bar.add_task(f"DMC {setup.game}", total=args.deals)
        budget = min(args.cpu_hours, MAX_CPU_HOURS) * 3600

        logged = [0]

        def report(p: dict) -> None:
            w = p["windows"][-1] if p["windows"] else None
            vs = f", {100 * w['win'] / w['games']:.0f}% vs {setup.reference}" if w else ""
            if w is not None and len(p["windows"]) > logged[0]:  # a line per point of the curve, for logs
                logged[0] = len(p["windows"])
                b = p["batches"][-1]
                bar.console.print(f"{p['deals']:,} deals, {p['cpu']:.0f} CPU s, {p['seconds']:.0f} s: "
                                  f"won {w['win']}, drew {w['draw']}, lost {w['loss']} of {w['games']} against "
                                  f"{setup.reference}; last batch: loss {b['loss']}, results {b['results']}")
            bar.update(task, completed=p["deals"],
                       description=f"DMC {setup.game}: CPU {p['cpu'] / 60:.0f}/{budget / 60:.0f} min{vs}")

        progress = train(setup, args, pool, out, report)
    meta = write_outputs(setup, args, out, progress)
    claims = meta["claims"]
    console.print(f"{setup.name} after {progress['deals']:,} deals, {progress['cpu']:.0f} CPU s: "
                  + (f"{100 * claims['win_share']:.1f}% of {claims['deals']} deals against {setup.reference}; "
                     if claims else "")
                  + f"saved {out.with_suffix('.npz')}, {out}, {out.with_suffix('.svg')}, {checkpoint_path(out)}")
    return 0
