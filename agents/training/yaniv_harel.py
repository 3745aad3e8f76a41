"""``parlour train yaniv harel``: train Harel, the write-up's Q-learner, and save it.

    parlour train yaniv harel [--intervals 20] [--games 20000] [--test-games 1000]
        [--alpha 0.1] [--gamma 0.95] [--reward deal|round] [--seed 1] [--players 2]
        [--out agents/saved/yaniv/harel.json]   (also writes harel.npz and harel.svg beside it)
    parlour train yaniv harel --sweep [--alphas 0.05,0.1,0.2] [--gammas 0.8,0.95]
        [--rewards deal,round] [--workers 2] [--sweep-out var/yaniv-harel-sweep] ...

**The default is the write-up's schedule**: 20 intervals of 20,000 training deals
each, against SemiRandom in intervals 1-5 and 11-15 and against GreedyRandom(0.5)
in 6-10 and 16-20, exploring with probability 0.5 in the first half and 0.25 in
the second. After every interval Harel plays 1,000 test deals against each
heuristic greedily (no exploration, no learning; the same 1,000 deals every time,
so the curves compare like with like) and the curves record its win rate and its
average hand value when the deal ends, per opponent.

Deals are two-player by default (Harel against one heuristic; ``--players``
seats more copies of the opponent). Harel sits in seat 0; who starts a deal is
drawn from the deal's seed. The training loop reads each seat's inputs straight
from the state (``seat_of_state``: the same inputs the agent reads from its view)
and plays through the engine's ``apply``, so it plays the same rules as the app.

``--sweep`` trains one Harel per combination of learning rate, discount and
reward mode (in parallel, ``--workers``), saves nothing, and writes all their
curves into one SVG and a JSON summary under ``--sweep-out``.
"""
from __future__ import annotations

import argparse
import datetime as dt
import itertools
import json
import random
import shlex
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from agents.saved_files import saved_path, write_saved
from agents.training.yaniv_plot import Panel, line_charts
from agents.yaniv.common import seat_of_state, to_action
from agents.yaniv.harel import (REWARD_MODES, HarelConfig, action_codes, best_value, decision_of, pick, q_values,
                                state_key)
from agents.yaniv.heuristics import GreedyRandom, SemiRandom
from agents.yaniv.qtable import save_packed
from engine import get_game

HAREL = 0  # Harel's seat
OPPONENTS = {"semirandom": SemiRandom, "greedyrandom": GreedyRandom}
TEST_SEEDS = 999  # the interval number the test deals' seeds are drawn under


@dataclass(frozen=True)
class Schedule:
    intervals: int = 20
    games: int = 20_000  # training deals per interval
    test_games: int = 1_000  # test deals per heuristic after each interval
    players: int = 2

    def opponent(self, interval: int) -> str:
        """Intervals 1-5 and 11-15 against SemiRandom, 6-10 and 16-20 against GreedyRandom
        (for other lengths: alternating blocks of a quarter of the run)."""
        block = max(1, self.intervals // 4)
        return "semirandom" if ((interval - 1) // block) % 2 == 0 else "greedyrandom"

    def epsilon(self, interval: int) -> float:
        return 0.5 if interval <= (self.intervals + 1) // 2 else 0.25


def deal_seed(seed: int, interval: int, index: int) -> int:
    return (seed * 1_000 + interval) * 10_000_000 + index


class Trainer:
    """One Harel's Q-table and the loops that train and test it."""

    def __init__(self, config: HarelConfig, players: int = 2, options: dict | None = None,
                 table: dict[str, float] | None = None):
        self.q: dict[str, float] = dict(table or {})
        self.config = config
        self.players = players
        self.options = options
        self.game = get_game("yaniv")

    def train_deal(self, opponent, seed: int, epsilon: float, rng: random.Random) -> bool:
        """Play one deal, learning after each of Harel's turns; True if Harel won it."""
        game, q = self.game, self.q
        alpha, gamma = self.config.alpha, self.config.gamma
        per_round = self.config.reward == "round"
        state = game.new_deal(self.players, seed, self.options)
        previous = None  # the key of Harel's last (state, action)
        while state.to_move is not None:
            seat = seat_of_state(state)
            if state.to_move == HAREL:
                key, codes = state_key(seat), action_codes(seat)
                if previous is not None:
                    target = gamma * best_value(q, key, codes)
                    if per_round:
                        target += 1.0 if _leading(state) else -1.0
                    old = q.get(previous, 0.0)
                    q[previous] = old + alpha * (target - old)
                code = pick(codes, q_values(q, key, codes), state.turn, rng, epsilon)
                previous = key + ":" + code
                decision = decision_of(code, seat)
            else:
                decision = opponent.choose(seat, rng)
            state = game.apply(state, to_action(decision))
        won = HAREL in state.results[-1].winners
        if previous is not None:
            old = q.get(previous, 0.0)
            q[previous] = old + alpha * ((1.0 if won else -1.0) - old)
        return won

    def test_deal(self, opponent, seed: int, rng: random.Random) -> tuple[bool, int]:
        """Play one deal greedily without learning: (Harel won, Harel's hand value at the end)."""
        game, q = self.game, self.q
        state = game.new_deal(self.players, seed, self.options)
        while state.to_move is not None:
            seat = seat_of_state(state)
            if state.to_move == HAREL:
                key, codes = state_key(seat), action_codes(seat)
                decision = decision_of(pick(codes, q_values(q, key, codes), state.turn, rng, 0.0), seat)
            else:
                decision = opponent.choose(seat, rng)
            state = game.apply(state, to_action(decision))
        result = state.results[-1]
        return HAREL in result.winners, result.totals[HAREL]


def _leading(state) -> bool:
    """Harel's hand totals strictly less than every other hand in play."""
    rules = state.rules
    mine = rules.total(state.hands[HAREL])
    return all(mine < rules.total(h) for s, h in enumerate(state.hands) if s != HAREL and not state.out[s])


def evaluate(trainer: Trainer, schedule: Schedule, seed: int) -> dict:
    """{opponent: {"win_rate", "avg_final_hand", "games"}} over the fixed test deals."""
    out = {}
    for name, make in OPPONENTS.items():
        rng = random.Random(f"{seed}:test:{name}")
        opponent = make()
        wins = hand = 0
        for i in range(schedule.test_games):
            won, value = trainer.test_deal(opponent, deal_seed(seed, TEST_SEEDS, i), rng)
            wins += won
            hand += value
        out[name] = {"win_rate": wins / schedule.test_games, "avg_final_hand": hand / schedule.test_games,
                     "games": schedule.test_games}
    return out


def run(config: HarelConfig, schedule: Schedule, seed: int, on_progress=None) -> tuple[Trainer, list[dict], float]:
    """Train through the schedule; returns the trainer, the curve (one point per interval)
    and the seconds spent training (tests excluded)."""
    trainer = Trainer(config, schedule.players)
    rng = random.Random(f"{seed}:train")
    curve, train_seconds = [], 0.0
    for interval in range(1, schedule.intervals + 1):
        name, epsilon = schedule.opponent(interval), schedule.epsilon(interval)
        opponent = OPPONENTS[name]()
        start, wins = time.perf_counter(), 0
        for i in range(schedule.games):
            wins += trainer.train_deal(opponent, deal_seed(seed, interval, i), epsilon, rng)
            if on_progress is not None and (i + 1) % 500 == 0:
                on_progress(500)
        if on_progress is not None:
            on_progress(schedule.games % 500)
        seconds = time.perf_counter() - start
        train_seconds += seconds
        point = {"interval": interval, "opponent": name, "epsilon": epsilon,
                 "train_win_rate": wins / schedule.games, "train_games_per_second": schedule.games / seconds,
                 "table_size": len(trainer.q), "test": evaluate(trainer, schedule, seed)}
        curve.append(point)
    return trainer, curve, train_seconds


# ----- output -----
def curve_panels(curves: dict[str, list[dict]]) -> list[Panel]:
    """Win rate and average final hand value against each heuristic, one series per run."""
    panels = []
    for name in OPPONENTS:
        panels.append(Panel(f"win rate vs {name}", "win rate", [
            (label, [p["interval"] for p in c], [p["test"][name]["win_rate"] for p in c])
            for label, c in curves.items()]))
    for name in OPPONENTS:
        panels.append(Panel(f"final hand value vs {name}", "average hand value", [
            (label, [p["interval"] for p in c], [p["test"][name]["avg_final_hand"] for p in c])
            for label, c in curves.items()]))
    return panels


def windows_curve(curve: list[dict], schedule: Schedule) -> dict:
    """The test results after each interval as win/draw/loss counts (both heuristics
    together), the shape the agent page charts; ``window`` is the training deals per point."""
    windows = []
    for p in curve:
        games = sum(t["games"] for t in p["test"].values())
        wins = round(sum(t["win_rate"] * t["games"] for t in p["test"].values()))
        windows.append({"games": games, "win": wins, "draw": 0, "loss": games - wins, "opponent": p["opponent"]})
    return {"window": schedule.games, "games": schedule.games * schedule.intervals, "windows": windows}


def table_stats(q: dict[str, float]) -> dict:
    return {"entries": len(q), "states": len({k.partition(":")[0] for k in q})}


def build_parser(prog: str) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--intervals", type=int, default=20)
    p.add_argument("--games", type=int, default=20_000, help="training deals per interval")
    p.add_argument("--test-games", type=int, default=1_000, help="test deals per heuristic after each interval")
    p.add_argument("--players", type=int, default=2, help="seats per deal: Harel and copies of the opponent")
    p.add_argument("--alpha", type=float, default=0.1, help="learning rate")
    p.add_argument("--gamma", type=float, default=0.95, help="discount")
    p.add_argument("--reward", choices=REWARD_MODES, default="deal")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", type=Path, default=saved_path("yaniv", "harel"))
    p.add_argument("--sweep", action="store_true", help="train every alpha x gamma x reward; save nothing")
    p.add_argument("--alphas", default="0.05,0.1,0.2")
    p.add_argument("--gammas", default="0.8,0.95")
    p.add_argument("--rewards", default="deal,round")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--sweep-out", type=Path, default=Path("var/yaniv-harel-sweep"))
    return p


def _floats(text: str, what: str) -> list[float]:
    try:
        return [float(x) for x in text.split(",")]
    except ValueError:
        raise SystemExit(f"{what} is a comma-separated list of numbers, got {text!r}") from None


def _sweep_one(alpha: float, gamma: float, reward: str, schedule: Schedule, seed: int) -> tuple[str, list[dict], float, dict]:
    trainer, curve, seconds = run(HarelConfig(alpha, gamma, 0.0, reward), schedule, seed)
    return f"a={alpha:g} g={gamma:g} {reward}", curve, seconds, table_stats(trainer.q)


def main(argv: list[str] | None = None, prog: str = "parlour train yaniv harel") -> int:
    args = build_parser(prog).parse_args(argv)
    console = Console()
    schedule = Schedule(args.intervals, args.games, args.test_games, args.players)
    if schedule.intervals < 1 or schedule.games < 1 or schedule.test_games < 1:
        raise SystemExit("--intervals, --games and --test-games must be at least 1")
    get_game("yaniv").check_players(schedule.players)
    command = ("parlour train yaniv harel " + shlex.join(sys.argv[1:] if argv is None else argv)).strip()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TimeRemainingColumn())
    if args.sweep:
        return _sweep(args, schedule, console, columns, command)
    config = HarelConfig(args.alpha, args.gamma, 0.0, args.reward)
    started = time.perf_counter()
    with Progress(*columns, console=console) as progress:
        task = progress.add_task("training Harel", total=schedule.intervals * schedule.games)
        trainer, curve, train_seconds = run(config, schedule, args.seed, lambda n: progress.advance(task, n))
    total_seconds = time.perf_counter() - started
    _print_curve(console, curve)
    stats = table_stats(trainer.q)
    meta = {
        "command": command, "seed": args.seed, "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "games": schedule.intervals * schedule.games, "schedule": asdict(schedule),
        "config": {"alpha": config.alpha, "gamma": config.gamma, "reward": config.reward},
        "timing": {"seconds": round(total_seconds, 1), "train_seconds": round(train_seconds, 1),
                   "train_games_per_second": round(schedule.intervals * schedule.games / train_seconds)},
        "table": stats, "values_file": args.out.with_suffix(".npz").name, "intervals": curve,
        "curve": windows_curve(curve, schedule),
    }
    write_saved(args.out, {"meta": meta})
    table = save_packed(args.out.with_suffix(".npz"), trainer.q)
    svg = args.out.with_suffix(".svg")
    svg.write_text(line_charts(curve_panels({"Harel": curve}), f"Harel: {command}", panel_width=300))
    console.print(f"saved {table} ({stats['entries']:,} Q-values over {stats['states']:,} states, "
                  f"{table.stat().st_size / 1e6:.1f} MB), {args.out} and {svg}; {total_seconds:.0f} s in all, "
                  f"{meta['timing']['train_games_per_second']:,} training deals/s")
    return 0


def _print_curve(console: Console, curve: list[dict]) -> None:
    table = Table(title="Harel after each interval (test deals, greedy)")
    for col in ("interval", "vs", "eps", "win semi", "win greedy", "hand semi", "hand greedy", "Q size"):
        table.add_column(col, justify="right")
    for p in curve:
        t = p["test"]
        table.add_row(str(p["interval"]), p["opponent"][:6], f"{p['epsilon']:g}",
                      f"{t['semirandom']['win_rate']:.3f}", f"{t['greedyrandom']['win_rate']:.3f}",
                      f"{t['semirandom']['avg_final_hand']:.2f}", f"{t['greedyrandom']['avg_final_hand']:.2f}",
                      f"{p['table_size']:,}")
    console.print(table)


def _sweep(args, schedule: Schedule, console: Console, columns, command: str) -> int:
    alphas, gammas = _floats(args.alphas, "--alphas"), _floats(args.gammas, "--gammas")
    rewards = args.rewards.split(",")
    if any(r not in REWARD_MODES for r in rewards):
        raise SystemExit(f"--rewards are among {', '.join(REWARD_MODES)}")
    settings = list(itertools.product(alphas, gammas, rewards))
    curves, summary = {}, []
    with Progress(*columns, console=console) as progress, ProcessPoolExecutor(args.workers) as pool:
        task = progress.add_task(f"sweep of {len(settings)} settings", total=len(settings))
        futures = [pool.submit(_sweep_one, a, g, r, schedule, args.seed) for a, g, r in settings]
        for future in as_completed(futures):
            label, curve, seconds, stats = future.result()
            curves[label] = curve
            last = curve[-1]["test"]
            summary.append({"setting": label, "train_seconds": round(seconds, 1), "table": stats,
                            **{f"final_win_vs_{n}": last[n]["win_rate"] for n in OPPONENTS}, "curve": curve})
            progress.advance(task)
    summary.sort(key=lambda s: -(s["final_win_vs_semirandom"] + s["final_win_vs_greedyrandom"]))
    curves = {s["setting"]: curves[s["setting"]] for s in summary}
    args.sweep_out.mkdir(parents=True, exist_ok=True)
    svg = args.sweep_out / "curves.svg"
    svg.write_text(line_charts(curve_panels(curves), command, panel_width=300))
    (args.sweep_out / "summary.json").write_text(json.dumps(
        {"command": command, "seed": args.seed, "schedule": asdict(schedule), "settings": summary}, indent=1) + "\n")
    table = Table(title="Harel sweep (last interval's test deals)")
    for col in ("setting", "win vs semirandom", "win vs greedyrandom", "table", "train s"):
        table.add_column(col, justify="right")
    for s in summary:
        table.add_row(s["setting"], f"{s['final_win_vs_semirandom']:.3f}", f"{s['final_win_vs_greedyrandom']:.3f}",
                      f"{s['table']['entries']:,}", f"{s['train_seconds']:.0f}")
    console.print(table)
    console.print(f"wrote {svg} and {args.sweep_out / 'summary.json'}")
    return 0
