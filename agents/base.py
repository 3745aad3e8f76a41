"""The agent protocol.

An agent sees only its own observation (a JSON-ready dict from ``Game.observe``)
and the legal actions; randomness comes from the ``rng`` it is handed.

- ``act(observation, legal_actions, rng) -> action`` (required)
- ``explain(observation, legal_actions) -> Explanation | None`` (optional): what
  the AI-thinking panel shows, one value per action id, with a label.
- learners also have ``learn(episode) -> list[Update]``: they update themselves
  from a finished game and return the same changes as data, so a store (the
  app's database) can apply them atomically.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol, Sequence, runtime_checkable


@dataclass(frozen=True)
class Explanation:
    """Per-action values for the AI-thinking panel; ``label`` names their unit."""

    label: str
    values: dict[str, float]
    note: str = ""

    def to_json(self) -> dict:
        return {"label": self.label, "values": self.values, "note": self.note}


@dataclass
class Episode:
    """One seat's part of a finished game: what it saw and did, and how it ended."""

    seat: int
    steps: list[tuple[dict, str]] = field(default_factory=list)  # (observation, action id)
    score: float = 0.0
    won: bool = False
    drawn: bool = False


@dataclass(frozen=True)
class Update:
    """One change to a learned value, applied atomically by a store.

    ``add``: value += amount, never below ``floor``.
    ``blend``: value += rate * (target - value) (a Q-learning step).
    """

    key: str
    op: str
    amount: float = 0.0
    floor: float | None = None
    target: float = 0.0
    rate: float = 0.0


@runtime_checkable
class Agent(Protocol):
    name: str

    def act(self, observation: dict, legal_actions: Sequence[Any], rng: random.Random) -> Any: ...


class RandomAgent:
    """Uniformly random among the legal actions."""

    name = "random"

    def act(self, observation: dict, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        return legal_actions[rng.randrange(len(legal_actions))]


@runtime_checkable
class Refuses(Protocol):
    """An agent that may refuse a seat (MENACE with an empty first box)."""

    def refuses(self, seat: int) -> bool: ...


def explain(agent: Any, observation: dict, legal_actions: Sequence[Any]) -> Explanation | None:
    """The agent's explanation if it gives one (an ``explain(observation, legal_actions)`` method:
    looked up directly, as ``isinstance`` against a runtime-checkable protocol cost 12-19 µs a
    decision on every AI move the server makes)."""
    method = getattr(agent, "explain", None)
    return None if method is None else method(observation, legal_actions)
