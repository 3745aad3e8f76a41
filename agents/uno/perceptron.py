"""The write-up's Uno perceptron: a score for each playable card; it plays the best.

The input is the one-hot vector of a card over the 54 distinct cards (the two
copies of, say, the red 7 share one input: feature hashing of duplicates). Three
forms, each a flat weight vector (the genome the genetic algorithm evolves):

- ``linear``: score = w . x, one weight per card (54 weights);
- ``step``: score = step(w . x + b), 1 or 0 (55 weights); equal scores are broken
  at random, so it plays a random card among those it rates 1;
- ``hidden``: a hidden layer of 10 tanh units, score = v . tanh(W x + c) + d
  (10*54 + 10 + 10 + 1 = 561 weights).

Because the input is one card, each form is a function of the card alone: the
agent computes its 54 scores once and looks them up. Everything but the choice of
card (drawing, the drawn card, colours, UNO) is shared with the heuristic players
(``agents.uno.play``). Trained by ``agents/training/uno_perceptron.py``.
"""
from __future__ import annotations

import random
from typing import Iterable, Sequence

import numpy as np

from agents.saved_files import load_saved
from agents.uno.play import CardPlayer
from engine.uno.cards import DISTINCT

HIDDEN = 10
FORMS = ("linear", "step", "hidden")


def genome_size(form: str) -> int:
    if form == "linear":
        return DISTINCT
    if form == "step":
        return DISTINCT + 1
    if form == "hidden":
        return HIDDEN * DISTINCT + HIDDEN + HIDDEN + 1
    raise ValueError(f"unknown perceptron form {form!r}; forms: {', '.join(FORMS)}")


def card_scores(form: str, weights: np.ndarray) -> np.ndarray:
    """The network's output for the one-hot input of each of the 54 cards."""
    weights = np.asarray(weights, dtype=float)
    if weights.shape != (genome_size(form),):
        raise ValueError(f"a {form} perceptron has {genome_size(form)} weights, got {weights.shape}")
    inputs = np.eye(DISTINCT)
    if form == "linear":
        return inputs @ weights
    if form == "step":
        return (inputs @ weights[:DISTINCT] + weights[DISTINCT] > 0).astype(float)
    w1 = weights[:HIDDEN * DISTINCT].reshape(HIDDEN, DISTINCT)
    c = weights[HIDDEN * DISTINCT:HIDDEN * DISTINCT + HIDDEN]
    v = weights[HIDDEN * DISTINCT + HIDDEN:HIDDEN * DISTINCT + 2 * HIDDEN]
    d = weights[-1]
    return np.tanh(inputs @ w1.T + c) @ v + d


class ScoredPlayer(CardPlayer):
    """Plays the playable card with the highest score in a fixed table of 54 (ties at random)."""

    label = "score of the card"

    def __init__(self, scores: Iterable[float], name: str = "scored"):
        self.scores = [float(s) for s in scores]
        self.name = name

    def value(self, card: int, hand: Sequence[int]) -> float:
        return self.scores[card]

    def pick(self, cards: list[int], hand: Sequence[int], rng: random.Random) -> int:
        scores = self.scores
        best = max(scores[c] for c in cards)
        top = [c for c in cards if scores[c] == best]
        return top[0] if len(top) == 1 else top[rng.randrange(len(top))]


class Perceptron(ScoredPlayer):
    """Plays the playable card its network scores highest (ties at random)."""

    label = "network output for the card"

    def __init__(self, form: str, weights: Sequence[float], name: str = "perceptron"):
        self.form = form
        self.weights = np.asarray(weights, dtype=float)
        super().__init__(card_scores(form, self.weights), name)

    def to_json(self) -> dict:
        return {"form": self.form, "weights": self.weights.tolist()}

    @classmethod
    def from_json(cls, data: dict, name: str = "perceptron") -> "Perceptron":
        return cls(data["form"], data["weights"], name)


def saved_name(form: str) -> str:
    return f"perceptron-{form}"


def load(form: str) -> Perceptron:
    """The shipped perceptron of ``form`` (agents/saved/uno/perceptron-FORM.json)."""
    name = "perceptron" if form == "linear" else saved_name(form)
    return Perceptron.from_json(load_saved("uno", saved_name(form)), name)
