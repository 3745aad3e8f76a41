"""What one seat sees of a Queen of Spades table, as JSON-ready data; the state's JSON.

``observe(state, seat)`` holds what that seat would know at a real table where it
remembers every card played: its own hand, the current trick (who played what), the
led suit, the trick number, every finished trick of this deal (all were played face
up) and so every card played, the tricks each seat took, who took the Q♠ trick, the
suits each seat has shown it lacks, the match scores, every finished deal with its
points, and the last finished deal in full: the hands as dealt (all of them were
played face up by then) and the scoring rule that applied, in words. Never another
hand of the deal in play, nor the seed (``reveal=True`` adds every hand, for AI-only
matches). The spectator (``seat=None``) sees the same without a hand.
"""
from __future__ import annotations

from collections import Counter

from engine.base import ActionSyntaxError, StateError
from engine.codec import FLAG, FLAGS, INT, INTS, RULES, SEAT, Field, StateCodec, tuple_of
from engine.queen_of_spades.cards import CARD_IDS, DECK_SIZE, QUEEN_OF_SPADES, SUITS, ids, parse_card
from engine.queen_of_spades.rules import (
    ALL_TRICKS, PLAYERS, QUEEN_AND_LAST, RULE_NAMES, DealResult, State, Table,
)


def card_code(text) -> int:
    try:
        return parse_card(text)
    except ActionSyntaxError as err:
        raise StateError(err.reason) from None


def _plays_json(plays) -> list[dict]:
    return [{"seat": seat, "card": CARD_IDS[c]} for seat, c in plays]


def _seats(seats) -> str:
    names = [f"seat {s}" for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def explain(r: DealResult) -> str:
    """The scoring rule that applied to a finished deal, in words."""
    if r.rule == ALL_TRICKS:
        taker = r.tricks.index(8)
        return (f"Seat {taker} took all 8 tricks: +3 to seat {taker}, −1 to each other player.")
    if r.rule == QUEEN_AND_LAST:
        return (f"Seat {r.queen_by} took both the Q♠ trick (trick {r.queen_trick}) and the last trick: "
                f"−3 to seat {r.queen_by}, +1 to each other player.")
    others = [s for s in range(PLAYERS) if s not in (r.queen_by, r.last_by)]
    return (f"Seat {r.queen_by} took the Q♠ trick (trick {r.queen_trick}): −1; seat {r.last_by} took the last "
            f"trick: −1; {_seats(others)} took neither: +1 each.")


def result_json(r: DealResult) -> dict:
    return {"deal": r.deal + 1, "dealer": r.dealer, "hands": [ids(h) for h in r.hands],
            "tricks": list(r.tricks), "queen_by": r.queen_by, "queen_trick": r.queen_trick,
            "last_by": r.last_by, "rule": r.rule, "points": list(r.points), "scores": list(r.scores),
            "explain": explain(r)}


def result_from_json(d: dict) -> DealResult:
    if d["rule"] not in RULE_NAMES:
        raise StateError(f"unknown scoring rule {d['rule']!r}")
    return DealResult(int(d["deal"]) - 1, int(d["dealer"]), tuple(tuple(card_code(c) for c in h) for h in d["hands"]),
                      tuple(map(int, d["tricks"])), int(d["queen_by"]), int(d["queen_trick"]), int(d["last_by"]),
                      d["rule"], tuple(map(int, d["points"])), tuple(map(int, d["scores"])))


def played_cards(state: State) -> list[int]:
    """Every card played this deal, in the order played."""
    return [c for _, plays in state.taken for _, c in plays] + [c for _, c in state.trick]


def winners(state: State) -> list[int]:
    """When the match is over: the seats with the most points (of the deal for a single deal,
    of the match otherwise)."""
    if state.to_move is not None:
        return []
    points = state.results[-1].points if state.single else state.scores
    best = max(points)
    return [p for p in range(PLAYERS) if points[p] == best]


def observe(state: State, seat: int | None, reveal: bool = False) -> dict:
    over = state.to_move is None
    mine = seat is not None and seat == state.to_move
    trick = state.trick
    view: dict = {
        "game": "queen_of_spades",
        "seat": seat,
        "players": PLAYERS,
        "options": state.rules.to_json(),
        "single_deal": state.single,
        "deal": state.deal + 1,
        "deals": 1 if state.single else state.rules.deals,
        "dealer": state.dealer,
        "hand": None if seat is None else ids(state.hands[seat]),
        "hand_counts": [len(h) for h in state.hands],
        "trick": _plays_json(trick),
        "led": SUITS[trick[0][1] >> 3] if trick else None,
        "trick_number": min(len(state.taken) + 1, 8),
        "leader": state.leader,
        "tricks_done": [{"number": k, "winner": w, "plays": _plays_json(plays),
                         "queen": any(c == QUEEN_OF_SPADES for _, c in plays)}
                        for k, (w, plays) in enumerate(state.taken, 1)],
        "played": [CARD_IDS[c] for c in played_cards(state)],
        "tricks": list(state.tricks),
        "queen_by": state.queen_by,
        "voids": ["".join(SUITS[s] for s in range(4) if v >> s & 1) for v in state.voids],
        "to_move": state.to_move,
        "scores": list(state.scores),
        "history": [{"deal": r.deal + 1, "points": list(r.points), "scores": list(r.scores), "rule": r.rule}
                    for r in state.results],
        "last_deal": result_json(state.results[-1]) if state.results else None,
        "over": over,
        "winners": winners(state) if over else None,
        "legal_actions": ["play:" + CARD_IDS[c] for c in Table.reader(state).legal()] if mine else [],
    }
    if reveal:
        view["hands"] = [ids(h) for h in state.hands]
    return view


def _plays(items) -> tuple[tuple[int, int], ...]:
    return tuple((int(p["seat"]), card_code(p["card"])) for p in items)


def played_mask(trick, taken) -> int:
    """The bit mask of the cards in the finished tricks ``taken`` and the current ``trick``."""
    played = 0
    for _, plays in (*taken, (None, trick)):
        for _, c in plays:
            played |= 1 << c
    return played


HANDS = Field(lambda hands: [ids(h) for h in hands],
              lambda data: tuple(tuple(sorted(card_code(c) for c in h)) for h in data))
PLAYS = Field(_plays_json, _plays)
TAKEN = Field(lambda taken: [{"winner": w, "plays": _plays_json(plays)} for w, plays in taken],
              lambda data: tuple((int(t["winner"]), _plays(t["plays"])) for t in data))


def check(state: State) -> None:
    """Every card in one place, four hands and scores; a StateError otherwise."""
    held = Counter(c for h in state.hands for c in h) + Counter(played_cards(state))
    if held != Counter(range(DECK_SIZE)):
        raise StateError("a Queen of Spades state must hold each of the 32 cards exactly once")
    if len(state.hands) != PLAYERS or len(state.scores) != PLAYERS or len(state.trick) >= PLAYERS:
        raise StateError("a Queen of Spades state has four hands and scores and at most three cards on the trick")
    if state.to_move is not None and not 0 <= state.to_move < PLAYERS:
        raise StateError("bad seat to move in a Queen of Spades state")


STATE_JSON = StateCodec(State, {
    "seed": ("seed", INT), "rules": RULES, "single": ("single_deal", FLAG), "deal": ("deal", INT),
    "dealer": ("dealer", INT), "dealt": ("dealt", HANDS), "hands": ("hands", HANDS), "trick": ("trick", PLAYS),
    "taken": ("taken", TAKEN), "leader": ("leader", INT), "to_move": ("to_move", SEAT),
    "played": None, "tricks": ("tricks", INTS), "queen_by": ("queen_by", SEAT), "last_by": ("last_by", SEAT),
    "voids": ("voids", INTS), "no_queen": ("no_queen", FLAGS),
    "scores": ("scores", INTS), "results": ("results", tuple_of(Field(result_json, result_from_json))),
}, check)
"""The state's JSON: ``played`` is left out (``played_mask`` of the tricks)."""
