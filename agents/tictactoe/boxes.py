"""MENACE's matchboxes as its page shows them: the inspector of the MENACE agents.

``position`` (any orientation, as ``X...O....``): that position's box, bead counts per cell
of the position as given (``null`` on taken cells); without it, every box MENACE holds as
``mark`` (``X``, the default, or ``O``).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agents.spec import InspectQueryError, Inspector, NothingToInspect
from agents.tictactoe.menace import Menace, box_positions
from agents.tictactoe.symmetry import canonical, parse, render

MARKS = {"X": 1, "O": 2}


def box_json(menace: Menace, board: tuple[int, ...]) -> dict[str, Any]:
    canon, perm, beads = menace.box(board)
    cells: list[float | None] = [None] * 9
    for group, _, count in beads:
        for cell in group:
            cells[perm[cell]] = count
    return {"position": render(board), "box": render(canon), "beads": cells,
            "total": sum(c for _, _, c in beads), "colours": len(beads)}


def read(menace: Menace, query: Mapping[str, str]) -> dict[str, Any]:
    mark = query.get("mark", "X")
    if mark not in MARKS:
        raise InspectQueryError(f"mark must be X or O, not {mark!r}")
    position = query.get("position")
    if position is not None:
        try:
            board = parse(position)
        except ValueError as err:
            raise InspectQueryError(str(err)) from None
        if canonical(board)[0] not in set(box_positions(1)) | set(box_positions(2)):
            raise NothingToInspect(f"MENACE has no box for {position}: it is not a position it must choose in")
        return box_json(menace, board)
    items = [box_json(menace, b) for b in box_positions(MARKS[mark])]
    return {"mark": mark, "count": len(items), "boxes": items}


BOXES = Inspector(read, params=("position", "mark"),
                  about="its matchboxes: every box it holds as mark X or O, or the box of one position")
