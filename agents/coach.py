"""The coach: reviews a person's decisions with the game's strongest level, from their seat's view.

Each game's package gives a ``Coach`` (``COACH`` in ``agents/<game>/__init__.py``): the level
whose terms it judges in, the ``unit`` of its values, the ``threshold`` from which a loss counts
as a mistake, and ``values(observation, legal_actions, chosen, rng)``, which rates the legal
moves of one decision (higher is better) from the seat's observation alone (never the state:
the hidden cards stay hidden), always including the move ``chosen`` when it can rate it
(``chosen`` is None for a hint: the values of a decision not made yet).

``review`` turns one decision into the entry the API serves; ``summary`` writes the one line
the replay page shows under the moves. Nothing here knows about HTTP or the database.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Sequence

Values = Callable[[dict, Sequence[Any], "str | None", random.Random], dict[str, float]]


@dataclass(frozen=True)
class Coach:
    agent: str  # the level whose values these are (an agent id of the game)
    unit: str  # what a value means, e.g. "chance to win the deal"
    threshold: float  # a loss of at least this is a mistake
    values: Values
    points: str = "points"  # the summary's word for the unit ("3 mistakes; the worst cost 0.4 points")


@dataclass(frozen=True)
class Review:
    ply: int
    action: str
    best: str | None  # the move the coach prefers (None: it cannot rate this decision)
    value: float | None  # the value of the move made (None: not among the moves it can rate)
    best_value: float | None
    loss: float | None  # best_value - value, never below 0; None when the move made is not rated

    def to_json(self) -> dict:
        return {"ply": self.ply, "action": self.action, "best": self.best, "value": self.value,
                "best_value": self.best_value, "loss": self.loss}


def review(coach: Coach, ply: int, observation: dict, legal_actions: Sequence[Any], chosen: str,
           rng: random.Random) -> Review:
    """The coach's verdict on one decision. A decision with a single legal move (or a single move
    the coach considers, when it is the move made) costs nothing: best = the move made, loss 0, no
    values. One the coach gives no values for (its level decides it by a rule) is not rated: no
    best, no loss; nor is a move other than the only one it considers (best: that one)."""
    ids = [a.id for a in legal_actions]
    if len(ids) <= 1 or chosen not in ids:  # forced, or a resignation (not a legal move)
        return Review(ply, chosen, chosen if chosen in ids else None, None, None, 0.0 if chosen in ids else None)
    values = coach.values(observation, legal_actions, chosen, rng)
    if not values:  # a decision the coach's level makes by rule: not rated
        return Review(ply, chosen, None, None, None, None)
    if len(values) == 1:  # the only move it considers: the move made costs nothing, another is not rated
        only = next(iter(values))
        return Review(ply, chosen, only, None, None, 0.0 if only == chosen else None)
    top = max(values.values())
    best = chosen if values.get(chosen) == top else max(values, key=values.__getitem__)
    value = values.get(chosen)
    loss = None if value is None else round(max(0.0, top - value), 4)
    return Review(ply, chosen, best, None if value is None else round(value, 4), round(top, 4), loss)


def is_mistake(coach: Coach, loss: float | None) -> bool:
    return loss is not None and loss >= coach.threshold


def summary(coach: Coach, entries: Sequence[dict]) -> str:
    """One line: how many mistakes and the worst ("3 mistakes; the worst on move 12 cost 0.4 points").
    Moves are numbered from 1 as the replay numbers them (ply + 1)."""
    mistakes = [e for e in entries if is_mistake(coach, e["loss"])]
    if not mistakes:
        return f"No mistakes: no move cost {coach.threshold:g} {coach.points} or more."
    worst = max(mistakes, key=lambda e: e["loss"])
    count = f"{len(mistakes)} mistake{'s' if len(mistakes) != 1 else ''}"
    return f"{count}; the worst on move {worst['ply'] + 1} cost {worst['loss']:.3g} {coach.points}"


def from_explanation(make: Callable[[], Any]) -> Values:
    """``values`` read from an agent's own explanation (its AI-thinking values), one agent built
    on first use and kept."""
    held: list = []

    def values(observation: dict, legal_actions: Sequence[Any], chosen: str | None, rng: random.Random) -> dict[str, float]:
        if not held:
            held.append(make())
        why = held[0].explain(observation, legal_actions)
        return {} if why is None else {k: float(v) for k, v in why.values.items()}

    return values
