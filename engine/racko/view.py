"""What one seat sees of a Rack-O table, as JSON-ready data; the state's JSON.

A seat's view (``observe``): its own rack (slot 1 first), the card it holds after
drawing, the whole discard pile (every card in it went down face up), the deck's
size, the cards everybody saw each seat take from the discard pile (``known``:
[slot, card] pairs, slot 1 = lowest), turns, scores, the public log, and after a
deal every rack. Never the deck order, another seat's hidden rack cards or the seed.
"""
from __future__ import annotations

from engine.base import StateError
from engine.codec import FLAG, INT, INT_ROWS, INTS, RULES, EventCodec, Field, StateCodec, choice
from engine.racko.actions import ACTIONS
from engine.racko.cards import all_cards
from engine.racko.rules import DRAW, FROM_NONE, OVER, PHASES, SOURCES, Result, State, Table

SOURCE = choice(SOURCES)
SEEN_CARD = Field(lambda card: card or None, lambda card: 0 if card is None else int(card))
"""A card drawn or placed: 0 (None in JSON) when it came from the deck, which nobody saw."""

EVENTS = EventCodec("Rack-O", {
    "deal": (("deal", INT), ("dealer", INT)),
    "turnup": (("card", INT),),
    "draw": (("seat", INT), ("source", SOURCE), ("card", SEEN_CARD)),
    "discard": (("seat", INT), ("card", INT)),
    "place": (("seat", INT), ("slot", INT), ("out", INT), ("card", SEEN_CARD)),
    "reshuffle": (("count", INT),),
    "racko": (("seat", INT), ("points", INT)),
    "stalled": (("turns", INT),),
})
"""The log's events (``engine.racko.rules.Event``): ``("place", 1, 3, 27, 0)`` is
``{"event": "place", "seat": 1, "slot": 3, "out": 27, "card": None}``."""


def winners(state: State) -> list[int]:
    """A single deal: the seat that went Rack-O (none if the deal hit max_turns).
    A match: the highest score (every seat sharing it)."""
    if state.phase != OVER:
        return []
    if state.single:
        return [] if state.winner < 0 else [state.winner]
    best = max(state.scores)
    return [p for p, s in enumerate(state.scores) if s == best]


def observe(state: State, player: int | None, reveal: bool = False) -> dict:
    over = state.phase == OVER
    to_move = None if over else state.to_move
    mine = player is not None and player == to_move
    holding = mine and state.source != FROM_NONE
    rules = state.rules
    view = {
        "game": "racko",
        "seat": player,
        "players": state.players,
        "options": rules.to_json(),
        "single_deal": state.single,
        "deal": state.deal,
        "dealer": state.dealer,
        "turn": state.turn,
        "turns": list(state.turns),
        "to_move": to_move,
        "phase": PHASES[state.phase],
        "rack": None if player is None else list(state.racks[player]),
        "drawn": state.drawn if holding else None,
        "drawn_from": SOURCES[state.source],
        "discard_top": state.discard[-1] if state.discard else None,
        "discard_pile": list(state.discard),
        "deck_size": len(state.deck),
        "known": [[[k + 1, c] for k, c in enumerate(known) if c] for known in state.known],
        "dealt": None if player is None else list(state.dealt[player]),
        "placed": [list(p) for p in state.placed],
        "scores": list(state.scores),
        "log": [EVENTS.to_json(e) for e in state.log],
        "last_result": state.last_result.to_json() if state.last_result else None,
        "over": over,
        "winners": winners(state) if over else None,
        "legal_actions": [ACTIONS[a].id for a in Table.reader(state).legal()] if mine else [],
    }
    if reveal or over:
        view["racks"] = [list(r) for r in state.racks]
    return view


# ----- the state's JSON -----
def check(state: State) -> None:
    """Cards conserved, racks of the right size, the seat to move in range; a StateError otherwise."""
    r, n = state.rules.rack_size, state.players
    cards = [c for rack in state.racks for c in rack] + list(state.deck) + list(state.discard)
    if state.drawn:
        cards.append(state.drawn)
    if sorted(cards) != list(all_cards(state.rules.max_card)):
        raise StateError("a Rack-O state must hold each card 1..max_card exactly once")
    if len(state.racks) != n or any(len(rack) != r for rack in state.racks) or len(state.known) != n \
            or any(len(k) != r for k in state.known) or len(state.scores) != n or len(state.turns) != n \
            or len(state.dealt) != n or any(len(d) != r for d in state.dealt) \
            or [len(p) for p in state.placed] != list(state.turns):
        raise StateError("a Rack-O state needs one rack, known row, turn count and score per seat")
    if state.phase != OVER:
        holding = state.source != FROM_NONE
        if not 0 <= state.to_move < n or (state.phase != DRAW) != holding or bool(state.drawn) != holding:
            raise StateError("bad seat to move or drawn card in a Rack-O state")


STATE_JSON = StateCodec(State, {
    "seed": ("seed", INT), "players": ("players", INT), "rules": RULES, "single": ("single_deal", FLAG),
    "deal": ("deal", INT), "dealer": ("dealer", INT), "racks": ("racks", INT_ROWS), "deck": ("deck", INTS),
    "discard": ("discard", INTS), "known": ("known", INT_ROWS), "dealt": ("dealt", INT_ROWS),
    "placed": ("placed", INT_ROWS), "to_move": ("to_move", INT), "phase": ("phase", choice(PHASES)),
    "drawn": ("drawn", INT), "source": ("drawn_from", choice(SOURCES)), "turn": ("turn", INT),
    "turns": ("turns", INTS), "reshuffles": ("reshuffles", INT), "scores": ("scores", INTS),
    "winner": ("winner", INT), "log": ("log", EVENTS.many),
    "last_result": ("last_result", Field(lambda r: None if r is None else r.to_json(),
                                         lambda data: None if data is None else Result.from_json(data))),
}, check)
