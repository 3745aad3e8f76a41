"""The Queen of Spades network's self-play and evaluations, spread over actors.

The deals of a data set or an evaluation are cut into jobs of ``CHUNK`` deals. A job has its own
random generator, made from the run's seed, the stream (0: evaluations, k: iteration k's data) and
the job's index, so the deals, the choices and the data come out the same however many actors
play them: one (this process), a local pool of spawned processes (``--workers``), or a Dask
cluster (``--cluster``, the executor ``parlour tournament`` uses). Actors play with the numpy
forward pass (``Weights.forward``) and report their CPU seconds for the run's budget.
"""
from __future__ import annotations

import time
from concurrent.futures import Executor
from dataclasses import dataclass

import numpy as np

from agents.queen_of_spades.network_play import (RANDOM, DuplicatePlays, PairResult, Played, Policy, duplicate_plays,
                                                 play_deals, rules_policy)
from agents.queen_of_spades.network_weights import TARGET_SCALE, Weights

CHUNK = 500  # deals a job
Rows = tuple[np.ndarray, np.ndarray, np.ndarray]  # inputs (int8), card played, target


@dataclass(frozen=True)
class Player:
    """A player an actor can rebuild (a ``Policy`` holds functions): the network with these
    weights (exploring with probability ``epsilon``), the rule player, or (neither) Random."""

    weights: Weights | None = None
    epsilon: float = 0.0
    rules: bool = False

    def policy(self) -> Policy:
        if self.rules:
            return rules_policy()
        return RANDOM if self.weights is None else Policy(self.weights.forward, epsilon=self.epsilon)


RULES = Player(rules=True)


def data(played: Played) -> Rows:
    """Training rows: inputs (int8, every element -1, 0 or +1: a quarter of float32's memory), card, target."""
    assert played.x is not None and played.card is not None, "the deals were played without recording"
    return played.x.astype(np.int8), played.card.astype(np.int32), played.targets(TARGET_SCALE)


def _rng(seed: int, stream: int, job: int) -> np.random.Generator:
    return np.random.default_rng([seed, stream, job, 7])


def self_play_job(player: Player, seeds: list[int], seed: int, stream: int, job: int) -> tuple[Rows, np.ndarray, float]:
    """One job of a data set (runs in an actor): its rows, which seat took all tricks in each deal,
    and its CPU seconds."""
    start = time.process_time()
    policy = player.policy()  # one object in the four seats: their decisions share forward passes
    played = play_deals(seeds, [(policy,) * 4] * len(seeds), _rng(seed, stream, job), record=True)
    return data(played), played.all_tricks, time.process_time() - start


def duplicate_job(a: Player, b: Player, seeds: list[int], seed: int, job: int) -> tuple[DuplicatePlays, float]:
    """One job of an evaluation (runs in an actor): A against B on its deals, and its CPU seconds."""
    start = time.process_time()
    plays = duplicate_plays(a.policy(), b.policy(), seeds, _rng(seed, 0, job))
    return plays, time.process_time() - start


def _chunks(seeds: list[int]) -> list[list[int]]:
    return [seeds[i:i + CHUNK] for i in range(0, len(seeds), CHUNK)]


class Actors:
    """Plays a run's deals on ``pool`` (None: in this process); ``cpu_seconds`` counts the CPU of
    the jobs played elsewhere (this process's own CPU is counted by the caller)."""

    def __init__(self, pool: Executor | None, seed: int):
        self.pool = pool
        self.seed = seed
        self.cpu_seconds = 0.0

    def _run(self, fn, jobs: list[tuple]) -> list:
        """``fn(*job)`` for every job, in job order; each answer ends with the job's CPU seconds."""
        if self.pool is None:
            return [fn(*job) for job in jobs]
        answers = [f.result() for f in [self.pool.submit(fn, *job) for job in jobs]]
        self.cpu_seconds += sum(answer[-1] for answer in answers)
        return answers

    def self_play(self, player: Player, seeds: list[int], stream: int) -> tuple[Rows, np.ndarray]:
        """A data set: every deal's rows (in deal order) and which seat took all tricks in each deal."""
        answers = self._run(self_play_job, [(player, part, self.seed, stream, k) for k, part in enumerate(_chunks(seeds))])
        rows = tuple(np.concatenate([r[i] for r, _all, _cpu in answers]) for i in range(3))
        return rows, np.concatenate([a for _r, a, _cpu in answers])  # type: ignore[return-value]

    def duplicate(self, a: Player, b: Player, seeds: list[int]) -> PairResult:
        """A against B over duplicate deals (``network_play.duplicate``)."""
        answers = self._run(duplicate_job, [(a, b, part, self.seed, k) for k, part in enumerate(_chunks(seeds))])
        return PairResult.of([plays for plays, _cpu in answers])
