"""Rules of the games. Imports nothing of Parlour's other packages.

``get_game(name)`` returns the game object; ``GAMES`` lists every registered name.
"""
from __future__ import annotations

from engine.base import (
    RESIGN, ActionSyntaxError, Game, GameError, GameType, IllegalActionError, Option, OptionError, StateError, chance,
    play_out,
)
from engine.queen_of_spades import QueenOfSpades
from engine.racko import Racko
from engine.tictactoe import TicTacToe
from engine.uno import Uno
from engine.yaniv import Yaniv

_REGISTRY: dict[str, Game] = {g.name: g for g in (TicTacToe(), Uno(), Yaniv(), Racko(), QueenOfSpades())}
GAMES: tuple[str, ...] = tuple(_REGISTRY)


def get_game(name: str) -> Game:
    try:
        return _REGISTRY[name]
    except KeyError:
        raise GameError(f"unknown game {name!r}; known games: {', '.join(GAMES)}") from None


__all__ = [
    "GAMES", "RESIGN", "ActionSyntaxError", "Game", "GameError", "GameType", "IllegalActionError", "Option",
    "OptionError", "StateError", "chance", "get_game", "play_out",
]
