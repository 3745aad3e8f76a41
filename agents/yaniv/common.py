"""What the Yaniv players here share.

A player decides from a ``Seat``: its hand, the cards it may take from the
previous group, the card values and the Yaniv limit, all as card indices
(``engine.yaniv.cards``). ``seat_of(observation)`` reads it from a view and
``seat_of_state(state)`` from a state for the player to move (training loops and
search rollouts use the latter; both give the same ``Seat``, which a test checks).

A decision is ``YANIV`` (call) or ``(drop, take)``: the group to throw (canonical
order) and the card to take from the pile, or None for the stock. The write-up's
players always throw *all* cards of one rank (``rank_drop``; a joker goes alone,
jokers being singles), and when they take from the pile they take its lowest card
(``pile_card``), which for a set is any of its cards and for a run its lower end.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.yaniv import CARDS, CallYaniv, Discard, State
from engine.yaniv.cards import CARD_IDS, JOKER, RANK_OF, card_values, parse_card
from engine.yaniv.groups import takeable

YANIV = None  # the decision to call Yaniv
STALL_TURNS = 100
"""A deal still running after this many turns is stuck in a loop: deterministic players
can repeat the same exchanges forever (two Harels holding 19 and 8 throw and take the same
cards again and again), and the rules have no end but a call. Normal deals take 10 to 40
turns, so players here change their ways after this many (see Harel and Sage)."""
Decision = tuple[tuple[int, ...], int | None] | None


@dataclass(frozen=True, slots=True)
class Seat:
    hand: tuple[int, ...]  # sorted by index
    takeable: tuple[int, ...]  # cards of the previous group that may be taken
    values: tuple[int, ...]  # value of each card index
    limit: int  # the Yaniv limit
    hand_size: int  # cards dealt per hand (the longest a hand gets)
    turn: int = 0  # turns already taken in this deal (by everybody)

    @property
    def total(self) -> int:
        values = self.values
        return sum(values[c] for c in self.hand)

    @property
    def can_call(self) -> bool:
        return self.total <= self.limit


_VALUES = {name: card_values(name) for name in ("ten", "rank")}


def _indices(ids) -> tuple[int, ...]:
    return tuple(sorted(parse_card(c).index for c in ids))


def seat_of(observation: dict) -> Seat:
    """The deciding seat's inputs, read from its own view."""
    options = observation["options"]
    return Seat(_indices(observation["hand"]), tuple(parse_card(c).index for c in observation["discard"]["takeable"]),
                _VALUES[options["face_values"]], options["yaniv_limit"], options["hand_size"], observation["turn"])


def seat_of_state(state: State) -> Seat:
    """The same inputs for the player to move, straight from a state."""
    rules, seat = state.rules, state.to_move
    assert seat is not None  # a deal in play has a player to move
    return Seat(state.hands[seat], takeable(state.top), rules.values, rules.yaniv_limit,
                rules.hand_size, state.turn)


def ranks_held(hand: tuple[int, ...]) -> list[int]:
    """The distinct ranks in ``hand``, increasing (0 for jokers)."""
    return sorted({RANK_OF[c] for c in hand})


def rank_drop(hand: tuple[int, ...], rank: int) -> tuple[int, ...]:
    """All cards of ``rank`` in ``hand`` (a set or a single); for jokers just one joker."""
    if rank == JOKER:
        return (min(c for c in hand if RANK_OF[c] == JOKER),)
    return tuple(c for c in hand if RANK_OF[c] == rank)


def pile_card(seat: Seat) -> int:
    """The card the write-up's players take from the pile: the lowest one takeable."""
    values = seat.values
    return min(seat.takeable, key=lambda c: (values[c], c))


def to_action(decision: Decision):
    """The engine action of a decision."""
    if decision is YANIV:
        return CallYaniv()
    drop, take = decision
    return Discard(tuple(CARDS[c] for c in drop), None if take is None else CARDS[take])


def decision_id(decision: Decision) -> str:
    """The action id of a decision (without building the action)."""
    if decision is YANIV:
        return "yaniv"
    drop, take = decision
    return ("drop:" + ",".join(CARD_IDS[c] for c in drop) + "|take:"
            + ("stock" if take is None else CARD_IDS[take]))
