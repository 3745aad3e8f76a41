"""The checks every Deep Monte-Carlo level's tests make: a resumed run is exact, and the shipped
weights play at their claimed strength."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from agents.qnet import QNet
from agents.training import dmc


def assert_resume_is_exact(trainer, parser, base: list[str], tmp_path: Path) -> None:
    """A run of 30 deals, and one stopped at 20 and resumed to 30, reach the same weights and the
    same curve. ``trainer``: the game's DMC training module (its ``make_setup``); ``parser`` its
    command's parser; ``base`` the options both runs share (small: a few seconds)."""
    whole = parser.parse_args(base + ["--deals", "30"])
    half = parser.parse_args(base + ["--deals", "20"])
    rest = parser.parse_args(base + ["--deals", "30", "--resume"])
    for a in (whole, half, rest):
        a.command = "test"
    one = dmc.train(trainer.make_setup(whole), whole, None, tmp_path / "a" / "dmc.json", lambda p: None)
    dmc.train(trainer.make_setup(half), half, None, tmp_path / "b" / "dmc.json", lambda p: None)
    two = dmc.train(trainer.make_setup(rest), rest, None, tmp_path / "b" / "dmc.json", lambda p: None)
    assert two["deals"] == one["deals"] == 30
    for (w1, b1), (w2, b2) in zip(one["net"].layers, two["net"].layers):
        np.testing.assert_allclose(w1, w2, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(b1, b2, rtol=1e-5, atol=1e-6)
    assert [w["win"] for w in one["windows"]] == [w["win"] for w in two["windows"]]


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
