"""What one seat sees of a Rack-O table, as JSON-ready data; the state's JSON.

A seat's view (``observe``): its own rack (slot 1 first), the card it holds after
drawing, the whole discard pile (every card in it went down face up), the deck's
size, the cards everybody saw each seat take from the discard pile (``known``:
[slot, card] pairs, slot 1 = lowest), turns, scores, the public log, and after a
deal every rack. Never the deck order, another seat's hidden rack cards or the seed.
"""
from __future__ import annotations

from engine.base import StateError
from engine.kernel import INT, EventCodec, Field
from engine.racko.actions import ACTIONS
from engine.racko.cards import all_cards
from engine.racko.rules import DRAW, FROM_NONE, OVER, PHASES, SOURCES, Result, Rules, State, Table

SOURCE = Field(SOURCES.__getitem__, SOURCES.index)
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
        "last_result": state.last_result.to_json(rules) if state.last_result else None,
        "over": over,
        "winners": winners(state) if over else None,
        "legal_actions": [ACTIONS[a].id for a in Table.reader(state).legal()] if mine else [],
    }
    if reveal or over:
        view["racks"] = [list(r) for r in state.racks]
    return view


# ----- the state's JSON -----
def to_json(state: State) -> dict:
    return {
        "seed": state.seed, "players": state.players, "options": state.rules.to_json(),
        "single_deal": state.single, "deal": state.deal, "dealer": state.dealer,
        "racks": [list(r) for r in state.racks], "deck": list(state.deck), "discard": list(state.discard),
        "known": [list(k) for k in state.known], "dealt": [list(d) for d in state.dealt],
        "placed": [list(p) for p in state.placed], "to_move": state.to_move, "phase": PHASES[state.phase],
        "drawn": state.drawn, "drawn_from": SOURCES[state.source], "turn": state.turn,
        "turns": list(state.turns), "reshuffles": state.reshuffles, "scores": list(state.scores),
        "winner": state.winner, "log": [EVENTS.to_json(e) for e in state.log],
        "last_result": state.last_result.to_json(state.rules) if state.last_result else None,
    }


def _ints(values) -> tuple[int, ...]:
    return tuple(int(x) for x in values)


def from_json(data: dict, rules: Rules) -> State:
    """The state ``to_json`` wrote, for a match of ``rules``."""
    if data["phase"] not in PHASES or data["drawn_from"] not in SOURCES:
        raise StateError(f"unknown phase {data['phase']!r} or source {data['drawn_from']!r}")
    last = data["last_result"]
    return State(
        seed=int(data["seed"]), players=int(data["players"]), rules=rules, single=bool(data["single_deal"]),
        deal=int(data["deal"]), dealer=int(data["dealer"]),
        racks=tuple(_ints(r) for r in data["racks"]), deck=_ints(data["deck"]),
        discard=_ints(data["discard"]), known=tuple(_ints(k) for k in data["known"]),
        dealt=tuple(_ints(d) for d in data["dealt"]), placed=tuple(_ints(p) for p in data["placed"]),
        to_move=int(data["to_move"]), phase=PHASES.index(data["phase"]), drawn=int(data["drawn"]),
        source=SOURCES.index(data["drawn_from"]), turn=int(data["turn"]), turns=_ints(data["turns"]),
        reshuffles=int(data["reshuffles"]), scores=_ints(data["scores"]), winner=int(data["winner"]),
        log=tuple(EVENTS.from_json(e) for e in data["log"]),
        last_result=None if last is None else Result.from_json(last))


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
