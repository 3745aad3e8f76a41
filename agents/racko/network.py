"""Diablo's rack-scoring network, served with numpy.

A multilayer perceptron with sigmoid units everywhere (the write-up's 17-34-1 and
17-34-30-1): ``layers`` is a list of ``(W, b)`` with ``W`` of shape (inputs,
outputs). Saved as an .npz holding ``W0, b0, W1, b1, ...`` (training writes them
from JAX; serving only reads them).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from agents.saved_files import write_arrays


class Network:
    """``meta_rack_size``: the rack size it was trained at (0 when unknown)."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], meta_rack_size: int = 0):
        self.layers = [(np.asarray(w, dtype=np.float64), np.asarray(b, dtype=np.float64)) for w, b in layers]
        self.meta_rack_size = meta_rack_size

    @property
    def shape(self) -> list[int]:
        return [self.layers[0][0].shape[0]] + [w.shape[1] for w, _ in self.layers]

    def __call__(self, x) -> np.ndarray:
        """Outputs (0..1) for a batch of feature rows (shape (n, inputs)): shape (n,)."""
        h = np.asarray(x, dtype=np.float64)
        for w, b in self.layers:
            h = h @ w
            h += b  # then the sigmoid, 0.5 (tanh(h / 2) + 1) (overflow-free), in place
            h *= 0.5
            np.tanh(h, out=h)
            h += 1.0
            h *= 0.5
        return h[:, 0]

    @classmethod
    def initial(cls, sizes: list[int], seed: int) -> "Network":
        """Small random weights (uniform, scaled by fan-in) for sizes like [17, 34, 1]."""
        rng = np.random.default_rng(seed)
        layers = []
        for n_in, n_out in zip(sizes, sizes[1:]):
            bound = 1.0 / np.sqrt(n_in)
            layers.append((rng.uniform(-bound, bound, (n_in, n_out)), np.zeros(n_out)))
        return cls(layers)

    def save(self, path: Path) -> Path:
        arrays: dict[str, np.ndarray] = {}
        for k, (w, b) in enumerate(self.layers):
            arrays[f"W{k}"] = w.astype(np.float32)
            arrays[f"b{k}"] = b.astype(np.float32)
        arrays["rack_size"] = np.array(self.meta_rack_size)
        return write_arrays(path, arrays)

    @classmethod
    def load(cls, path: Path) -> "Network":
        with np.load(path) as data:
            count = len([k for k in data.files if k.startswith("W")])
            rack_size = int(data["rack_size"]) if "rack_size" in data.files else 0
            return cls([(data[f"W{k}"], data[f"b{k}"]) for k in range(count)], rack_size)
