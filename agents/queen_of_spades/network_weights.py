"""The write-up's policy network as plain numpy: its shape, weights on disk, the forward pass.

115 inputs -> 384 -> 384 -> 256 -> 128 (elu) -> 32 outputs (tanh), one per card
(index = suit * 8 + rank, see ``network_inputs``). An output estimates the deal's
final score of the player who plays that card, scaled by ``TARGET_SCALE`` (scores
-3, -1, +1, +3 become -0.75 .. +0.75, inside tanh's range).

Weights live in an .npz (``w0, b0, ..., w4, b4``, float32, ``w`` of shape
(inputs, outputs)); the training metadata in the .json beside it. The server only
ever needs numpy: training (JAX) converts its parameters to this form to save.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from agents.saved_files import write_arrays

LAYERS = (115, 384, 384, 256, 128, 32)
TARGET_SCALE = 0.25  # deal score x this = the training target


@dataclass(frozen=True)
class Weights:
    ws: tuple[np.ndarray, ...]
    bs: tuple[np.ndarray, ...]

    def forward(self, x: np.ndarray) -> np.ndarray:
        """Outputs (batch, 32) for inputs (batch, 115), or (32,) for one input row."""
        h = np.asarray(x, np.float32)
        for w, b in zip(self.ws[:-1], self.bs[:-1]):
            h = h @ w
            h += b
            np.maximum(h, np.expm1(np.minimum(h, 0)), out=h)  # elu (e^h - 1 >= h, equal at 0), in place
        h = h @ self.ws[-1]
        h += self.bs[-1]
        return np.tanh(h, out=h)

    def to_arrays(self) -> dict[str, np.ndarray]:
        out = {}
        for i, (w, b) in enumerate(zip(self.ws, self.bs)):
            out[f"w{i}"], out[f"b{i}"] = w, b
        return out

    @staticmethod
    def from_arrays(arrays) -> "Weights":
        n = sum(1 for k in arrays if str(k).startswith("w"))
        ws = tuple(np.asarray(arrays[f"w{i}"], np.float32) for i in range(n))
        bs = tuple(np.asarray(arrays[f"b{i}"], np.float32) for i in range(n))
        shape = (ws[0].shape[0],) + tuple(w.shape[1] for w in ws)
        if shape[0] != LAYERS[0] or shape[-1] != LAYERS[-1]:
            raise ValueError(f"a Queen of Spades network maps {LAYERS[0]} inputs to {LAYERS[-1]} outputs, "
                             f"these weights are {shape}")
        return Weights(ws, bs)


def initial(rng: np.random.Generator, layers: tuple[int, ...] = LAYERS) -> Weights:
    """He-normal weights, zero biases."""
    ws = tuple((rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32)
               for a, b in zip(layers[:-1], layers[1:]))
    bs = tuple(np.zeros(b, np.float32) for b in layers[1:])
    return Weights(ws, bs)


def save(path: Path, weights: Weights) -> Path:
    return write_arrays(path, weights.to_arrays(), compressed=True)


def load(path: Path) -> Weights:
    with np.load(path) as data:
        return Weights.from_arrays({k: data[k] for k in data.files})
