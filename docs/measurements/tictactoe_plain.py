"""Noughts and crosses written as plainly as OpenSpiel's tic_tac_toe, timed against the engine's.

A measurement aid for docs/architecture.md ("Noughts and crosses: why the fast path stays"), not part
of Parlour (nothing imports it). ``PlainTicTacToe`` plays by the same rules as ``engine.tictactoe``
with a state that is only a board, a seed and a resignation (a ``NamedTuple``), a winner check over
the eight lines, legal moves from the empty cells, and what the rules say of each board cached by
``outcome`` (a table of at most 5,478 boards). Its random playouts and the engine's are timed in
rounds (plain, engine, plain, engine, ...), best run of each kept:

    PYTHONPATH=. python docs/measurements/tictactoe_plain.py [--repeats 5] [--seconds 1]
"""
from __future__ import annotations

import argparse
import random
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from agents.bench.tictactoe import parlour_playouts
from agents.bench.timing import Row, measure_rows
from engine.base import ActionSyntaxError, Game, GameType, IllegalActionError, StateError

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
MARKS = ("", "X", "O")


@dataclass(frozen=True)
class Place:
    """Put the mover's mark on ``cell``. Id ``cell:4``."""

    cell: int

    @property
    def id(self) -> str:
        return f"cell:{self.cell}"


PLACES = tuple(Place(cell) for cell in range(9))


class State(NamedTuple):
    cells: tuple[int, ...] = (0,) * 9
    seed: int = 0
    resigned: int | None = None  # the seat that resigned, if one did


def winning_line(cells: tuple[int, ...]) -> tuple[int, int, int] | None:
    for line in LINES:
        a, b, c = line
        if cells[a] and cells[a] == cells[b] == cells[c]:
            return line
    return None


class Outcome(NamedTuple):
    line: tuple[int, int, int] | None
    over: bool
    legal: tuple[Place, ...]


@cache
def outcome(cells: tuple[int, ...]) -> Outcome:
    """What the rules say of the board ``cells``: its winning line, whether it is over, its legal moves."""
    line = winning_line(cells)
    over = line is not None or 0 not in cells
    return Outcome(line, over, () if over else tuple(PLACES[i] for i, c in enumerate(cells) if not c))


class PlainTicTacToe(Game[State, Place]):
    name = "tictactoe"
    title = "Noughts and crosses"
    min_players = max_players = 2
    options = ()
    type = GameType(resignation=True)
    summary = "3x3 board, X moves first, three in a row wins; cells 0-8 row by row."

    def new_match(self, players: int = 2, seed: int = 0, options: dict | None = None) -> State:
        self.check_players(players)
        if options:  # the game has no options: only a non-empty dict can be wrong
            self.resolve_options(options)
        return State(seed=seed)

    new_deal = new_match

    def resign(self, state: State, seat: int) -> State:
        if self.is_over(state) or seat != self.current_player(state):
            raise IllegalActionError("resign", "only the player to move can resign, before the end")
        return state._replace(resigned=seat)

    def current_player(self, state: State) -> int | None:
        return None if self.is_over(state) else (9 - state.cells.count(0)) % 2

    def is_over(self, state: State) -> bool:
        return state.resigned is not None or outcome(state.cells).over

    def legal_actions(self, state: State) -> list[Place]:
        return [] if state.resigned is not None else [*outcome(state.cells).legal]

    def apply(self, state: State, action: Place) -> State:
        cells, cell = state.cells, getattr(action, "cell", None)
        if type(action) is not Place or not 0 <= cell <= 8 or cells[cell] or self.is_over(state):
            self.require_legal(state, action)
        mark = 2 - cells.count(0) % 2
        return State(cells[:cell] + (mark,) + cells[cell + 1:], state.seed)

    def why_illegal(self, state: State, action: Place) -> str:
        if not 0 <= action.cell <= 8:
            return "cells are numbered 0 to 8"
        return f"cell {action.cell} is already taken"

    def winners(self, state: State) -> list[int]:
        if state.resigned is not None:
            return [1 - state.resigned]
        line = outcome(state.cells).line
        return [] if line is None else [state.cells[line[0]] - 1]

    def scores(self, state: State) -> list[float]:
        won = self.winners(state)
        if not won:
            return [0.0, 0.0]
        return [1.0, -1.0] if won[0] == 0 else [-1.0, 1.0]

    def observe(self, state: State, player: int | None, reveal: bool = False) -> dict:
        over = self.is_over(state)
        to_move = self.current_player(state)
        line = outcome(state.cells).line
        return {
            "game": self.name,
            "seat": player,
            "cells": [MARKS[c] for c in state.cells],
            "ply": 9 - state.cells.count(0),
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
            raise ActionSyntaxError(action_id, "a move is 'cell:N' with N from 0 to 8")
        return PLACES[int(cell)]

    def action_label(self, action: Place) -> str:
        row, col = divmod(action.cell, 3)
        return f"{('top', 'middle', 'bottom')[row]} {('left', 'centre', 'right')[col]}"

    def to_json(self, state: State) -> dict:
        return {"cells": list(state.cells), "seed": state.seed, "resigned": state.resigned}

    def from_json(self, data: dict) -> State:
        try:
            cells = tuple(int(c) for c in data["cells"])
            resigned = data.get("resigned")
            state = State(cells, int(data.get("seed", 0)), None if resigned is None else int(resigned))
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise StateError(f"not a noughts-and-crosses state: {err!r}") from None
        if len(cells) != 9 or any(c not in (0, 1, 2) for c in cells):
            raise StateError("a noughts-and-crosses board is a tuple of nine cells of 0, 1 or 2")
        return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    args = parser.parse_args()
    rows = [Row("plain", "playouts/s", parlour_playouts(1000, random.Random(1), PlainTicTacToe())),
            Row("engine", "playouts/s", parlour_playouts(1000, random.Random(1)))]
    plain, engine = (r.per_cpu_second for r in measure_rows(rows, args.seconds, args.repeats))
    print(f"| random playouts, public API | plain {plain:,.0f}/s | engine {engine:,.0f}/s | plain / engine {plain / engine:.2f} |")


if __name__ == "__main__":
    main()
