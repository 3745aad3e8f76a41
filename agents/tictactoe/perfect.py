"""Perfect play by minimax over the whole game tree (memoised), random among equally good moves."""
from __future__ import annotations

import random
from functools import lru_cache
from typing import Sequence

from agents.base import Explanation
from engine.tictactoe import Place, winning_line


@lru_cache(maxsize=None)
def value(cells: tuple[int, ...]) -> int:
    """Game value for the player to move: +1 win, 0 draw, -1 loss (fewest-moves not preferred)."""
    if winning_line(cells) is not None:
        return -1  # the previous mover just won
    empty = [i for i, c in enumerate(cells) if not c]
    if not empty:
        return 0
    mark = 1 + (9 - len(empty)) % 2
    return max(-value(cells[:i] + (mark,) + cells[i + 1:]) for i in empty)


def move_values(cells: tuple[int, ...]) -> dict[int, int]:
    mark = 1 + sum(1 for c in cells if c) % 2
    return {i: -value(cells[:i] + (mark,) + cells[i + 1:]) for i, c in enumerate(cells) if not c}


def board_of(observation: dict) -> tuple[int, ...]:
    return tuple({"": 0, "X": 1, "O": 2}[c] for c in observation["cells"])


class Perfect:
    name = "perfect"

    def act(self, observation: dict, legal_actions: Sequence[Place], rng: random.Random) -> Place:
        values = move_values(board_of(observation))
        best = max(values[a.cell] for a in legal_actions)
        choices = [a for a in legal_actions if values[a.cell] == best]
        return choices[rng.randrange(len(choices))]

    def explain(self, observation: dict, legal_actions: Sequence[Place]) -> Explanation:
        values = move_values(board_of(observation))
        return Explanation("minimax value (+1 win, 0 draw, -1 loss)",
                           {a.id: float(values[a.cell]) for a in legal_actions})
