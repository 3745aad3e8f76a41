"""Noughts and crosses (RULES.md section 1).

Cells are numbered 0-8 row by row::

    0 | 1 | 2
    3 | 4 | 5
    6 | 7 | 8

Seat 0 plays X and moves first. A state is the tuple of the nine cells
(0 empty, 1 X, 2 O); the player to move follows from the number of marks.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.base import Game, IllegalActionError, OptionError

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
MARKS = ("", "X", "O")


@dataclass(frozen=True)
class Place:
    """Put the mover's mark on ``cell``. Id ``cell:4``."""

    cell: int

    @property
    def id(self) -> str:
        return f"cell:{self.cell}"


@dataclass(frozen=True)
class State:
    cells: tuple[int, ...] = (0,) * 9
    seed: int = 0
    resigned: int | None = None  # the seat that resigned, if one did

    @property
    def ply(self) -> int:
        return sum(1 for c in self.cells if c)


def winning_line(cells: tuple[int, ...]) -> tuple[int, int, int] | None:
    for line in LINES:
        a, b, c = line
        if cells[a] and cells[a] == cells[b] == cells[c]:
            return line
    return None


class TicTacToe(Game[State, Place]):
    name = "tictactoe"
    title = "Noughts and crosses"
    min_players = max_players = 2
    options = ()
    summary = "3x3 board, X moves first, three in a row wins; cells 0-8 row by row."

    def new_match(self, players: int = 2, seed: int = 0, options: dict | None = None) -> State:
        self.check_players(players)
        self.resolve_options(options)
        return State(seed=seed)

    new_deal = new_match

    def resign(self, state: State, seat: int) -> State:
        if self.is_over(state) or seat != self.current_player(state):
            raise IllegalActionError("resign", "only the player to move can resign, before the end")
        return State(state.cells, state.seed, seat)

    def current_player(self, state: State) -> int | None:
        return None if self.is_over(state) else state.ply % 2

    def legal_actions(self, state: State) -> list[Place]:
        if self.is_over(state):
            return []
        return [Place(i) for i, c in enumerate(state.cells) if not c]

    def why_illegal(self, state: State, action: Place) -> str:
        if not 0 <= action.cell <= 8:
            return "cells are numbered 0 to 8"
        return f"cell {action.cell} is already taken"

    def apply(self, state: State, action: Place) -> State:
        self.require_legal(state, action)
        cells = list(state.cells)
        cells[action.cell] = 1 + state.ply % 2
        return State(tuple(cells), state.seed)

    def is_over(self, state: State) -> bool:
        return state.resigned is not None or winning_line(state.cells) is not None or all(state.cells)

    def winners(self, state: State) -> list[int]:
        if state.resigned is not None:
            return [1 - state.resigned]
        line = winning_line(state.cells)
        return [] if line is None else [state.cells[line[0]] - 1]

    def scores(self, state: State) -> list[float]:
        won = self.winners(state)
        if not won:
            return [0.0, 0.0]
        return [1.0, -1.0] if won[0] == 0 else [-1.0, 1.0]

    def observe(self, state: State, player: int | None, reveal: bool = False) -> dict:
        over = self.is_over(state)
        to_move = self.current_player(state)
        line = winning_line(state.cells)
        return {
            "game": self.name,
            "seat": player,
            "cells": [MARKS[c] for c in state.cells],
            "ply": state.ply,
            "to_move": to_move,
            "marks": ["X", "O"],
            "over": over,
            "line": list(line) if line else None,
            "winners": self.winners(state) if over else None,
            "resigned": state.resigned,
            "legal_actions": self.legal_ids(state) if player is not None and player == to_move else [],
        }

    def parse_action(self, action_id: str) -> Place:
        kind, _, cell = action_id.partition(":")
        if kind != "cell" or not cell.isdigit() or not 0 <= int(cell) <= 8:
            raise IllegalActionError(action_id, "a move is 'cell:N' with N from 0 to 8")
        return Place(int(cell))

    def action_label(self, action: Place) -> str:
        row, col = divmod(action.cell, 3)
        return f"{('top', 'middle', 'bottom')[row]} {('left', 'centre', 'right')[col]}"

    def to_json(self, state: State) -> dict:
        return {"cells": list(state.cells), "seed": state.seed, "resigned": state.resigned}

    def from_json(self, data: dict) -> State:
        cells = tuple(int(c) for c in data["cells"])
        if len(cells) != 9 or any(c not in (0, 1, 2) for c in cells):
            raise OptionError("a noughts-and-crosses state has nine cells of 0, 1 or 2")
        resigned = data.get("resigned")
        return State(cells, int(data.get("seed", 0)), None if resigned is None else int(resigned))
