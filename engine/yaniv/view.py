"""What one seat sees of a Yaniv table, as JSON-ready data; the state's JSON.

A seat's view (``observe``) holds its own hand, every card thrown (the top group
and the pile under it were all seen face up), the stock's size, the others' card
counts and known cards, the match scores, and after a call the hands shown.
Never another hand before the call, the stock's order or the seed.
"""
from __future__ import annotations

from functools import lru_cache

from engine.base import StateError
from engine.codec import FLAG, FLAGS, INT, INTS, RULES, SEAT, Field, StateCodec, tuple_of
from engine.yaniv.actions import action_of
from engine.yaniv.cards import CARD_IDS, DECK_SIZE, parse_card, sort_key
from engine.yaniv.groups import describe, kind, takeable
from engine.yaniv.rules import DealResult, Rules, State, Table


def ids(cards) -> list[str]:
    return [CARD_IDS[c] for c in cards]


def winners(state: State) -> list[int]:
    """When the match is over: the seats that scored 0 in a single deal, the last seat in a match."""
    if state.to_move is not None:
        return []
    if state.single_deal:
        return list(state.results[-1].winners)
    return [s for s in range(state.players) if not state.out[s]]


def observe(state: State, player: int | None, reveal: bool = False) -> dict:
    rules = state.rules
    over = state.to_move is None
    own = state.hands[player] if player is not None else None
    top = state.top
    mine = player is not None and player == state.to_move
    view = {
        "game": "yaniv",
        "seat": player,
        "players": state.players,
        "options": rules.to_json(),
        "deal": state.deal + 1,
        "turn": state.turn,
        "to_move": state.to_move,
        "over": over,
        "hand": None if own is None else ids(sorted(own, key=sort_key)),
        "hand_value": None if own is None else rules.total(own),
        "can_call_yaniv": mine and own is not None and rules.total(own) <= rules.yaniv_limit,
        "hand_counts": [len(h) for h in state.hands],
        "known": [ids(sorted(k, key=sort_key)) for k in state.known],
        "discard": {"cards": ids(top), "kind": kind(top), "describe": describe(top),
                    "takeable": [] if over else ids(takeable(top)), "by": state.top_by,
                    "under": ids(state.below)},
        "stock": len(state.stock),
        "scores": list(state.scores),
        "eliminated": [s for s in range(state.players) if state.out[s]],
        "winners": winners(state) if over else None,
        "last_result": result_view(state.results[-1], rules) if state.results else None,
        "history": [r.entry for r in state.results],
        "legal_actions": [action_of(code).id for code in Table.reader(state).legal()] if mine else [],
    }
    if reveal:
        view["hands"] = [ids(sorted(h, key=sort_key)) for h in state.hands]
        view["hand_values"] = [rules.total(h) for h in state.hands]
    return view


@lru_cache(maxsize=1024)
def result_view(result: DealResult, rules: Rules) -> dict:
    """A finished deal as the table shows it after the call, Assaf explained: made once per deal
    and shared by every view (never changed)."""
    view = result.to_json()
    view["deal"] = result.deal + 1
    view["hands"] = [ids(sorted(h, key=sort_key)) for h in result.hands]
    caller, mine = result.caller, result.totals[result.caller]
    if result.assaf:
        lows = ", ".join(f"seat {s}" for s in result.winners)
        low = result.totals[result.winners[0]]
        view["explain"] = (f"Assaf! Seat {caller} called Yaniv with {mine}, but {lows} had {low}"
                           f"{' (a tie counts as Assaf)' if low == mine else ''}: seat {caller} adds "
                           f"{mine} + {rules.assaf_penalty}, {lows} add{'s' if len(result.winners) == 1 else ''} 0.")
    else:
        view["explain"] = (f"Yaniv! Seat {caller} called with {mine}, strictly the lowest: "
                           f"seat {caller} adds 0, everybody else adds their hand.")
    return view


# ----- the state's JSON -----
def _cards(card_ids) -> tuple[int, ...]:
    return tuple(parse_card(c).index for c in card_ids)


CARDS = Field(ids, _cards)


def check(state: State) -> None:
    """Every card in exactly one place, one hand per seat, a stock and a discard in play; a StateError otherwise."""
    placed = [c for h in state.hands for c in h] + list(state.stock + state.below + state.top)
    if sorted(placed) != list(range(DECK_SIZE)) or len(state.hands) != state.players:
        raise StateError("not a Yaniv state: every card must be in exactly one place")
    if not state.top or (state.to_move is not None and not state.stock):
        raise StateError("not a Yaniv state: a deal in play has a stock and a discard")


STATE_JSON = StateCodec(State, {
    "rules": RULES, "seed": ("seed", INT), "players": ("players", INT), "single_deal": ("single_deal", FLAG),
    "deal": ("deal", INT), "hands": ("hands", tuple_of(CARDS)), "known": ("known", tuple_of(CARDS)),
    "stock": ("stock", CARDS), "below": ("below", CARDS), "top": ("top", CARDS), "top_by": ("top_by", SEAT),
    "to_move": ("to_move", SEAT), "turn": ("turn", INT), "reshuffles": ("reshuffles", INT),
    "scores": ("scores", INTS), "out": ("out", FLAGS),
    "results": ("results", tuple_of(Field(DealResult.to_json, DealResult.from_json))),
}, check)
