"""MENACE trained many games at a time with numpy, rule for rule the pure-Python one.

``agents/tictactoe/menace.py`` is the MENACE that plays (one game, one bead at a
time). This module is its trainer: the same matchboxes, the same table format
(``{"<canonical board>:<first cell of the colour>": beads}``), the same
``MenaceConfig`` (``initial_beads``, ``incentives``, ``merge_symmetric``) and the
same rules:

- a bead is drawn from the position's box with probability proportional to the
  counts, and its cell is mapped back through the symmetry to the real board;
- X's last move (one empty cell) is forced: played without a box, not reinforced;
- an empty box when MENACE must move means it resigns: a loss, reinforced as one;
- after the game every bead drawn gets win/draw/loss incentive, never below 0.

What changes is how the work is done. Every board reachable in play is numbered
by its base-3 index (``sum(cell[i] * 3**i)``, 0 empty, 1 X, 2 O) and everything a
move needs is looked up in arrays indexed by it (see ``Boards``): the winner, the
empty cells, Perfect's equally good moves, MENACE's box and, for each bead colour
of that box, the real cell it stands for (the symmetry is folded into that cell).
A batch of B games then advances one ply at a time with a handful of vectorised
operations for all unfinished games at once.

**Snapshot semantics.** All B games of a batch draw from the same snapshot of the
boxes; the beads change only after the batch, when every drawn bead's incentive
is summed (``np.add.at``) and the counts are floored at 0. With ``B = 1`` this is
exactly sequential MENACE (each bead is reinforced right after its game). With
larger B the learner behaves like MENACE taking B games' lessons at once: the same
expected direction of each update, larger steps, and the floor applied to the sum
rather than after each game. The trainer's defaults keep B small relative to the
run so that the boxes are updated thousands of times.

Games in a batch all have MENACE on the same side (``menace_mark``); a run that
trains both sides alternates X batches and O batches. Against the ``menace``
opponent both sides are MENACE from the same table (self-play) and both learn:
X's boxes from X's result, O's from O's (the two sets of boxes never share a key,
since X boxes have an even number of marks and O boxes an odd one).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from agents.tictactoe.menace import MenaceConfig, box_positions, colours, move_number
from agents.tictactoe.perfect import move_values
from agents.tictactoe.symmetry import canonical, render
from engine.tictactoe import winning_line

OPPONENTS = ("random", "perfect", "menace")
POW3 = 3 ** np.arange(9, dtype=np.int64)
X, O = 1, 2


def board_index(board: tuple[int, ...]) -> int:
    """The base-3 index of a board (cells 0-8 row by row; 0 empty, 1 X, 2 O)."""
    return int(sum(c * 3 ** i for i, c in enumerate(board)))


def reachable_boards() -> list[tuple[int, ...]]:
    """Every board that can occur in play (5,478 of them), the empty board first."""
    empty: tuple[int, ...] = (0,) * 9
    seen = {empty}
    order, frontier = [empty], [empty]
    while frontier:
        nxt = []
        for board in frontier:
            if winning_line(board) is not None or all(board):
                continue
            mark = X + sum(1 for c in board if c) % 2
            for i, c in enumerate(board):
                if not c:
                    child = board[:i] + (mark,) + board[i + 1:]
                    if child not in seen:
                        seen.add(child)
                        order.append(child)
                        nxt.append(child)
        frontier = nxt
    return order


@dataclass(frozen=True)
class Boards:
    """Everything a move needs, in arrays indexed by a board's base-3 index.

    Rows of unreachable boards are never read. ``width`` is the most bead colours
    any box has; shorter rows are padded (padding keys point at ``pad``, a key
    that always holds 0 beads, so it is never drawn).
    """

    keys: tuple[str, ...]  # the table keys, in key-index order
    initial: np.ndarray  # initial beads of each key (by MENACE's move number)
    box_keys: np.ndarray  # (boxes, width): key index of each colour of a box, pad after the last
    box_of: np.ndarray  # (3**9,): the box row of the board for its mover, -1 without a box
    colour_cell: np.ndarray  # (3**9, width): real cell of each colour of the board's box
    winner: np.ndarray  # (3**9,): 0 nobody yet / draw, 1 X, 2 O
    empties: np.ndarray  # (3**9, 9): the empty cells, padded
    n_empty: np.ndarray  # (3**9,)
    best: np.ndarray  # (3**9, 9): Perfect's equally good moves, padded
    n_best: np.ndarray  # (3**9,)
    first_box: int  # box row of the empty board (MENACE as X's first move)

    @property
    def pad(self) -> int:
        return len(self.keys)

    @property
    def width(self) -> int:
        return self.box_keys.shape[1]


@lru_cache(maxsize=None)
def boards(config: MenaceConfig = MenaceConfig()) -> Boards:
    """The lookup arrays for one MENACE configuration (cached; built in well under a second)."""
    size = 3 ** 9
    keys: list[str] = []
    initial: list[int] = []
    rows: dict[tuple[int, ...], list[int]] = {}
    for mark in (X, O):
        for canon in box_positions(mark):
            beads = config.initial_beads[min(move_number(canon), 4) - 1]
            row = []
            for group in colours(canon, config.merge_symmetric):
                row.append(len(keys))
                keys.append(f"{render(canon)}:{group[0]}")
                initial.append(beads)
            rows[canon] = row
    width = max(len(r) for r in rows.values())
    pad = len(keys)
    box_list = list(rows)
    row_number = {canon: n for n, canon in enumerate(box_list)}
    box_keys = np.full((len(box_list), width), pad, dtype=np.int64)
    for n, canon in enumerate(box_list):
        box_keys[n, :len(rows[canon])] = rows[canon]

    box_of = np.full(size, -1, dtype=np.int64)
    colour_cell = np.zeros((size, width), dtype=np.int64)
    winner = np.zeros(size, dtype=np.int64)
    empties = np.zeros((size, 9), dtype=np.int64)
    n_empty = np.zeros(size, dtype=np.int64)
    best = np.zeros((size, 9), dtype=np.int64)
    n_best = np.zeros(size, dtype=np.int64)
    for board in reachable_boards():
        b = board_index(board)
        line = winning_line(board)
        winner[b] = board[line[0]] if line else 0
        free = [i for i, c in enumerate(board) if not c]
        empties[b, :len(free)] = free
        n_empty[b] = len(free)
        if line or not free:
            continue
        values = move_values(board)
        top = max(values.values())
        good = [i for i in free if values[i] == top]
        best[b, :len(good)] = good
        n_best[b] = len(good)
        if len(free) >= 2:
            canon, perm = canonical(board)
            box_of[b] = row_number[canon]
            groups = colours(canon, config.merge_symmetric)
            colour_cell[b, :len(groups)] = [perm[g[0]] for g in groups]
    return Boards(tuple(keys), np.array(initial, dtype=np.int64), box_keys, box_of, colour_cell,
                  winner, empties, n_empty, best, n_best, row_number[(0,) * 9])


@dataclass(frozen=True)
class Batch:
    """The games of one batch.

    ``result[g]``: the winning mark of game g (1 X, 2 O) or 0 for a draw.
    ``resigned[g]``: the mark that resigned (0 if nobody did).
    ``moves[g, ply]``: the cell played at that ply, -1 after the game ended.
    ``drawn_game``, ``drawn_key``, ``drawn_mark``: every bead MENACE drew (its game,
    its key index, the side that drew it): exactly what gets reinforced.
    """

    menace_mark: int
    opponent: str
    result: np.ndarray
    resigned: np.ndarray
    moves: np.ndarray
    drawn_game: np.ndarray
    drawn_key: np.ndarray
    drawn_mark: np.ndarray

    def outcomes(self) -> np.ndarray:
        """Per game from the side ``menace_mark``: 1 win, 0 draw, -1 loss."""
        return np.where(self.result == 0, 0, np.where(self.result == self.menace_mark, 1, -1))


class BatchTrainer:
    """MENACE's beads as a numpy array, trained B games at a time.

    ``table()`` gives them back in the format ``Menace`` plays from. Randomness
    comes only from the ``numpy.random.Generator`` passed to ``play``/``train``.
    """

    def __init__(self, config: MenaceConfig = MenaceConfig(), table: dict[str, float] | None = None):
        self.config = config
        self.boards = boards(config)
        self.beads = np.append(self.boards.initial, 0)  # the last entry is the pad key: always 0
        if table is not None:
            for n, key in enumerate(self.boards.keys):
                if key in table:
                    self.beads[n] = max(0, round(table[key]))

    # ----- the table -----
    def table(self) -> dict[str, float]:
        """The boxes as ``{"<canonical board>:<cell>": beads}`` (X's and O's)."""
        return {key: float(b) for key, b in zip(self.boards.keys, self.beads[:-1].tolist())}

    def refuses(self) -> bool:
        """True when MENACE's first box as X (the empty board) has no beads left."""
        return int(self.beads[self.boards.box_keys[self.boards.first_box]].sum()) <= 0

    # ----- playing -----
    def draw(self, board: np.ndarray, rng: np.random.Generator,
             cumulative: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """One bead for each board (base-3 indices of positions with a box).

        Returns (key index, real cell, resigns): a bead of colour j is drawn with
        probability beads[j] / total; ``resigns`` marks empty boxes. ``cumulative``
        is ``box_cumulative()`` of the current beads (recomputed when omitted).
        """
        bd = self.boards
        if cumulative is None:
            cumulative = self.box_cumulative()
        rows = bd.box_of[board]
        cum = cumulative[rows]
        total = cum[:, -1]
        pick = np.minimum((rng.random(len(board)) * total).astype(np.int64), total - 1)
        colour = (cum <= pick[:, None]).sum(axis=1)  # an empty box (pick -1) gives 0; it resigns anyway
        return bd.box_keys[rows, colour], bd.colour_cell[board, colour], total <= 0

    def box_cumulative(self) -> np.ndarray:
        """Running bead totals of every box's colours, (boxes, width)."""
        return np.cumsum(self.beads[self.boards.box_keys], axis=1)

    def play(self, games: int, menace_mark: int, opponent: str, rng: np.random.Generator) -> Batch:
        """Play ``games`` games against ``opponent`` from the current snapshot of the boxes."""
        if opponent not in OPPONENTS:
            raise ValueError(f"opponent must be one of {', '.join(OPPONENTS)}, got {opponent!r}")
        if menace_mark not in (X, O):
            raise ValueError("menace_mark is 1 (X) or 2 (O)")
        bd = self.boards
        cumulative = self.box_cumulative()
        board = np.zeros(games, dtype=np.int64)
        game = np.arange(games)
        result = np.zeros(games, dtype=np.int64)
        resigned = np.zeros(games, dtype=np.int64)
        moves = np.full((games, 9), -1, dtype=np.int64)
        drawn_game, drawn_key, drawn_mark = [], [], []
        for ply in range(9):
            if board.size == 0:
                break
            mark = X + ply % 2
            if mark == menace_mark or opponent == "menace":
                if ply == 8:
                    cell = bd.empties[board, 0]  # forced: no box, no bead
                else:
                    key, cell, gone = self.draw(board, rng, cumulative)
                    if gone.any():
                        resigned[game[gone]] = mark
                        result[game[gone]] = 3 - mark
                        keep = ~gone
                        key, cell, board, game = key[keep], cell[keep], board[keep], game[keep]
                    drawn_game.append(game)
                    drawn_key.append(key)
                    drawn_mark.append(np.full(game.size, mark))
            elif opponent == "random":
                cell = bd.empties[board, (rng.random(board.size) * bd.n_empty[board]).astype(np.int64)]
            else:
                cell = bd.best[board, (rng.random(board.size) * bd.n_best[board]).astype(np.int64)]
            moves[game, ply] = cell
            board = board + mark * POW3[cell]
            if ply >= 4:
                won = bd.winner[board]
                over = (won > 0) | (ply == 8)
                if over.any():
                    result[game[over]] = won[over]
                    board, game = board[~over], game[~over]
        empty = np.zeros(0, dtype=np.int64)
        return Batch(menace_mark, opponent, result, resigned, moves,
                     np.concatenate(drawn_game) if drawn_game else empty,
                     np.concatenate(drawn_key) if drawn_key else empty,
                     np.concatenate(drawn_mark) if drawn_mark else empty)

    # ----- learning -----
    def reinforce(self, batch: Batch) -> None:
        """Every drawn bead gets its side's incentive (win, draw, loss), summed over
        the batch, and the counts are floored at 0."""
        win, draw, loss = self.config.incentives
        res = batch.result[batch.drawn_game]
        amount = np.where(res == 0, draw, np.where(res == batch.drawn_mark, win, loss))
        delta = np.zeros_like(self.beads)
        np.add.at(delta, batch.drawn_key, amount)
        np.maximum(self.beads + delta, 0, out=self.beads)

    def train(self, games: int, menace_mark: int, opponent: str, rng: np.random.Generator) -> Batch:
        """Play one batch and learn from it."""
        batch = self.play(games, menace_mark, opponent, rng)
        self.reinforce(batch)
        return batch
