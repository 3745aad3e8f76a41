"""What one seat sees of an Uno table, as JSON-ready data, and the way back; the state's JSON.

``observe(state, seat)`` holds only what that seat would see at a real table:
its own hand, the discard pile (every card in it was played or turned up in the
open), the colour in force, the direction, how many cards each player holds,
how many are left to draw, scores, whose turn it is, the public log, and, on its
own turn, its legal actions. Never the seed, the draw pile's order or another
hand (other hands are shown only when a deal has ended, as at a real table when
it is scored, or with ``reveal=True`` for AI-only matches).

``determinise(view, rng)`` goes the other way: a ``State`` the seat cannot tell
from the real one, with every unseen card dealt at random into the unseen places.
Search agents use it; ``observe(determinise(view), seat) == view`` is tested.
"""
from __future__ import annotations

import random
from collections import Counter

from engine.base import GameError, StateError
from engine.codec import BOOL, FLAG, INT, INTS, RULES, EventCodec, Field, StateCodec, choice, tuple_of
from engine.uno.actions import ACTIONS
from engine.uno.cards import CARD_IDS, COPIES, FULL_DECK
from engine.uno.rules import DRAWN, OVER, PHASES, PLAY, Rules, State, Table, wd4_allowed

COLOURS = "rygb"
CODE_OF_ID = {card_id: code for code, card_id in enumerate(CARD_IDS)}


def card_id(code: int) -> str:
    return CARD_IDS[code]


def colour_id(colour: int) -> str | None:
    return None if colour < 0 else COLOURS[colour]


def colour_code(letter: str | None) -> int:
    if letter is None:
        return -1
    if not isinstance(letter, str) or len(letter) != 1 or letter not in COLOURS:
        raise GameError(f"{letter!r} is not a colour letter (r, y, g, b)")
    return COLOURS.index(letter)


def card_code(text: str) -> int:
    try:
        return CODE_OF_ID[text]
    except (KeyError, TypeError):
        raise GameError(f"{text!r} is not an Uno card id") from None


CARD = Field(card_id, card_code)
CARDS = tuple_of(CARD)
COLOUR = Field(colour_id, colour_code)

EVENTS = EventCodec("Uno", {
    "deal": (("deal", INT), ("dealer", INT)),
    "turnup": (("card", CARD),),
    "returned": (("card", CARD),),
    "colour": (("seat", INT), ("colour", COLOUR)),
    "play": (("seat", INT), ("card", CARD), ("colour", COLOUR), ("uno", BOOL)),
    "draw": (("seat", INT), ("count", INT)),
    "pass": (("seat", INT),),
    "skip": (("seat", INT),),
    "reverse": (("direction", INT),),
    "penalty": (("seat", INT), ("count", INT)),
    "challenge": (("seat", INT), ("illegal", BOOL)),
    "catch": (("seat", INT), ("caught", INT)),
    "reshuffle": (("count", INT),),
    "out": (("seat", INT), ("points", INT)),
    "stalled": (("moves", INT),),
})
"""The log's events (``engine.uno.rules.Event``): ``("play", 1, 7, 0, 0)`` is
``{"event": "play", "seat": 1, "card": "r7", "colour": "r", "uno": False}``."""


def sorted_ids(codes) -> list[str]:
    """Card ids in display order: by colour, then rank; wilds last."""
    return [card_id(c) for c in sorted(codes)]


def last_deal_json(last: tuple | None) -> dict | None:
    if last is None:
        return None
    deal, winner, points, hands = last
    return {"deal": deal, "winner": None if winner < 0 else winner, "points": points,
            "hands": [sorted_ids(h) for h in hands]}


def last_deal_from_json(data: dict | None) -> tuple | None:
    if data is None:
        return None
    winner = data["winner"]
    return (int(data["deal"]), -1 if winner is None else int(winner), int(data["points"]),
            tuple(tuple(card_code(c) for c in h) for h in data["hands"]))


def observe(state: State, seat: int | None, reveal: bool = False) -> dict:
    over = state.phase == OVER
    to_move = None if over else state.turn
    mine = seat is not None and seat == to_move
    hand = state.hands[seat] if seat is not None else ()
    view: dict = {
        "game": "uno",
        "seat": seat,
        "players": state.players,
        "options": state.rules.to_json(),
        "single_deal": state.single,
        "deal": state.deal,
        "dealer": state.dealer,
        "hand": sorted_ids(hand),
        "drawn": card_id(hand[-1]) if mine and state.phase == DRAWN else None,
        "hand_counts": [len(h) for h in state.hands],
        "top": card_id(state.discard[-1]),
        "discards": [CARD_IDS[c] for c in state.discard],
        "colour": colour_id(state.colour),
        "direction": state.direction,
        "draw_pile": len(state.pile),
        "to_move": to_move,
        "phase": PHASES[state.phase],
        "wd4_by": None if state.wd4_by < 0 else state.wd4_by,
        "previous_colour": colour_id(state.prev_colour),
        "uno_missed": None if state.uno_missed < 0 else state.uno_missed,
        "moves": state.moves,
        "scores": list(state.scores),
        "log": [EVENTS.to_json(e) for e in state.log],
        "last_deal": last_deal_json(state.last_deal),
        "over": over,
        "winners": winners(state) if over else None,
        "legal_actions": [ACTIONS[a].id for a in Table.reader(state).legal()] if mine else [],
    }
    if reveal or over:
        view["hands"] = [sorted_ids(h) for h in state.hands]
    return view


def winners(state: State) -> list[int]:
    """The deal's winner for a single deal; the seat with the most points for a match."""
    if state.phase != OVER:
        return []
    if state.single:
        return [] if state.winner < 0 else [state.winner]
    best = max(state.scores)
    return [p for p, s in enumerate(state.scores) if s == best]


def unseen_cards(hand, discard) -> list[int]:
    """Every card of the deck not in ``hand`` or ``discard`` (codes, as a multiset)."""
    counts = list(COPIES)
    for c in hand:
        counts[c] -= 1
    for c in discard:
        counts[c] -= 1
    if min(counts) < 0:
        raise GameError("the hand and discard pile hold more copies of a card than a deck has")
    return [code for code, k in enumerate(counts) for _ in range(k)]


def deal_unseen(hands: list[list[int]], hidden: list[int], pool: list[int], pile_size: int,
                rng: random.Random) -> list[int]:
    """Shuffle ``pool`` and refill the ``hidden`` seats' hands to their sizes; the rest
    is the new draw pile, which must have ``pile_size`` cards."""
    rng.shuffle(pool)
    at = 0
    for seat in hidden:
        size = len(hands[seat])
        hands[seat] = pool[at:at + size]
        at += size
    pile = pool[at:]
    if len(pile) != pile_size:
        raise GameError("hand counts and draw pile size do not add up to the unseen cards")
    return pile


def wd4_was_illegal(hand, prev_colour: int, discard, rules: Rules) -> bool:
    """Whether a pending Wild Draw Four (the top of ``discard``) broke rule 4 (``wd4_when``)."""
    return not wd4_allowed(hand, prev_colour, discard[-2], rules.wd4_when)


def determinise(view: dict, rng: random.Random, single: bool | None = None) -> State:
    """A state consistent with ``view`` (a seat's observation), unseen cards dealt at random.

    The hidden fact whether a pending Wild Draw Four was illegal is read from the
    sampled hand of its player. ``single`` overrides whether the match ends with this
    deal (search agents set it to look no further than the deal)."""
    seat = view["seat"]
    counts = view["hand_counts"]
    own = [card_code(c) for c in view["hand"]]
    if view.get("drawn") is not None:  # the drawn card is the newest in the hand
        own.remove(card_code(view["drawn"]))
        own.append(card_code(view["drawn"]))
    discard = [card_code(c) for c in view["discards"]]
    hands = [own if p == seat else [0] * counts[p] for p in range(view["players"])]
    hidden = [p for p in range(view["players"]) if p != seat]
    pile = deal_unseen(hands, hidden, unseen_cards(own, discard), view["draw_pile"], rng)
    phase = PHASES.index(view["phase"])
    wd4_by = -1 if view["wd4_by"] is None else view["wd4_by"]
    prev = colour_code(view["previous_colour"])
    rules = Rules(**view["options"])
    wd4_bad = wd4_by >= 0 and wd4_by != seat and wd4_was_illegal(hands[wd4_by], prev, discard, rules)
    to_move = view["to_move"]
    return State(
        seed=rng.getrandbits(48), players=view["players"], rules=rules,
        single=view["single_deal"] if single is None else single, deal=view["deal"],
        dealer=view["dealer"], hands=tuple(map(tuple, hands)), pile=tuple(pile), discard=tuple(discard),
        colour=colour_code(view["colour"]), direction=view["direction"],
        turn=-1 if to_move is None else to_move, phase=phase, wd4_by=wd4_by, wd4_bad=wd4_bad,
        prev_colour=prev, uno_missed=-1 if view["uno_missed"] is None else view["uno_missed"],
        moves=view["moves"], reshuffles=0, scores=tuple(view["scores"]),
        winner=view["winners"][0] if view["over"] and view["winners"] else -1,
        log=EVENTS.many.decode(view["log"]), last_deal=last_deal_from_json(view["last_deal"]))


# ----- the state's JSON -----
def check(state: State) -> None:
    """Cards conserved and the seats in range; a StateError otherwise."""
    held = Counter(c for h in state.hands for c in h) + Counter(state.pile) + Counter(state.discard)
    if held != Counter(FULL_DECK):
        raise StateError("an Uno state must hold each of the 108 cards exactly once")
    if len(state.hands) != state.players or len(state.scores) != state.players or not state.discard:
        raise StateError("an Uno state needs one hand and score per player and a discard pile")
    if state.direction not in (1, -1) or not (state.phase == OVER or 0 <= state.turn < state.players):
        raise StateError("bad direction or seat to move in an Uno state")
    if state.phase == PLAY and state.colour < 0:
        raise StateError("no colour in force in an Uno state at play")


STATE_JSON = StateCodec(State, {
    "seed": ("seed", INT), "players": ("players", INT), "rules": RULES, "single": ("single_deal", FLAG),
    "deal": ("deal", INT), "dealer": ("dealer", INT), "hands": ("hands", tuple_of(CARDS)), "pile": ("pile", CARDS),
    "discard": ("discard", CARDS), "colour": ("colour", COLOUR), "direction": ("direction", INT),
    "turn": ("turn", INT), "phase": ("phase", choice(PHASES)), "wd4_by": ("wd4_by", INT),
    "wd4_bad": ("wd4_bad", FLAG), "prev_colour": ("previous_colour", COLOUR), "uno_missed": ("uno_missed", INT),
    "moves": ("moves", INT), "reshuffles": ("reshuffles", INT), "scores": ("scores", INTS),
    "winner": ("winner", INT), "log": ("log", EVENTS.many),
    "last_deal": ("last_deal", Field(last_deal_json, last_deal_from_json)),
}, check)
