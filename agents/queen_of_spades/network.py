"""The policy network as a player, and the write-up's five levels on the one shipped network.

The player reads only its observation: it encodes it into the 115 inputs
(``network_inputs``), runs the numpy forward pass (``network_weights``) and plays the
legal card with the highest output. Its explanation is each legal card's output
turned back into points (output / ``TARGET_SCALE``): the deal score the network
expects after playing that card.

Levels (as the Queen of Spades write-up defines them): very good counts every card; good sees the others'-hands
block scaled by ``network_inputs.PARTIAL`` except the spades (the write-up halves it); average sees it all zero; poor and very poor are
average with Gaussian noise of std ``NOISE["poor"]`` / ``NOISE["verypoor"]`` on the
outputs (tanh units) before the best legal card is chosen.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

import numpy as np

from agents.base import Explanation
from agents.queen_of_spades.network_inputs import CARD_OF_ID, PARTIAL, encode, flags_of, mask_of
from agents.queen_of_spades.network_weights import TARGET_SCALE, Weights, load
from agents.saved_files import saved_path
from engine import GameError

SAVED_NAME = "network"
NOISE = {"poor": 0.15, "verypoor": 0.4}


@dataclass(frozen=True)
class Level:
    counting: str  # "full", "partial" or "none" (network_inputs.COUNTING)
    noise: float = 0.0


LEVELS = {
    "network": Level("full"),
    "network-good": Level("partial"),
    "network-average": Level("none"),
    "network-poor": Level("none", NOISE["poor"]),
    "network-verypoor": Level("none", NOISE["verypoor"]),
}


@lru_cache(maxsize=1)
def shipped() -> Weights:
    """The trained network (agents/saved/queen_of_spades/network.npz), loaded once per process."""
    path = saved_path("queen_of_spades", SAVED_NAME).with_suffix(".npz")
    if not path.exists():
        raise GameError(f"no saved network {path}; train one with `parlour train queen_of_spades network`")
    return load(path)


def observation_inputs(observation: dict, counting: str = "full") -> np.ndarray:
    """The 115 inputs of the seat whose view this is (it must be that seat's turn)."""
    seat = observation["seat"]
    tricks = observation["tricks"]
    trick = [CARD_OF_ID[p["card"]] for p in observation["trick"]]
    return encode(observation["trick_number"], mask_of(CARD_OF_ID[c] for c in observation["hand"]), trick,
                  mask_of(CARD_OF_ID[c] for c in observation["played"]),
                  flags_of(tricks[seat], sum(tricks), observation["queen_by"] == seat), counting)


class NetworkPlayer:
    """Plays the legal card the network rates highest (after the level's weakening)."""

    def __init__(self, level: str = "network", weights: Weights | None = None):
        self.name = level
        self.level = LEVELS[level]
        self.weights = weights if weights is not None else shipped()
        self._last: tuple[dict, np.ndarray] | None = None

    def outputs(self, observation: dict) -> np.ndarray:
        # act then explain on the same observation (the server asks both for every move): the
        # forward pass is made once. The last (observation, outputs) pair is replaced whole, so
        # a player shared by several threads at worst computes it again.
        last = self._last
        if last is not None and last[0] is observation:
            return last[1]
        out = self.weights.forward(observation_inputs(observation, self.level.counting))
        self._last = (observation, out)
        return out

    def act(self, observation: dict, legal_actions: Sequence, rng: random.Random):
        if len(legal_actions) == 1:
            return legal_actions[0]
        out = self.outputs(observation)
        values = [float(out[a.card]) for a in legal_actions]
        if self.level.noise:
            values = [v + rng.gauss(0.0, self.level.noise) for v in values]
        return legal_actions[max(range(len(values)), key=values.__getitem__)]

    def explain(self, observation: dict, legal_actions: Sequence) -> Explanation:
        out = self.outputs(observation)
        note = {"full": "counting every card played", "partial": f"counting {PARTIAL:.0%} (spades in full)",
                "none": "not counting cards"}[self.level.counting]
        if self.level.noise:
            note += f"; plays with noise (std {self.level.noise:g}) on these values"
        return Explanation("expected points", {a.id: round(float(out[a.card]) / TARGET_SCALE, 3)
                                               for a in legal_actions}, note)
