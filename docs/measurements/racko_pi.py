"""Policy iteration for Rack-O's top level: fine-tune Diablo2's network by TD on deals where the
rack is played by the search that uses it (a scratch trainer, issue 25, session 21).

Usage (a measurement aid, not part of the app):

    PYTHONPATH=TREE python docs/measurements/racko_pi.py OUT_DIR [--games 1024] [--batch 32]
        [--lr 3e-4] [--epochs 4] [--workers 2] [--seconds S] [--seed 1]

Starts from ``agents/saved/racko/diablo2.npz``. Each batch, ``--workers`` processes play ``--batch``
deals at 10 slots: seat ``seed % 2`` (alternating by deal) is ``Lookahead(net, plan=True,
plan_draw=1)`` (``lookahead-deep``'s search) on the network being learned, the other is Diablo2
(fixed shipped weights, forced random moves on, as in the benchmark). The learning seat keeps the
self-play trainer's exploration: its every 2r-th turn is a forced random move
(``agents.racko.common.forced_turn``). After each of the learning seat's turns its chosen rack (the
rack after the turn) is recorded as the feature row of its best sequence and the learning
network's score of it, exactly as ``agents.training.racko_diablo.Deal.samples`` does (turns and
unseen cards as before the placement); the targets are the next recorded rack's score, the last
the seat's final points / (5r + 25), weighted by ``td_weights``. Then ``--epochs`` Adam steps
(``racko_diablo.Learner``) on the batch's samples, and the search's weights are refreshed.

The search's decisions are ``Lookahead.decide`` on the engine's own observation of the table
(``engine.racko.view.observe``), so outside the forced turns the learning seat plays as
``lookahead-deep`` would with the same weights.

Written to OUT_DIR: ``net-b<k>.npz`` after every batch, ``net.npz`` (the last), ``log.jsonl``
(one line per batch: deals, learning seat's share won, its turns per deal, loss, seconds).

Session 21 ran ``racko_pi.py runs/pi --games 100000 --seconds 2400`` (2,016 deals, 63 batches) and
measured ``lookahead-deep``'s search on the result (the variant ``deep-pi``, since reverted): no gain
on the tuning deals (docs/measurements/racko.md, "a value learned from the search's own play").
To measure a network again, put it in the catalog on a branch (``agents/racko/shipped.DIABLO_FILES``
and a ``Lookahead`` level, as commit 51a25c8 did) and use ``racko_paired.py``.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from agents.racko.common import forced_turn, random_code
from agents.racko.diablo import DiabloDecider, score_groups, table_seen
from agents.racko.features import rack_points_scale, unseen_prefix
from agents.racko.lookahead import Lookahead
from agents.racko.network import Network
from agents.racko.shipped import diablo_nets
from agents.saved_files import saved_path
from agents.training.racko_diablo import Learner, td_weights
from engine.racko import DISCARD, DRAW_DECK, DRAW_DISCARD, FROM_DISCARD, OVER, PLACE, Rules, Table
from engine.racko.view import observe

RULES = Rules(10, 40, 1500)


def chosen_sample(net, table: Table, seat: int, rack_after: list[int], turns: int, prefix) -> tuple[np.ndarray, float]:
    """The feature row of the best sequence of the rack the seat chose and the net's score of it."""
    values, rows = score_groups(net, [([rack_after], turns, prefix)], table.rules.max_card)[0]
    return rows[0], float(values[0])


def play_deal(layers, seed: int, forced_random: bool = True):
    """One deal: the search (on ``layers``) against Diablo2. Returns (rows, targets, weights, the
    search's share of the deal, its turns)."""
    net = Network(layers)
    learner_seat = seed % 2
    search = Lookahead(net, plan=True, plan_draw=1)
    opponent = DiabloDecider(diablo_nets("diablo2"), forced_random=True)
    rng = random.Random(f"pi:{seed}")
    t = Table.new(2, seed, RULES, single=True, log=True)
    r, n_cards = RULES.rack_size, RULES.max_card
    history: list[tuple[np.ndarray, float]] = []
    while t.phase != OVER:
        p = t.to_move
        if p != learner_seat:
            if forced_turn(t.turns[p], r):
                t.step(random_code(True, False, r, rng))
                t.step(random_code(False, t.source == FROM_DISCARD, r, rng))
                continue
            t.step(DRAW_DISCARD if opponent.draw(t, p, rng) else DRAW_DECK)
            k = opponent.place(t, p, rng)
            t.step(DISCARD if k < 0 else PLACE + k)
            continue
        turns = t.turns[p]
        if forced_random and forced_turn(turns, r):
            t.step(random_code(True, False, r, rng))
            prefix = unseen_prefix(n_cards, table_seen(t, p))
            t.step(random_code(False, t.source == FROM_DISCARD, r, rng))
        else:
            t.step(search.decide(observe(t.freeze(), p)))
            prefix = unseen_prefix(n_cards, table_seen(t, p))  # the rack, the piles and the card drawn
            t.step(search.decide(observe(t.freeze(), p)))
        history.append(chosen_sample(net, t, p, list(t.racks[p]), turns, prefix))
    result = t.last_result
    assert result is not None
    n = len(history)
    w = td_weights(n, r)
    rows, targets, weights = [], [], []
    for k in range(n):
        if w[k] > 0:
            rows.append(history[k][0])
            targets.append(history[k + 1][1] if k + 1 < n else min(1.0, result.points[learner_seat] / rack_points_scale(r)))
            weights.append(float(w[k]))
    return rows, targets, weights, float(result.winner == learner_seat), t.turns[learner_seat]


def play_batch(layers, seeds: list[int]):
    start = time.process_time()
    return [play_deal(layers, s) for s in seeds], time.process_time() - start


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("out", type=Path)
    p.add_argument("--games", type=int, default=1024)
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--seconds", type=float, default=float("inf"))
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    net = Network.load(saved_path("racko", "diablo2").with_suffix(".npz"))
    learner = Learner(net, args.lr, pad=args.batch * 4 * RULES.rack_size)
    begin = time.perf_counter()
    played, batch = 0, 0
    with ProcessPoolExecutor(args.workers, mp_context=multiprocessing.get_context("spawn")) as pool, open(args.out / "log.jsonl", "a") as log:
        while played < args.games and time.perf_counter() - begin < args.seconds:
            start = time.perf_counter()
            seeds = [args.seed * 10_000_000 + played + i for i in range(args.batch)]
            parts = [seeds[k::args.workers] for k in range(args.workers)]
            results = [f.result() for f in [pool.submit(play_batch, net.layers, part) for part in parts]]
            deals = [d for res, _cpu in results for d in res]
            rows = [x for d in deals for x in d[0]]
            targets = [x for d in deals for x in d[1]]
            weights = [x for d in deals for x in d[2]]
            loss = float("nan")
            for _ in range(args.epochs):
                loss = learner.step(rows, targets, weights)
            net = learner.network()
            net.meta_rack_size = RULES.rack_size
            played += len(seeds)
            batch += 1
            net.save(args.out / f"net-b{batch}.npz")
            net.save(args.out / "net.npz")
            line = {"batch": batch, "played": played, "won": float(np.mean([d[3] for d in deals])),
                    "turns": float(np.mean([d[4] for d in deals])), "samples": len(rows), "loss": loss,
                    "seconds": round(time.perf_counter() - start, 1),
                    "cpu": round(sum(c for _r, c in results), 1), "elapsed": round(time.perf_counter() - begin, 1)}
            log.write(json.dumps(line) + "\n")
            log.flush()
            print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
