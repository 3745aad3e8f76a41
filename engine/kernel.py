"""The kernel every card game is built on: the mutable table's protocol, the one adapter that makes
a ``Game`` of a table, and the one shuffle (the JSON of states and events is ``engine.codec``'s).

A card game is written as a **table** (``rules.py``): a mutable object holding one position, with
``legal()`` (the legal action codes, small ints), ``step(code)`` (play one for the seat to move) and
``copy()``; search agents, arenas, training and benchmarks drive it directly. Its frozen twin, the
game's ``State`` (an immutable ``NamedTuple``), is what the ``Game`` surface hands out and what is
saved: ``Table.thaw(state)`` and ``table.freeze()`` go between them. Both answer
``current_player()`` (None once the match is over) and ``is_over()``.

A game declares its position twice, once per form, and writes no conversion: its ``State`` names
the fields with their frozen types, and its table (``class Table(kernel.Table[State])``) annotates
the same names with the types it plays on. From these ``TableType`` writes the table's
``__slots__``, ``thaw``, ``freeze`` and ``copy`` (as ``dataclasses`` writes ``__init__``) and gives
it the state's own ``current_player`` and ``is_over``; see ``TableType`` for the rules it follows.

``TableGame`` turns a table into a ``Game`` once for every card game: ``apply`` (check, thaw,
step, freeze), ``legal_actions``, ``new_match``/``new_deal``, ``current_player``/``is_over`` and
the JSON round trip with its one error (``StateError``). A game supplies its rules, its actions
by code, the JSON form of its state's fields (``engine.codec.StateCodec``), and what a seat sees.
"""
from __future__ import annotations

import random
from abc import ABCMeta, abstractmethod
from functools import partial
from itertools import repeat, starmap
from typing import (
    TYPE_CHECKING, Any, ClassVar, Generic, Iterable, Protocol, Self, Sequence, TypeVar, get_args, get_origin,
)

from engine.base import Game, GameError, IllegalActionError, StateError
from engine.codec import StateCodec


def shuffled(cards: Iterable[int], rng: random.Random) -> list[int]:
    """``cards`` in a uniformly random order: sorted by one ``rng.random()`` key each, drawn for the
    cards in the order given (53-bit floats, which do not tie in practice). The same distribution as
    ``rng.shuffle``, and faster."""
    return sorted(cards, key=partial(next, starmap(rng.random, repeat(()))))


class Position(Protocol):
    """What the adapter asks of a frozen state without thawing it."""

    @property
    def deal(self) -> int: ...

    def current_player(self) -> int | None: ...

    def is_over(self) -> bool: ...


class RulesType(Protocol):
    """A game's rules class: ``of`` makes the rules of a match from its options (resolved and checked)."""

    def of(self, players: int, options: dict) -> Any: ...


S = TypeVar("S", bound=Position)
A = TypeVar("A")


PLAIN, LIST, NESTED, LOG = "plain", "list", "nested", "log"
"""How a table holds one field of its state: as the state's own value (``PLAIN``), as a list of the
state's tuple (``LIST``), as a list of lists (``NESTED``), or as the public event log (``LOG``)."""

_FROZEN = {PLAIN: "{}", LIST: "tuple({})", NESTED: "tuple(map(tuple, {}))",
           LOG: "() if {0} is None else tuple({0}[-{keep}:])"}
_THAWED = {LIST: "list({})", NESTED: "[list(x) for x in {}]", LOG: "list({})"}
_COPIED = {PLAIN: "{}", LIST: "{}[:]", NESTED: "[x[:] for x in {}]", LOG: "None if {} is None else []"}


def field_kind(name: str, annotation: object) -> str:
    """The kind of a table field from its annotation: ``log`` is the event log; ``list[list[...]]``,
    ``NESTED``; ``list[...]``, ``LIST``; any other type, ``PLAIN``."""
    text = str(annotation)
    if name == "log":
        return LOG
    return NESTED if text.startswith("list[list[") else LIST if text.startswith("list[") else PLAIN


def table_methods(state: type, fields: dict[str, str], keep: int) -> dict[str, Any]:
    """``thaw``, ``freeze`` and ``copy`` for a table of ``state`` with ``fields`` (name: kind; those
    the state lacks are the table's own, set by ``derive``): written out as source, field by field,
    and compiled once, so they run as fast as the same methods written by hand."""
    names: tuple[str, ...] = state._fields  # type: ignore[attr-defined]
    thaw = ["def thaw(cls, s):", "    t = _new(cls)",
            "    " + ", ".join(f"t.{n}" if fields[n] == PLAIN else f"_{n}" for n in names) + ", = s",
            *(f"    t.{n} = " + _THAWED[fields[n]].format(f"_{n}") for n in names if fields[n] != PLAIN),
            *(["    t.derive()"] if set(fields) - set(names) else []),
            "    return t"]
    freeze = ["def freeze(self):",
              "    return _tuple_new(State, (" + ", ".join(_FROZEN[fields[n]].format(f"self.{n}", keep=keep)
                                                        for n in names) + ",))"]
    copy = ["def copy(self):", "    t = _new(type(self))",
            *(f"    t.{n} = " + _COPIED[kind].format(f"self.{n}") for n, kind in fields.items()),
            "    return t"]
    scope: dict[str, Any] = {"_new": object.__new__, "_tuple_new": tuple.__new__, "State": state}
    exec(compile("\n".join([*thaw, *freeze, *copy]), f"<table of {state.__qualname__}>", "exec"), scope)
    return {"thaw": classmethod(scope["thaw"]), "freeze": scope["freeze"], "copy": scope["copy"]}


class TableType(ABCMeta):
    """The metaclass of tables. For ``class Table(kernel.Table[State])`` it reads the fields the
    class annotates (every field of ``State``, with the type the table holds it as, and any of the
    table's own) and writes:

    - ``__slots__``: the annotated names (``ClassVar`` ones aside);
    - ``thaw(state)`` and ``freeze()``: each field converted by its kind (``field_kind``): a
      ``list[...]`` field is thawed with ``list`` and frozen with ``tuple`` (``list[list[...]]``: both
      levels), the field ``log`` is frozen as its last ``log_keep`` events (a table with a log
      must set ``log_keep``); the table's own fields are set by its ``derive()`` after a thaw;
    - ``copy()``: an independent table: lists copied (both levels), other values shared (they are
      never changed in place), the event log left out (a new empty one, or None if there was none);
    - ``current_player`` and ``is_over``: the state's own functions, which read the same names.
    """

    def __new__(mcls, name: str, bases: tuple[type, ...], namespace: dict[str, Any], **kwargs: Any) -> TableType:
        state = next((get_args(base)[0] for base in namespace.get("__orig_bases__", ())
                      if isinstance(get_origin(base), TableType)), None)
        if state is not None:
            annotations = {field: kind for field, kind in namespace.get("__annotations__", {}).items()
                           if get_origin(kind) is not ClassVar and not str(kind).startswith("ClassVar")}
            missing = [field for field in state._fields if field not in annotations]
            if missing:
                raise TypeError(f"{name} does not declare the fields {missing} of {state.__qualname__}")
            fields = {field: field_kind(field, kind) for field, kind in annotations.items()}
            if LOG in fields.values() and namespace.get("log_keep", 0) < 1:
                raise TypeError(f"{name} keeps a log: say how many of its events a state keeps (log_keep)")
            namespace["__slots__"] = tuple(fields)
            namespace.update(table_methods(state, fields, namespace.get("log_keep", 0)),
                             current_player=state.current_player, is_over=state.is_over)
        return super().__new__(mcls, name, bases, namespace, **kwargs)


class Table(Generic[S], metaclass=TableType):
    """The mutable table of a card game (see the module's notes and ``TableType``). ``step`` trusts
    its caller: the adapter checks legality first; simulations pick codes from ``legal()``."""

    __slots__ = ()
    scores: Sequence[int]
    """The match totals so far, one per seat."""

    @classmethod
    @abstractmethod
    def new(cls, players: int, seed: int, rules: Any, single: bool) -> Self:
        """A match (``single``: one deal) at its first move, dealt from ``seed``."""

    if TYPE_CHECKING:  # written for each table by TableType
        @classmethod
        def thaw(cls, state: S) -> Self:
            """A table holding ``state``, to be changed without changing ``state``."""

        def freeze(self) -> S:
            """The position as an immutable state."""

        def copy(self) -> Self:
            """An independent table in the same position (its event log left out)."""

        def current_player(self) -> int | None: ...

        def is_over(self) -> bool: ...

    def derive(self) -> None:
        """Work out the table's own fields (those its state lacks) from the others, after a thaw."""

    @classmethod
    def reader(cls, state: S) -> Self:
        """A table for asking ``legal()`` and ``is_legal()`` of ``state`` only (never ``step``): a
        game whose thaw copies much overrides it with one that shares the state's values."""
        return cls.thaw(state)

    @abstractmethod
    def legal(self) -> list[int]:
        """The legal action codes of the seat to move (empty once the match is over)."""

    def is_legal(self, code: int) -> bool:
        return code in self.legal()

    @abstractmethod
    def step(self, code: int) -> None:
        """The seat to move plays the legal action ``code``."""


class TableGame(Game[S, A]):
    """A ``Game`` made of a table (see the module's notes). A game sets ``table``, ``rules_type``,
    ``state_json`` and ``actions`` (the action of each code) or overrides ``action``, and writes the
    rest of the surface (views, scores, labels, hidden cards)."""

    table: type[Table[S]]
    rules_type: RulesType
    actions: Sequence[A] = ()
    state_json: StateCodec

    # ----- hooks -----
    def rules(self, players: int, options: dict | None) -> Any:
        """The rules of a match of ``players`` seats with ``options`` (checked: OptionError)."""
        self.check_players(players)
        return self.rules_type.of(players, self.resolve_options(options))

    def action(self, code: int) -> A:
        """The action of ``code``."""
        return self.actions[code]

    def decode(self, data: dict) -> S:
        """The state ``to_json`` wrote (any error it meets becomes a StateError in ``from_json``): its
        fields by ``state_json``, its rules from the options and the players (which a game for a
        fixed number of players does not write)."""
        players = self.min_players if self.min_players == self.max_players else int(data["players"])
        return self.state_json.from_json(data, rules=self.rules(players, data["options"]))

    # ----- the surface -----
    def new_match(self, players: int, seed: int = 0, options: dict | None = None) -> S:
        return self.table.new(players, seed, self.rules(players, options), False).freeze()

    def new_deal(self, players: int, seed: int = 0, options: dict | None = None) -> S:
        return self.table.new(players, seed, self.rules(players, options), True).freeze()

    def current_player(self, state: S) -> int | None:
        return state.current_player()

    def is_over(self, state: S) -> bool:
        return state.is_over()

    def deal_of(self, state: S) -> int:
        return state.deal

    def legal_actions(self, state: S) -> list[A]:
        action = self.action
        return [action(code) for code in self.table.reader(state).legal()]

    def apply(self, state: S, action: A) -> S:
        if state.is_over():
            raise IllegalActionError(getattr(action, "id", str(action)), "the match is over")
        code = getattr(action, "code", None)
        table = self.table.thaw(state)
        if type(code) is not int or not table.is_legal(code) or not self.is_action(code, action):
            raise IllegalActionError(getattr(action, "id", str(action)), self.why_illegal(state, action))
        table.step(code)
        return table.freeze()

    def is_action(self, code: int, action: object) -> bool:
        """``action`` is the action of ``code`` (not another object that says it has that code)."""
        known = self.action(code)
        return known is action or known == action

    def to_json(self, state: S) -> dict:
        return self.state_json.to_json(state)

    def from_json(self, data: dict) -> S:
        try:
            return self.decode(data)
        except StateError:
            raise
        except (GameError, KeyError, TypeError, ValueError, AttributeError, IndexError) as err:
            raise StateError(f"not a {self.title} state: {err!r}") from None
