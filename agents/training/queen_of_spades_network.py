"""``parlour train queen_of_spades network``: the write-up's policy network and its iterative self-play.

    parlour train queen_of_spades network [--iterations 8] [--random-deals 60000] [--deals 30000]
        [--first-epochs 2] [--epochs 1] [--eval-deals 1000] [--batch 1024] [--learning-rate 0.001]
        [--epsilon 0.1] [--keep 1] [--cpu-hours 2] [--workers 2] [--cluster tcp://host:port] [--seed 1]
        [--out agents/saved/queen_of_spades/network.json] [--resume]
        (writes network.npz, network.json and network.svg; network-checkpoint.npz while it runs)

The schedule (the Queen of Spades write-up's "iterative training"):

1. data from ``--random-deals`` deals of four random players (28 rows a deal: each
   player's decisions of tricks 1..7, the input and the card played, the target the
   player's final deal score times 0.25);
2. train a new network on it (``--first-epochs``): this first model is the
   *reference* every later model is measured against, and the best so far;
3. data from ``--deals`` deals of the best model playing itself (greedy, with a
   random legal card with probability ``--epsilon``: *choice*, so that cards it
   would never play still get data);
4. train the best model on the new data plus the ``--keep`` data sets before it
   (``--epochs``) into a candidate;
5. evaluate the candidate against the best model: ``--eval-deals`` duplicate deals
   (each deal played twice, A B A B then B A B A); keep it if its pair's mean points
   per deal are above zero; go to 3 until ``--iterations`` models are made.

After each model, a learning-curve point: its mean points per deal (per player of its
pair) against the reference model in the same duplicate deals every time, with the
standard error over deals, the share of those deals its pair won by taking every
trick, the share of all-tricks deals in its self-play data, and its pair's mean against
the rule player's in the same deals. The best model so far is saved after every point,
so a run stopped early ships what ``--iterations`` = its last model makes. Self-play and
evaluations are played by actors (``queen_of_spades_actors``: this process with ``--workers 1``,
a local pool, or a Dask cluster; the data do not depend on which), each job's deals side by side
(``network_play``) on the numpy forward pass; training is JAX + optax in this process (Adam,
squared error on the played card only). ``--cpu-hours`` (at most 2, every process counted)
is checked before each new model: once spent, the run ends with the models it has.

After every model the whole state of the run (the reference and best models, the data
sets the next model trains on, the curve, the timings and the random generator's state)
goes to ``<out>-checkpoint.npz``; ``--resume`` continues from there with the same options
(``--iterations`` may grow) and makes the models an unbroken run would (each iteration starts a fresh optimiser, so
nothing else carries over). The CPU and wall seconds in the metadata add up the pieces.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import shlex
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from agents.queen_of_spades.network_jax import Fitter
from agents.queen_of_spades.network_weights import LAYERS, TARGET_SCALE, Weights, initial, save
from agents.saved_files import saved_path, write_saved
from agents.training.dmc import MAX_CPU_HOURS, actors
from agents.training.queen_of_spades_actors import RULES, Actors, Player, Rows
from agents.training.yaniv_plot import Panel, line_charts


@dataclass(frozen=True)
class Schedule:
    iterations: int = 8
    random_deals: int = 60_000
    deals: int = 30_000
    first_epochs: int = 2
    epochs: int = 1
    eval_deals: int = 1_000
    batch: int = 1_024
    learning_rate: float = 1e-3
    epsilon: float = 0.1
    keep: int = 1


def seeds(seed: int, stream: int, n: int) -> list[int]:
    """``n`` deal seeds of one stream (0: evaluations, k: iteration k's data)."""
    rng = np.random.default_rng([seed, stream])
    return [int(s) for s in rng.integers(0, 2**48, n)]


def concat(sets: list[Rows]) -> Rows:
    return tuple(np.concatenate([s[i] for s in sets]) for i in range(3))  # type: ignore[return-value]


@dataclass
class State:
    """Everything a run carries from one model to the next: what a checkpoint holds."""
    reference: Weights
    best: Weights
    sets: list[Rows]
    curve: list[dict]
    timing: dict
    rng_state: dict


def save_checkpoint(path: Path, state: State, extra: dict) -> None:
    """The state in one .npz (written beside and then moved over the old one, so a run killed while
    saving keeps the previous checkpoint); ``extra`` (JSON) rides along for the command."""
    arrays = {}
    for name, weights in (("reference", state.reference), ("best", state.best)):
        arrays.update({f"{name}_{k}": v for k, v in weights.to_arrays().items()})
    for i, rows in enumerate(state.sets):
        arrays.update({f"set{i}_x": rows[0], f"set{i}_card": rows[1], f"set{i}_target": rows[2]})
    meta = {"curve": state.curve, "timing": state.timing, "rng_state": state.rng_state, "sets": len(state.sets),
            **extra}
    arrays["meta"] = np.array(json.dumps(meta))
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.stem + ".tmp.npz")
    np.savez(tmp, **arrays)  # type: ignore[arg-type]  # numpy's stub takes the keyword arrays for its flags
    os.replace(tmp, path)


def load_checkpoint(path: Path) -> tuple[State, dict]:
    if not path.exists():
        raise SystemExit(f"--resume: no checkpoint at {path}")
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays.pop("meta")))

    def weights(name: str) -> Weights:
        return Weights.from_arrays({k[len(name) + 1:]: v for k, v in arrays.items() if k.startswith(name + "_")})

    sets = [(arrays[f"set{i}_x"], arrays[f"set{i}_card"], arrays[f"set{i}_target"]) for i in range(meta["sets"])]
    state = State(weights("reference"), weights("best"), sets, meta.pop("curve"), meta.pop("timing"),
                  meta.pop("rng_state"))
    return state, meta


def run(schedule: Schedule, seed: int, on_phase=None, on_point=None, resume: State | None = None,
        players: Actors | None = None, spent=lambda: False) -> tuple[Weights, list[dict], dict]:
    """Train through the schedule; (the best model, one curve point per model, timings).
    ``on_phase(text)`` is told each phase as it starts, ``on_point(point, state)`` each curve point
    with the run's state (the command saves the best model and a checkpoint then: a run stopped
    early has shipped what ``--iterations`` = its last model would make). ``resume`` continues
    from a checkpoint's state. ``players`` plays the deals (default: in this process); the run stops
    before a new model when ``spent()`` says the CPU budget is used up."""
    rng = np.random.default_rng([seed, 99])  # the first model's weights and the minibatches
    players = players or Actors(None, seed)
    say = on_phase or (lambda text: None)
    tell = on_point or (lambda point, state: None)
    eval_seeds = seeds(seed, 0, schedule.eval_deals)
    timing = {"self_play_seconds": 0.0, "self_play_deals": 0, "train_seconds": 0.0, "train_rows": 0,
              "eval_seconds": 0.0}

    def generate(player: Player, n: int, stream: int) -> tuple[Rows, float]:
        """A data set and the share of its deals won by taking every trick."""
        start = time.perf_counter()
        rows, all_tricks = players.self_play(player, seeds(seed, stream, n), stream)
        timing["self_play_seconds"] += time.perf_counter() - start
        timing["self_play_deals"] += n
        return rows, float((all_tricks >= 0).mean())

    def train(fitter: Fitter, rows: Rows, epochs: int) -> list[float]:
        start = time.perf_counter()
        losses = fitter.fit(*rows, epochs=epochs, batch=schedule.batch, rng=rng)
        timing["train_seconds"] += time.perf_counter() - start
        timing["train_rows"] += epochs * len(rows[0])
        return losses

    def evaluate(a: Weights, b: Weights | Player):
        start = time.perf_counter()
        result = players.duplicate(Player(a), b if isinstance(b, Player) else Player(b), eval_seeds)
        timing["eval_seconds"] += time.perf_counter() - start
        return result

    def checkpoint() -> State:
        return State(reference, best, sets, list(curve), dict(timing), dict(rng.bit_generator.state))

    if resume is None:
        say("iteration 1: random games")
        rows, all_tricks = generate(Player(), schedule.random_deals, 1)
        sets = [rows]
        say("iteration 1: training")
        fitter = Fitter(initial(rng), schedule.learning_rate)
        losses = train(fitter, sets[0], schedule.first_epochs)
        reference = best = fitter.weights()
        say("iteration 1: evaluating")
        vs_ref = evaluate(best, reference)
        curve = [{"iteration": 1, "data": "random", "data_deals": schedule.random_deals,
                  "data_all_tricks": all_tricks, "loss": losses[-1],
                  "vs_reference": vs_ref.to_json(), "vs_rules": evaluate(best, RULES).to_json(), "vs_best": None,
                  "kept": True}]
        tell(curve[-1], checkpoint())
    else:
        reference, best, sets, curve = resume.reference, resume.best, resume.sets, list(resume.curve)
        timing.update(resume.timing)
        rng.bit_generator.state = resume.rng_state
    for iteration in range(len(curve) + 1, schedule.iterations + 1):
        if spent():
            say(f"the CPU budget is spent: stopped before model {iteration}")
            break
        say(f"iteration {iteration}: self-play")
        rows, all_tricks = generate(Player(best, schedule.epsilon), schedule.deals, iteration)
        sets = (sets + [rows])[-(schedule.keep + 1):]
        say(f"iteration {iteration}: training")
        fitter = Fitter(best, schedule.learning_rate)
        losses = train(fitter, concat(sets), schedule.epochs)
        candidate = fitter.weights()
        say(f"iteration {iteration}: evaluating")
        vs_best = evaluate(candidate, best)
        vs_ref = evaluate(candidate, reference)
        kept = vs_best.mean > 0
        if kept:
            best = candidate
        curve.append({"iteration": iteration, "data": "self-play", "data_deals": schedule.deals,
                      "data_all_tricks": all_tricks, "loss": losses[-1],
                      "vs_reference": vs_ref.to_json(), "vs_rules": evaluate(candidate, RULES).to_json(),
                      "vs_best": vs_best.to_json(), "kept": kept})
        tell(curve[-1], checkpoint())
    return best, curve, summary(timing)


def summary(timing: dict) -> dict:
    out = {k: round(v, 1) if isinstance(v, float) else v for k, v in timing.items()}
    out["self_play_deals_per_second"] = round(timing["self_play_deals"] / max(timing["self_play_seconds"], 1e-9))
    out["train_rows_per_second"] = round(timing["train_rows"] / max(timing["train_seconds"], 1e-9))
    return out


def panels(curve: list[dict]) -> list[Panel]:
    xs = [p["iteration"] for p in curve]
    mean = [p["vs_reference"]["mean"] for p in curve]
    se = [p["vs_reference"]["se"] for p in curve]
    return [
        Panel("points per deal vs the first model", "mean points per deal (±2 s.e.)", [
            ("left: mean | right: this model's pair", xs, mean),
            ("left: +2 s.e. | right: its own self-play data", xs, [m + 2 * s for m, s in zip(mean, se)]),
            ("left: -2 s.e. | right: the first model's pair", xs, [m - 2 * s for m, s in zip(mean, se)])],
              x_label="iteration"),
        Panel("deals won by taking every trick", "share of deals", [
            ("this model's pair", xs, [p["vs_reference"]["a_all_tricks"] for p in curve]),
            ("its own self-play data", xs, [p["data_all_tricks"] for p in curve]),
            ("the first model's pair", xs, [p["vs_reference"]["b_all_tricks"] for p in curve])],
              x_label="iteration"),
    ]


def svg(curve: list[dict], title: str) -> str:
    """Two panels side by side (one legend: the colours name a line in each)."""
    return line_charts(panels(curve), title, panel_width=420)


def print_curve(console: Console, curve: list[dict]) -> None:
    table = Table(title="Queen of Spades network: each model against the first one (duplicate deals, A B A B)")
    for col in ("model", "data", "loss", "vs first: points/deal", "± s.e.", "all tricks (its pair)",
                "all tricks (self-play)", "vs best: points/deal", "vs rule player", "kept"):
        table.add_column(col, justify="right")
    for p in curve:
        ref, best = p["vs_reference"], p["vs_best"]
        table.add_row(str(p["iteration"]), p["data"], f"{p['loss']:.4f}", f"{ref['mean']:+.3f}", f"{ref['se']:.3f}",
                      f"{100 * ref['a_all_tricks']:.1f}%", f"{100 * p['data_all_tricks']:.1f}%",
                      "–" if best is None else f"{best['mean']:+.3f} ± {best['se']:.3f}",
                      f"{p['vs_rules']['mean']:+.3f} ± {p['vs_rules']['se']:.3f}", "yes" if p["kept"] else "no")
    console.print(table)


def build_parser(prog: str) -> argparse.ArgumentParser:
    d = Schedule()
    p = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--iterations", type=int, default=d.iterations, help="models made, the first included")
    p.add_argument("--random-deals", type=int, default=d.random_deals)
    p.add_argument("--deals", type=int, default=d.deals, help="self-play deals per later iteration")
    p.add_argument("--first-epochs", type=int, default=d.first_epochs)
    p.add_argument("--epochs", type=int, default=d.epochs)
    p.add_argument("--eval-deals", type=int, default=d.eval_deals, help="duplicate deals per evaluation")
    p.add_argument("--batch", type=int, default=d.batch)
    p.add_argument("--learning-rate", type=float, default=d.learning_rate)
    p.add_argument("--epsilon", type=float, default=d.epsilon, help="self-play: chance of a random legal card")
    p.add_argument("--keep", type=int, default=d.keep, help="earlier data sets trained on with the new one")
    p.add_argument("--cpu-hours", type=float, default=MAX_CPU_HOURS,
                   help=f"CPU budget, every process counted (at most {MAX_CPU_HOURS:g}): no new model once spent")
    p.add_argument("--workers", type=int, default=2, help="actors: local processes playing the deals")
    p.add_argument("--cluster", default=None, help="a Dask scheduler, e.g. tcp://127.0.0.1:8786 (the actors there)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", type=Path, default=saved_path("queen_of_spades", "network"))
    p.add_argument("--resume", action="store_true",
                   help="continue from <out>-checkpoint.npz (written after every model), with the same options")
    return p


def checkpoint_path(out: Path) -> Path:
    return out.with_name(out.stem + "-checkpoint.npz")


def main(argv: list[str] | None = None, prog: str = "parlour train queen_of_spades network") -> int:
    args = build_parser(prog).parse_args(argv)
    schedule = Schedule(args.iterations, args.random_deals, args.deals, args.first_epochs, args.epochs,
                        args.eval_deals, args.batch, args.learning_rate, args.epsilon, args.keep)
    if min(schedule.iterations, schedule.random_deals, schedule.deals, schedule.first_epochs,
           schedule.eval_deals, schedule.batch) < 1 or schedule.epochs < 0 or schedule.keep < 0:
        raise SystemExit(f"{prog}: counts must be at least 1 (epochs and keep at least 0)")
    if schedule.eval_deals < 2:
        raise SystemExit(f"{prog}: --eval-deals must be at least 2 (for a standard error)")
    if not 0 < args.cpu_hours <= MAX_CPU_HOURS or args.workers < 1:
        raise SystemExit(f"{prog}: --cpu-hours must be in (0, {MAX_CPU_HOURS:g}] and --workers at least 1")
    command = ("parlour train queen_of_spades network " + shlex.join(sys.argv[1:] if argv is None else argv)).strip()
    if argv is None:
        command = "parlour " + shlex.join(sys.argv[1:])
    console = Console(width=max(120, Console().width))
    started, cpu_started = time.perf_counter(), time.process_time()
    resume: State | None = None
    before: dict[str, Any] = {"seconds": 0.0, "cpu_seconds": 0.0, "commands": []}
    if args.resume:
        resume, before = load_checkpoint(checkpoint_path(args.out))
        made, asked = ({k: v for k, v in d.items() if k != "iterations"} for d in (before["schedule"], asdict(schedule)))
        if made != asked or before["seed"] != args.seed:  # more or fewer iterations may be asked for
            raise SystemExit(f"{prog} --resume: the checkpoint was made with {made}, seed {before['seed']}; "
                             f"these options ask for {asked}, seed {args.seed}")
        if len(resume.curve) >= schedule.iterations:
            raise SystemExit(f"{prog} --resume: the checkpoint already has all {schedule.iterations} models")
    commands = before["commands"] + [command]
    phases = 3 + 3 * (schedule.iterations - 1)
    bar = Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total} phases"),
                   TimeElapsedColumn(), console=console)
    with actors(args.workers, args.cluster) as pool, bar as progress:
        task = progress.add_task("training", total=phases)
        done = [0 if resume is None else 3 * len(resume.curve)]  # three phases a model

        def on_phase(text: str) -> None:
            progress.update(task, description=text, completed=done[0])
            done[0] += 1

        players = Actors(pool, args.seed)

        def cpu_spent() -> float:
            """CPU seconds of the whole run: this process, the actors, and the runs it resumes."""
            return before["cpu_seconds"] + time.process_time() - cpu_started + players.cpu_seconds

        def save_all(best: Weights, curve: list[dict], timing: dict) -> dict:
            """The best model so far, its metadata and the curve's picture (after every model)."""
            seconds = before["seconds"] + time.perf_counter() - started
            cpu_seconds = cpu_spent()
            npz = save(args.out.with_suffix(".npz"), best)
            kept = [p["iteration"] for p in curve if p["kept"]]
            meta = {"command": commands[0], "resumed_by": commands[1:], "seed": args.seed,
                    "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
                    "seconds": round(seconds, 1), "cpu_seconds": round(cpu_seconds, 1),
                    "load_average_at_end": round(os.getloadavg()[0], 1), "timing": timing,
                    "cpu_hours_budget": args.cpu_hours, "actors": args.cluster or args.workers,
                    "schedule": asdict(schedule), "models_made": len(curve), "layers": list(LAYERS),
                    "target_scale": TARGET_SCALE, "weights_file": npz.name, "shipped_model": kept[-1], "curve": curve}
            write_saved(args.out, {"meta": meta})
            args.out.with_suffix(".svg").write_text(svg(curve, f"{command} ({seconds:.0f} s)"))
            return meta

        curve_so_far: list[dict] = []

        def on_point(p: dict, state: State) -> None:
            curve_so_far[:] = state.curve
            meta = save_all(state.best, curve_so_far, summary(state.timing))
            save_checkpoint(checkpoint_path(args.out), state, {
                "schedule": asdict(schedule), "seed": args.seed, "commands": commands,
                "seconds": meta["seconds"], "cpu_seconds": meta["cpu_seconds"]})
            ref, rules = p["vs_reference"], p["vs_rules"]
            progress.console.print(f"model {p['iteration']}: loss {p['loss']:.4f}, vs the first model "
                                   f"{ref['mean']:+.3f} ± {ref['se']:.3f} points/deal, vs the rule player "
                                   f"{rules['mean']:+.3f} ± {rules['se']:.3f}, kept: {p['kept']} "
                                   f"({meta['seconds']:.0f} s, {meta['cpu_seconds']:.0f} s CPU; saved)")

        best, curve, timing = run(schedule, args.seed, on_phase, on_point, resume, players,
                                  lambda: cpu_spent() >= args.cpu_hours * 3600)
        progress.update(task, completed=phases, description="done")
    meta = save_all(best, curve, timing)
    print_curve(console, curve)
    console.print(f"saved {args.out.with_suffix('.npz')}, {args.out} and {args.out.with_suffix('.svg')}: model "
                  f"{meta['shipped_model']} shipped; {meta['seconds']:.0f} s in all ({meta['cpu_seconds']:.0f} s of "
                  f"CPU; load average {meta['load_average_at_end']} on {os.cpu_count()} cores) "
                  f"(self-play {timing['self_play_deals_per_second']:,} deals/s, "
                  f"training {timing['train_rows_per_second']:,} rows/s)")
    return 0
