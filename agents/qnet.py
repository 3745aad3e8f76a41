"""A Q-network served with numpy: a multilayer perceptron (ReLU hidden units, one linear
output) valuing (state, action) feature rows, the form Deep Monte-Carlo training
(``agents.training.dmc``) writes. Saved as an .npz of ``W0, b0, W1, b1, ...``.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from agents.saved_files import saved_path, write_arrays
from engine import GameError


class QNet:
    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]]):
        self.layers = [(np.asarray(w, np.float64), np.asarray(b, np.float64)) for w, b in layers]

    @property
    def shape(self) -> list[int]:
        return [self.layers[0][0].shape[0]] + [w.shape[1] for w, _ in self.layers]

    def __call__(self, x: np.ndarray) -> np.ndarray:
        """The value of each row of ``x`` (shape (n, inputs)): shape (n,)."""
        h = x
        last = len(self.layers) - 1
        for k, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if k < last:
                np.maximum(h, 0.0, out=h)
        return h[:, 0]

    @classmethod
    def initial(cls, sizes: list[int], seed: int) -> "QNet":
        """He-scaled normal weights, zero biases, for sizes like [66, 256, 128, 1]."""
        rng = np.random.default_rng(seed)
        return cls([(rng.normal(0.0, np.sqrt(2.0 / n_in), (n_in, n_out)), np.zeros(n_out))
                    for n_in, n_out in zip(sizes, sizes[1:])])

    def arrays(self) -> dict[str, np.ndarray]:
        out = {}
        for k, (w, b) in enumerate(self.layers):
            out[f"W{k}"], out[f"b{k}"] = w.astype(np.float32), b.astype(np.float32)
        return out

    def save(self, path: Path) -> Path:
        return write_arrays(path, self.arrays())

    @classmethod
    def from_arrays(cls, data) -> "QNet":
        count = len([k for k in data if k.startswith("W")])
        return cls([(data[f"W{k}"], data[f"b{k}"]) for k in range(count)])

    @classmethod
    def load(cls, path: Path) -> "QNet":
        with np.load(path) as data:
            return cls.from_arrays({k: data[k] for k in data.files})


class MeanNet:
    """Several networks as one: the mean of their values (an ensemble of training runs, which
    values more steadily than any one of them)."""

    def __init__(self, nets: list[QNet]):
        self.nets = nets

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return sum((net(x) for net in self.nets), np.zeros(len(x))) / len(self.nets)


def shipped(game: str, name: str, features: int | None = None) -> QNet:
    """The network a game ships as ``agents/saved/<game>/<name>.npz``; a clear error when it is
    missing, or (given ``features``) when it takes another number of inputs than its player gives."""
    path = saved_path(game, name).with_suffix(".npz")
    if not path.exists():
        raise GameError(f"no saved agent {path}; train one with `parlour train {game} {name}`")
    net = QNet.load(path)
    if features is not None and net.shape[0] != features:
        raise GameError(f"{path} takes {net.shape[0]} features, the player gives {features}: retrain it")
    return net
