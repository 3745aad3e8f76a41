"""The policy network in JAX, for training (gradients and the optimiser: optax).

Needs the optional ``train`` extra (``pip install 'parlour[train]'``); the server never
imports this module (it plays with ``network_weights.Weights.forward``, numpy only).

- ``forward(params, x)``: the same function as ``Weights.forward`` (elu hidden layers,
  tanh outputs); a test checks they agree.
- the loss is the write-up's: squared error on the played card's output only (the
  other 31 outputs carry no data), mean over the batch.
- ``Fitter`` holds the parameters and Adam's state; ``fit`` runs epochs of shuffled
  minibatches through one jitted update.
"""
from __future__ import annotations

from typing import Callable

import jax
import jax.numpy as jnp
import numpy as np
import optax

from agents.queen_of_spades.network_weights import Weights

Params = list[tuple[jax.Array, jax.Array]]


def params_of(weights: Weights) -> Params:
    return [(jnp.asarray(w), jnp.asarray(b)) for w, b in zip(weights.ws, weights.bs)]


def weights_of(params: Params) -> Weights:
    return Weights(tuple(np.asarray(w, np.float32) for w, _ in params),
                   tuple(np.asarray(b, np.float32) for _, b in params))


def forward(params: Params, x: jax.Array) -> jax.Array:
    h = x
    last = len(params) - 1
    for i, (w, b) in enumerate(params):
        h = h @ w + b
        if i < last:
            h = jax.nn.elu(h)
    return jnp.tanh(h)


def loss(params: Params, x: jax.Array, card: jax.Array, target: jax.Array) -> jax.Array:
    """Squared error of the played card's output against the target; the other outputs are ignored."""
    out = forward(params, x)
    played = jnp.take_along_axis(out, card[:, None].astype(jnp.int32), axis=1)[:, 0]
    return jnp.mean((played - target) ** 2)


class Fitter:
    """A network being trained: parameters, Adam's state and the jitted update."""

    def __init__(self, weights: Weights, learning_rate: float = 1e-3):
        self.params = params_of(weights)
        self.optimiser = optax.adam(learning_rate)
        self.state = self.optimiser.init(self.params)
        optimiser = self.optimiser

        @jax.jit
        def step(params, state, x, card, target):
            value, grads = jax.value_and_grad(loss)(params, x, card, target)
            updates, state = optimiser.update(grads, state, params)
            return optax.apply_updates(params, updates), state, value

        self._step = step

    def fit(self, x: np.ndarray, card: np.ndarray, target: np.ndarray, epochs: int, batch: int,
            rng: np.random.Generator, progress: Callable[[int], None] | None = None) -> list[float]:
        """``epochs`` passes over the rows in shuffled minibatches of ``batch`` (the last partial
        one dropped); the loss after each epoch. ``x`` may be stored small (int8: the training inputs
        are all -1, 0 or +1); each minibatch goes in as float32."""
        n = len(x)
        steps = n // batch
        losses = []
        for _ in range(epochs):
            order = rng.permutation(n)
            total = 0.0
            for s in range(steps):
                idx = order[s * batch:(s + 1) * batch]
                self.params, self.state, value = self._step(self.params, self.state, np.asarray(x[idx], np.float32),
                                                            card[idx], target[idx])
                total += float(value) if s % 50 == 0 or s == steps - 1 else 0.0
                if progress is not None:
                    progress(batch)
            losses.append(self._mean_loss(x, card, target, rng))
        return losses

    def _mean_loss(self, x, card, target, rng, rows: int = 8192) -> float:
        idx = rng.choice(len(x), min(rows, len(x)), replace=False)
        return float(loss(self.params, jnp.asarray(x[idx], jnp.float32), jnp.asarray(card[idx]), jnp.asarray(target[idx])))

    def weights(self) -> Weights:
        return weights_of(self.params)
