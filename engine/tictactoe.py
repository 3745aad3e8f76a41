"""Noughts and crosses (docs/rules.md, section 1).

Cells are numbered 0-8 row by row::

    0 | 1 | 2
    3 | 4 | 5
    6 | 7 | 8

Seat 0 plays X and moves first. A state is the tuple of the nine cells
(0 empty, 1 X, 2 O); the player to move follows from the number of marks.

Speed (the public behaviour is that of the plain code, only faster). What the
rules ask of a board (its winning line, whether it is over, the legal moves, the
board after each of them) is worked out once per process and kept in a ``_Board``
(``_BOARDS``, by the board's base-3 index ``sum(cells[i] * 3**i)``). A ``State``
(a frozen dataclass with slots) carries its ``_Board`` in a hidden slot ``_board``
inherited from ``_OnBoard`` and set in ``__post_init__``: not a field, so equality,
hashing, ``repr``, ``fields``, ``replace`` and JSON are unchanged, and a state
pickles and copies as its three fields. ``legal_actions`` and ``parse_action`` hand
out the nine shared ``Place`` objects of ``PLACES``; ``apply`` finds such an action
by identity and fills the next state's slots directly instead of running
``__init__``. Any other action (an equal new ``Place``, or something else) goes
through ``require_legal`` and the general code, with the same checks and errors.
Written as plainly as OpenSpiel's tic_tac_toe instead, random playouts ran at 0.22 of
this speed, and at 0.53 with what is known of each board cached (docs/architecture.md, "Noughts
and crosses: why the fast path stays"), so the fast path stays.
"""
from __future__ import annotations

from dataclasses import dataclass

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


PLACES = tuple(Place(cell) for cell in range(9))  # the nine actions, shared (see the module's notes)
_POW3 = tuple(3 ** i for i in range(9))


class _OnBoard:
    """The hidden slot of a State: its ``_Board`` (see the module's notes)."""

    __slots__ = ("_board",)


@dataclass(frozen=True, slots=True, weakref_slot=True)
class State(_OnBoard):
    cells: tuple[int, ...] = (0,) * 9
    seed: int = 0
    resigned: int | None = None  # the seat that resigned, if one did

    def __post_init__(self) -> None:
        cells = self.cells
        if type(cells) is not tuple or len(cells) != 9 or any(c not in (0, 1, 2) for c in cells):
            raise StateError("a noughts-and-crosses board is a tuple of nine cells of 0, 1 or 2")
        board = _BOARDS[sum(c * p for c, p in zip(cells, _POW3))]
        object.__setattr__(self, "_board", board if self.resigned is None else board.resigned())

    def __reduce__(self):
        return State, (self.cells, self.seed, self.resigned)

    @property
    def ply(self) -> int:
        return self._board.ply  # type: ignore[attr-defined]


def winning_line(cells: tuple[int, ...]) -> tuple[int, int, int] | None:
    for line in LINES:
        a, b, c = line
        if cells[a] and cells[a] == cells[b] == cells[c]:
            return line
    return None


class _Board:
    """What the rules need to know about the board with base-3 index ``index``.
    Building one builds the boards after each of its legal moves too (``moves``).
    A resigned state has the ``resigned()`` twin of its board: over, no moves."""

    __slots__ = ("index", "cells", "line", "over", "ply", "legal", "moves", "_twin")

    def __init__(self, index: int, resigned: bool = False):
        self.index = index
        self.cells = tuple(index // p % 3 for p in _POW3)
        self.line = winning_line(self.cells)
        self.ply = sum(1 for c in self.cells if c)
        self.over = resigned or self.line is not None or all(self.cells)
        self.legal = () if self.over else tuple(PLACES[i] for i, c in enumerate(self.cells) if not c)
        self.moves: dict[int, _Board] = {}  # id of a shared Place -> the board after it
        self._twin: _Board | None = self if resigned else None

    def resigned(self) -> _Board:
        if self._twin is None:
            self._twin = _Board(self.index, resigned=True)
        return self._twin


class _Boards(dict):
    """Board index -> _Board, built the first time it is asked for, with its successors."""

    def __missing__(self, index: int) -> _Board:
        board = self[index] = _Board(index)
        mark = 1 + board.ply % 2
        for place in board.legal:  # PLACES live as long as the module, so their ids are stable
            board.moves[id(place)] = self[index + mark * _POW3[place.cell]]
        return board


_BOARDS = _Boards()  # the first new match builds every board reachable in play (about 25 ms)
_new_object = object.__new__
# the slots' own setters: they fill a new State without going through its frozen __setattr__
_set_cells = State.__dict__["cells"].__set__
_set_seed = State.__dict__["seed"].__set__
_set_resigned = State.__dict__["resigned"].__set__
_set_board = _OnBoard.__dict__["_board"].__set__


class TicTacToe(Game[State, Place]):
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
        board = _BOARDS[0]
        state = _new_object(State)  # = State(seed=seed), without __init__ (see the module's notes)
        _set_cells(state, board.cells)
        _set_seed(state, seed)
        _set_resigned(state, None)
        _set_board(state, board)
        return state

    new_deal = new_match

    def resign(self, state: State, seat: int) -> State:
        if self.is_over(state) or seat != self.current_player(state):
            raise IllegalActionError("resign", "only the player to move can resign, before the end")
        return State(state.cells, state.seed, seat)

    def current_player(self, state: State) -> int | None:
        return None if self.is_over(state) else state.ply % 2

    def legal_actions(self, state: State) -> list[Place]:
        return [*state._board.legal]  # type: ignore[attr-defined]

    def why_illegal(self, state: State, action: Place) -> str:
        if not 0 <= action.cell <= 8:
            return "cells are numbered 0 to 8"
        return f"cell {action.cell} is already taken"

    def apply(self, state: State, action: Place) -> State:
        try:
            board = state._board.moves[id(action)]  # type: ignore[attr-defined]
        except KeyError:  # not one of the shared Place objects of a legal move
            board = None
        if board is not None:  # = State(board.cells, state.seed), without __init__
            new = _new_object(State)
            _set_cells(new, board.cells)
            _set_seed(new, state.seed)
            _set_resigned(new, None)
            _set_board(new, board)
            return new
        self.require_legal(state, action)
        cells = list(state.cells)
        cells[action.cell] = 1 + state.ply % 2
        return State(tuple(cells), state.seed)

    def is_over(self, state: State) -> bool:
        return state._board.over  # type: ignore[attr-defined]

    def winners(self, state: State) -> list[int]:
        if state.resigned is not None:
            return [1 - state.resigned]
        line = state._board.line  # type: ignore[attr-defined]
        return [] if line is None else [state.cells[line[0]] - 1]

    def scores(self, state: State) -> list[float]:
        won = self.winners(state)
        if not won:
            return [0.0, 0.0]
        return [1.0, -1.0] if won[0] == 0 else [-1.0, 1.0]

    def observe(self, state: State, player: int | None, reveal: bool = False) -> dict:
        over = self.is_over(state)
        to_move = self.current_player(state)
        line = state._board.line  # type: ignore[attr-defined]
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
            return State(cells, int(data.get("seed", 0)), None if resigned is None else int(resigned))
        except StateError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise StateError(f"not a noughts-and-crosses state: {err!r}") from None
