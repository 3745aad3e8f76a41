"""The check both Deep Monte-Carlo levels' tests make of their shipped weights."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from agents.qnet import QNet


def assert_plays_at_its_claim(trainer, shipped: Path, deals: int, se_floor: float = 0.0) -> None:
    """Against the reference of its curve, on ``deals`` deals other than the curve's (seeds from
    123,000, seats alternating), the shipped network's share of deals won is within four standard
    errors (at least ``se_floor``) of the share its metadata claims. ``trainer``: the game's DMC
    training module (its ``play``)."""
    meta = json.loads(shipped.read_text())["meta"]
    claim = meta["claims"]
    net = QNet.load(shipped.with_suffix(".npz"))
    assert net.shape == meta["shape"]
    jobs = [(123_000 + k, claim["vs"], k % 2) for k in range(deals)]
    _, _, results = trainer.play(net.layers, jobs, 0.0, meta["curve"]["options"], False)
    share = results.count(1) / deals
    se = max(float(np.sqrt(claim["win_share"] * (1 - claim["win_share"]) / deals)), se_floor)
    assert abs(share - claim["win_share"]) < 4 * se, (share, claim)
