"""MENACE, Michie's 1961 Matchbox Educable Noughts And Crosses Engine (docs/rules.md, section 1).

One matchbox per position MENACE must choose in, positions equal under the 8
symmetries sharing a box (keyed by the canonical board). Within a box, cells
equivalent under the position's own symmetries share a bead colour. A move draws
a bead with probability proportional to the counts and maps the cell back
through the symmetry. After the game every bead drawn is reinforced: win +3,
draw +1, loss -1 (never below 0). An empty box means MENACE resigns.

The learned table is a flat ``{"<canonical board>:<cell>": beads}`` dict (cell in
canonical coordinates, the first cell of its colour), so it can live in a JSON
file or in the database.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from agents.base import Episode, Explanation, Update
from agents.spec import Values
from agents.tictactoe.perfect import board_of
from agents.tictactoe.symmetry import canonical, orbits, render
from engine import RESIGN
from engine.tictactoe import Place, TicTacToe, winning_line


@dataclass(frozen=True)
class MenaceConfig:
    initial_beads: tuple[int, ...] = (4, 3, 2, 1)  # by MENACE's move number 1, 2, 3, 4
    incentives: tuple[int, int, int] = (3, 1, -1)  # win, draw, loss
    merge_symmetric: bool = True  # cells alike under the position's symmetries share a colour

    @classmethod
    def from_options(cls, options: dict | None) -> "MenaceConfig":
        options = options or {}
        beads = tuple(int(b) for b in options.get("initial_beads", cls.initial_beads))
        incentives = tuple(int(v) for v in options.get("incentives", cls.incentives))
        if len(beads) != 4 or min(beads) < 0:
            raise ValueError("initial_beads takes four counts >= 0, for MENACE's moves 1 to 4")
        if len(incentives) != 3:
            raise ValueError("incentives takes three numbers: win, draw, loss")
        return cls(beads, incentives, bool(options.get("merge_symmetric", True)))


@lru_cache(maxsize=None)
def box_positions(mark: int) -> tuple[tuple[int, ...], ...]:
    """Canonical positions where ``mark`` (1 = X, 2 = O) is to move and must choose:
    reachable, nobody has won, at least two empty cells. X: 304 boxes; O: 289 boxes."""
    found: set[tuple[int, ...]] = set()
    frontier: set[tuple[int, ...]] = {(0,) * 9}
    for _ply in range(9):
        nxt: set[tuple[int, ...]] = set()
        for board in frontier:
            if winning_line(board) is not None:
                continue
            empty = [i for i, c in enumerate(board) if not c]
            if not empty:
                continue
            mover = 1 + (9 - len(empty)) % 2
            if mover == mark and len(empty) >= 2:
                found.add(canonical(board)[0])
            for i in empty:
                nxt.add(canonical(board[:i] + (mover,) + board[i + 1:])[0])
        frontier = nxt
    return tuple(sorted(found))


def colours(board: tuple[int, ...], merge: bool) -> tuple[tuple[int, ...], ...]:
    if merge:
        return orbits(board)
    return tuple((i,) for i, c in enumerate(board) if not c)


def move_number(board: tuple[int, ...]) -> int:
    """MENACE's own move number (1-4) in this position, as X or as O."""
    return sum(1 for c in board if c) // 2 + 1


def beginner_table(config: MenaceConfig = MenaceConfig(), marks: Sequence[int] = (1, 2)) -> dict[str, float]:
    """Fresh boxes for MENACE as X and as O, filled with the initial beads."""
    table: dict[str, float] = {}
    for mark in marks:
        for board in box_positions(mark):
            beads = config.initial_beads[min(move_number(board), 4) - 1]
            for group in colours(board, config.merge_symmetric):
                table[f"{render(board)}:{group[0]}"] = float(beads)
    return table


class Menace:
    name = "menace"

    def __init__(self, table: Values | None = None, config: MenaceConfig = MenaceConfig()):
        self.config = config
        # its own copy (it learns by changing it): a plain dict's, or a live learner's layered
        # table's (which copies only the learner's own layer, not the whole table)
        self.table = table.copy() if table is not None else beginner_table(config)

    # ----- boxes -----
    def box(self, board: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...], list[tuple[tuple[int, ...], str, float]]]:
        """(canonical board, permutation to it, [(colour's cells in canonical coordinates, key, beads)])."""
        canon, perm = canonical(board)
        prefix = render(canon)
        initial = self.config.initial_beads[min(move_number(canon), 4) - 1]
        beads = []
        for group in colours(canon, self.config.merge_symmetric):
            key = f"{prefix}:{group[0]}"
            beads.append((group, key, self.table.get(key, float(initial))))
        return canon, perm, beads

    def refuses(self, seat: int) -> bool:
        """True when MENACE would open (seat 0, X) but its first box has no beads left."""
        return seat == 0 and sum(b for _, _, b in self.box((0,) * 9)[2]) <= 0

    # ----- the agent protocol -----
    def act(self, observation: dict, legal_actions: Sequence[Place], rng: random.Random):
        if len(legal_actions) == 1:
            return legal_actions[0]  # forced: no box, no bead
        _, perm, beads = self.box(board_of(observation))
        total = sum(b for _, _, b in beads)
        if total <= 0:
            return RESIGN
        pick = rng.random() * total
        for group, _, count in beads:
            pick -= count
            if pick < 0 and count > 0:
                return Place(perm[group[0]])
        return Place(perm[next(g for g, _, c in reversed(beads) if c > 0)[0]])

    def explain(self, observation: dict, legal_actions: Sequence[Place]) -> Explanation | None:
        if len(legal_actions) < 2:
            return None
        canon, perm, beads = self.box(board_of(observation))
        values = {Place(perm[cell]).id: count for group, _, count in beads for cell in group}
        note = (f"matchbox {render(canon)}: {sum(b for _, _, b in beads):g} beads in {len(beads)} colours; "
                "cells with the same symmetric role share one colour (and its count)")
        return Explanation("beads", values, note)

    def learn(self, episode: Episode) -> list[Update]:
        """Reinforce every bead drawn in the game; returns the changes made."""
        win, draw, loss = self.config.incentives
        amount = win if episode.won else draw if episode.drawn else loss
        updates = []
        for observation, action_id in episode.steps:
            if action_id == RESIGN or len(observation["legal_actions"]) < 2:
                continue
            board = board_of(observation)
            canon, perm, beads = self.box(board)
            cell = perm.index(TicTacToe().parse_action(action_id).cell)
            key = next(k for group, k, _ in beads if cell in group)
            initial = self.config.initial_beads[min(move_number(canon), 4) - 1]
            self.table[key] = max(0.0, self.table.get(key, float(initial)) + amount)
            updates.append(Update(key, "add", float(amount), floor=0.0))
        return updates
