"""A match's moves as stored (``MoveRow``) and as this process remembers them (``Played``): each
in the two forms a viewer may be served, the AI's whole reasoning or what the others at a card
table are given of it while its deal is on (``withheld``). Which form a viewer gets is decided
by ``app.services.match_views.Book``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import orjson

WITHHELD_NOTE = ("Its values for each option are shown when the deal ends: until then they would "
                 "tell what it holds.")


@dataclass(frozen=True, slots=True)
class MoveRow:
    """A move as stored: ``explanation`` is its AI's whole reasoning (None: a person's move)."""
    ply: int
    seat: int
    action: str
    label: str
    explanation: dict[str, Any] | None

    def whole_json(self) -> dict[str, Any]:
        return {"ply": self.ply, "seat": self.seat, "action": self.action, "label": self.label,
                "explanation": self.explanation}


def withheld(move: MoveRow) -> dict[str, Any]:
    """The reasoning of an AI's move as the others at a card table are given it while its deal
    is on: the move made and the AI's rule in words, nothing computed from its hand (no value,
    no other option: the options it had would show what it holds, and every value of the
    card games' AIs is computed from the hand). ``move`` has an explanation."""
    e = move.explanation or {}
    return {"label": "", "values": {}, "labels": {move.action: move.label}, "reason": e.get("reason", ""),
            "note": WITHHELD_NOTE, "withheld": True, **({"deal": e["deal"]} if "deal" in e else {})}


def deal_of(explanation: dict[str, Any] | None) -> int | None:
    """The deal an AI's reasoning was made in (None: no reasoning, or not recorded)."""
    return None if explanation is None else explanation.get("deal")


class Played(NamedTuple):
    """A move as this process remembers it (a match's log tail, ``app.services.memory``): what a
    view shows of it, written as JSON once. Bytes are not objects the garbage collector walks:
    as dicts, the tails of 300 matches were about 120,000 of them, and every full collection
    walked them all (80 to 100 ms, with every request waiting)."""
    ply: int
    seat: int
    action: str
    label: str
    deal: int | None  # the deal its AI's reasoning was made in (None: no reasoning, or not recorded)
    full: orjson.Fragment  # the move with its AI's whole reasoning
    withheld: orjson.Fragment  # with what others are given of it while its deal is on (``Book``)
    reason: orjson.Fragment | None  # ``last_explanation`` in the same two forms (None: no explanation)
    withheld_reason: orjson.Fragment | None

    @staticmethod
    def of(move: MoveRow) -> Played:
        """The remembered form of a stored move."""
        full = move.whole_json()
        if move.explanation is None:
            written = _kept(full)
            return Played(move.ply, move.seat, move.action, move.label, None, written, written, None, None)
        hidden = withheld(move)
        head = {"ply": move.ply, "seat": move.seat, "action": move.action}
        return Played(move.ply, move.seat, move.action, move.label, deal_of(move.explanation), _kept(full),
                      _kept({**full, "explanation": hidden}), _kept({**head, **move.explanation}),
                      _kept({**head, **hidden}))


def _kept(value: dict[str, Any]) -> orjson.Fragment:
    """``value`` written as JSON to keep: copied to a bytes object of its own size, because the
    one orjson returns holds at least 4 KB (a 100-byte move kept that way cost 4 KB)."""
    return orjson.Fragment(bytes(memoryview(orjson.dumps(value))))
