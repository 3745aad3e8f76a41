"""The one kind of action, ``Play(card)``, with id ``play:QS`` and integer code = the card (0..31).

``ACTIONS[card]`` is the interned value, so comparing and looking up actions is cheap.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.base import ActionSyntaxError
from engine.queen_of_spades.cards import CARD_IDS, CARD_LABELS, DECK_SIZE, parse_card


@dataclass(frozen=True)
class Play:
    card: int  # 0..31

    @property
    def code(self) -> int:
        return self.card

    @property
    def id(self) -> str:
        return "play:" + CARD_IDS[self.card]

    @property
    def label(self) -> str:
        return "play " + CARD_LABELS[self.card]


ACTIONS: tuple[Play, ...] = tuple(Play(c) for c in range(DECK_SIZE))


def parse_action(action_id: str) -> Play:
    """``"play:QS"`` -> ``Play(10)``."""
    if not isinstance(action_id, str) or not action_id.startswith("play:"):
        raise ActionSyntaxError(action_id, f"{action_id!r} is not a Queen of Spades action (like play:QS)")
    try:
        return ACTIONS[parse_card(action_id[5:])]
    except ActionSyntaxError as err:
        raise ActionSyntaxError(action_id, err.reason) from None
