"""The surface every game shares: options, errors, and the abstract Game.

A game is a stateless object; all information lives in its state values.
``apply`` never mutates its argument. States serialise to JSON and back.
Observations are plain JSON-ready dicts holding only what one seat may see.
"""
from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Generic, Sequence, TypeVar


class GameError(ValueError):
    """Base of every error a caller can act on (bad move, bad option, ...)."""


class IllegalActionError(GameError):
    """An action that is not legal in the state it was offered to."""

    def __init__(self, action: str, reason: str):
        self.action = action
        self.reason = reason
        super().__init__(f"illegal action {action!r}: {reason}")


class ActionSyntaxError(IllegalActionError):
    """Text that is no action id of the game (nor a card id inside one): illegal whatever the
    state, so the web app answers it with 422 where an illegal move gets 409."""

    def __init__(self, text: object, reason: str):
        super().__init__(str(text), reason)


class StateError(GameError):
    """A saved state that is no position of the game: missing or mistyped fields, cards lost
    or doubled, a seat out of range."""


RESIGN = "resign"
"""The id of resignation: not a legal action, but accepted by ``apply_id`` in games
whose ``resign`` is implemented (the seat to move loses at once)."""


class OptionError(GameError):
    """A rule option that does not exist or has a bad value."""


@dataclass(frozen=True)
class Option:
    """A rule option with its default; ``choices`` limits the values when given.

    ``title`` names it in words for people (the lobby, the rules pages); ``choice_titles`` says
    each of ``choices`` in words, in the same order. A whole-number option states both bounds:
    every value a match can hold is then small enough for any JSON encoder and any database."""

    name: str
    default: Any
    description: str
    choices: tuple | None = None
    minimum: int | None = None
    maximum: int | None = None
    title: str = ""
    choice_titles: tuple | None = None

    def __post_init__(self) -> None:
        if type(self.default) is int and (self.minimum is None or self.maximum is None):
            raise TypeError(f"option {self.name!r} takes whole numbers: give it a minimum and a maximum")

    def check(self, value: Any) -> Any:
        expected = type(self.default)
        if expected is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if expected is list and isinstance(value, tuple):
            value = list(value)
        if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
            raise OptionError(f"option {self.name!r} must be {expected.__name__}, got {value!r}")
        if self.choices is not None and value not in self.choices:
            raise OptionError(f"option {self.name!r} must be one of {list(self.choices)}, got {value!r}")
        if self.minimum is not None and value < self.minimum:
            raise OptionError(f"option {self.name!r} must be at least {self.minimum}, got {value!r}")
        if self.maximum is not None and value > self.maximum:
            raise OptionError(f"option {self.name!r} must be at most {self.maximum}, got {value!r}")
        return value

    def schema(self) -> dict:
        """The JSON Schema of the values ``check`` accepts."""
        if self.choices is not None:
            return {"enum": list(self.choices)}
        kind = {bool: "boolean", int: "integer", float: "number", str: "string"}[type(self.default)]
        bounds = {k: v for k, v in (("minimum", self.minimum), ("maximum", self.maximum)) if v is not None}
        return {"type": kind, **bounds}

    def describe(self) -> dict:
        out = {"name": self.name, "title": self.title or self.name.replace("_", " ").capitalize(),
               "default": self.default, "description": self.description}
        if self.choices is not None:
            out["choices"] = list(self.choices)
            out["choice_titles"] = list(self.choice_titles or self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return out


def chance(seed: int, *labels: object) -> random.Random:
    """A generator for one chance event of a match, derived from the match seed.

    ``chance(seed, "deal", 3)`` always yields the same stream, so replays are exact
    and nothing touches the global random state.
    """
    return random.Random(":".join([str(seed), *map(str, labels)]))


@dataclass(frozen=True)
class GameType:
    """What a game can do, declared once per game (after OpenSpiel's ``GameType``); generic code
    (tournaments, calibration, the web app) reads it instead of asking for attributes by name."""

    hidden_information: bool = False
    """A seat cannot see everything (other hands, the deck): views differ per seat, and what an
    AI weighed stays hidden until the deal ends."""
    points_per_deal: bool = False
    """Every deal is scored in zero-sum points: tournaments lead with mean points per deal."""
    actions_per_move: int = 1
    """Actions that make one player's move (Rack-O: draw, then place or discard)."""
    whole_matches: bool = False
    """Tournaments and calibration count whole matches unless told otherwise (else single deals)."""
    resignation: bool = False
    """The rules have a resignation move (``Game.resign``), played on the resigner's turn."""


S = TypeVar("S")
A = TypeVar("A")


class Game(ABC, Generic[S, A]):
    """Abstract game. Subclasses set the class attributes and implement the rules."""

    name: str = ""
    title: str = ""
    min_players: int = 2
    max_players: int = 2
    options: tuple[Option, ...] = ()
    presets: dict[str, dict] = {}
    """Named sets of option values (e.g. a write-up's own rules): ``{"preset": name}`` among the
    options stands for them; options given beside it override the preset's."""
    lengths: dict[str, dict] = {}
    """How long a match lasts, in words ("one deal", "short match", "full match") and the option
    values that make it so; the lobby offers them. Empty for games without deals."""
    summary: str = ""
    type: GameType = GameType()

    # ----- options -----
    def resolve_options(self, options: dict | None) -> dict:
        """Defaults filled in and every value checked; unknown names raise OptionError."""
        options = dict(options or {})
        if "preset" in options:
            name = options.pop("preset")
            if not isinstance(name, str) or name not in self.presets:
                raise OptionError(f"unknown preset {name!r} for {self.name}; presets: "
                                  f"{', '.join(self.presets) or 'none'}")
            options = {**self.presets[name], **options}
        known = {o.name: o for o in self.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            valid = [*known, *(["preset"] if self.presets else [])]
            raise OptionError(f"unknown option(s) for {self.name}: {', '.join(unknown)}; "
                              + (f"its options: {', '.join(valid)}" if valid else "it has no options"))
        return {name: opt.check(options.get(name, opt.default)) for name, opt in known.items()}

    def options_schema(self, players: int) -> dict:
        """The JSON Schema of the options a match of ``players`` seats accepts: exactly what
        ``resolve_options`` and ``new_match`` take (a game whose options depend on one another
        or on the players says so in its own)."""
        properties = {o.name: o.schema() for o in self.options}
        if self.presets:
            properties["preset"] = {"enum": list(self.presets)}
        return {"type": "object", "properties": properties, "additionalProperties": False}

    def check_players(self, players: int) -> None:
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            span = (str(self.min_players) if self.min_players == self.max_players
                    else f"{self.min_players} to {self.max_players}")
            raise OptionError(f"{self.title} takes {span} players, got {players!r}")

    def describe(self) -> dict:
        return {
            "name": self.name,
            "title": self.title,
            "players": {"min": self.min_players, "max": self.max_players},
            "summary": self.summary,
            "options": [o.describe() for o in self.options],
            "presets": {name: dict(values) for name, values in self.presets.items()},
            "lengths": {name: dict(values) for name, values in self.lengths.items()},
        }

    # ----- the surface (subclasses implement) -----
    @abstractmethod
    def new_match(self, players: int, seed: int, options: dict | None = None) -> S:
        ...

    @abstractmethod
    def new_deal(self, players: int, seed: int, options: dict | None = None) -> S:
        """A match that ends after a single deal (for learners and tournaments)."""
        ...

    @abstractmethod
    def current_player(self, state: S) -> int | None:
        ...

    @abstractmethod
    def legal_actions(self, state: S) -> list[A]:
        ...

    @abstractmethod
    def apply(self, state: S, action: A) -> S:
        ...

    @abstractmethod
    def is_over(self, state: S) -> bool:
        ...

    @abstractmethod
    def scores(self, state: S) -> list[float]:
        ...

    @abstractmethod
    def winners(self, state: S) -> list[int]:
        ...

    @abstractmethod
    def observe(self, state: S, player: int | None, reveal: bool = False) -> dict:
        ...

    @abstractmethod
    def parse_action(self, action_id: str) -> A:
        ...

    def action_label(self, action: A) -> str:
        return action.id  # type: ignore[attr-defined]

    @abstractmethod
    def to_json(self, state: S) -> dict:
        ...

    @abstractmethod
    def from_json(self, data: dict) -> S:
        ...

    def resample_hidden(self, state: S, player: int | None, rng: random.Random) -> S:
        """A state ``player`` cannot tell from ``state``: every card they cannot see is
        redistributed among the places they cannot see. Used by the leak tests and by
        search agents as a determinisation. Perfect-information games return the state."""
        return state

    def deal_of(self, state: S) -> int:
        """Which deal of its match ``state`` is in (0: the first); the number goes up with the
        move that ends a deal. Games without deals: always 0."""
        return 0

    def resign(self, state: S, seat: int) -> S:
        """The state after ``seat`` (who must be to move) resigns. Games that allow it override."""
        raise IllegalActionError(RESIGN, f"{self.title} has no resignation")

    # ----- shared helpers -----
    def apply_id(self, state: S, action_id: str) -> S:
        """Apply an action given by its string id, checking it is legal."""
        if action_id == RESIGN:
            seat = self.current_player(state)
            if seat is None:
                raise IllegalActionError(RESIGN, "the match is over")
            return self.resign(state, seat)
        action = self.parse_action(action_id)
        return self.apply(state, action)

    def require_legal(self, state: S, action: A) -> None:
        if self.is_over(state):
            raise IllegalActionError(getattr(action, "id", str(action)), "the match is over")
        if action not in self.legal_actions(state):
            raise IllegalActionError(getattr(action, "id", str(action)), self.why_illegal(state, action))

    def why_illegal(self, state: S, action: A) -> str:
        return "it is not among the legal actions now"

    def legal_ids(self, state: S) -> list[str]:
        return [a.id for a in self.legal_actions(state)]  # type: ignore[attr-defined]


def play_out(game: Game, state, agents: Sequence, rng: random.Random, on_move=None):
    """Play ``state`` to the end with one agent per seat; returns (final state, action ids)."""
    history: list[str] = []
    while not game.is_over(state):
        seat = game.current_player(state)
        assert seat is not None  # a match not over has a seat to move
        legal = game.legal_actions(state)
        action = agents[seat].act(game.observe(state, seat), legal, rng)
        if on_move is not None:
            on_move(state, seat, action)
        if action == RESIGN:
            state = game.resign(state, seat)
            history.append(RESIGN)
        else:
            state = game.apply(state, action)
            history.append(action.id)
    return state, history
