"""Yaniv (docs/rules.md, section 4): the state, the scoring of a call, and the Game.

How a deal goes: every player still in gets ``hand_size`` cards, one card is
turned up as the first discard, the rest is the stock. On a turn the player to
move either calls Yaniv (hand total at most ``yaniv_limit``) or throws one group
and draws one card: the top of the stock, or a takeable card of the group the
previous player threw (``engine.yaniv.groups``). When a draw empties the stock,
the discard pile except its top group is shuffled into a new stock (that pile
holds at least the group drawn past, so the stock is never empty at a turn).

A call shows all hands: a caller with the strictly lowest total scores 0 and
everybody else adds their total; otherwise it is Assaf: the caller adds their
total + ``assaf_penalty``, the player(s) with the lowest total add 0, the rest add
their totals. In a match, a score landing exactly on a positive multiple of 50
after points were added is reduced by 50 (``halving``), a score above
``elimination`` is out, and the last player in wins. The first player of the
first deal is drawn from the seed; each later deal starts with the previous
deal's winner (after an Assaf with several lowest players, the first of them
after the caller).

States keep cards as indices 0-53 (``engine.yaniv.cards``) in plain tuples:
hands sorted by index, the stock drawn from its end, the discard pile as the
cards below (public, in the order they went down) and the top group in its
canonical order. ``known[seat]`` lists the cards of that hand everybody has seen
(taken from the discard pile), which ``resample_hidden`` keeps in place.

A seat's view (``observe``) holds its own hand, every card thrown (the top group
and the pile under it were all seen face up), the stock's size, the others' card
counts and known cards, the match scores, and after a call the hands shown.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cached_property

from engine.base import Game, GameType, IllegalActionError, Option, OptionError, chance
from engine.yaniv.actions import Action, CallYaniv, Discard, parse_action
from engine.yaniv.cards import CARD_IDS, CARDS, DECK_SIZE, FACE_VALUES, card_values, parse_card, sort_key
from engine.yaniv.groups import GroupError, arrange, describe, groups, kind, takeable


@dataclass(frozen=True)
class Rules:
    """The rule options of one match (see ``Yaniv.options``)."""

    face_values: str = "ten"
    hand_size: int = 5
    yaniv_limit: int = 7
    assaf_penalty: int = 30
    halving: bool = True
    elimination: int = 200
    values: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "values", card_values(self.face_values))

    def total(self, hand: tuple[int, ...]) -> int:
        values = self.values
        return sum(values[c] for c in hand)

    def to_json(self) -> dict:
        return {"face_values": self.face_values, "hand_size": self.hand_size,
                "yaniv_limit": self.yaniv_limit, "assaf_penalty": self.assaf_penalty,
                "halving": self.halving, "elimination": self.elimination}


@dataclass(frozen=True)
class DealResult:
    """How a deal ended: the call, every hand shown, and the scoring."""

    deal: int
    caller: int
    hands: tuple[tuple[int, ...], ...]  # as shown at the call (empty for players out)
    totals: tuple[int | None, ...]  # None for players out
    assaf: bool
    winners: tuple[int, ...]  # the seats that scored 0
    added: tuple[int, ...]
    halved: tuple[int, ...]  # seats whose score was reduced by 50
    eliminated: tuple[int, ...]  # seats out after this deal
    scores: tuple[int, ...]  # match scores after this deal

    @cached_property
    def entry(self) -> dict:
        """The deal as a view's ``history`` lists it: made once, shared by every view (never changed)."""
        return {"deal": self.deal + 1, "added": list(self.added), "scores": list(self.scores),
                "halved": list(self.halved), "eliminated": list(self.eliminated), "assaf": self.assaf,
                "caller": self.caller, "winners": list(self.winners)}

    def to_json(self) -> dict:
        return {"deal": self.deal, "caller": self.caller,
                "hands": [[CARD_IDS[c] for c in h] for h in self.hands], "totals": list(self.totals),
                "assaf": self.assaf, "winners": list(self.winners), "added": list(self.added),
                "halved": list(self.halved), "eliminated": list(self.eliminated),
                "scores": list(self.scores)}

    @staticmethod
    def from_json(data: dict) -> "DealResult":
        return DealResult(
            int(data["deal"]), int(data["caller"]),
            tuple(tuple(parse_card(c).index for c in h) for h in data["hands"]),
            tuple(None if t is None else int(t) for t in data["totals"]), bool(data["assaf"]),
            tuple(map(int, data["winners"])), tuple(map(int, data["added"])),
            tuple(map(int, data["halved"])), tuple(map(int, data["eliminated"])),
            tuple(map(int, data["scores"])))


@dataclass(frozen=True)
class State:
    rules: Rules
    seed: int
    players: int
    single_deal: bool  # the match ends after one deal (``new_deal``)
    deal: int  # number of the current (or last) deal, from 0
    hands: tuple[tuple[int, ...], ...]
    known: tuple[tuple[int, ...], ...]  # per seat: held cards everybody saw taken from the pile
    stock: tuple[int, ...]  # drawn from the end
    below: tuple[int, ...]  # the discard pile under the top group
    top: tuple[int, ...]  # the group the last player threw (or the turned-up card)
    top_by: int | None  # who threw ``top``; None for the turned-up card
    to_move: int | None  # None when the match is over
    turn: int  # turns taken in this deal
    reshuffles: int  # reshuffles in this deal
    scores: tuple[int, ...]  # match scores (penalty points)
    out: tuple[bool, ...]  # eliminated seats
    results: tuple[DealResult, ...] = ()  # every finished deal, in order


def _next_seat(out: tuple[bool, ...], seat: int) -> int:
    n = len(out)
    seat = (seat + 1) % n
    while out[seat]:
        seat = (seat + 1) % n
    return seat


def _deal(rules: Rules, seed: int, players: int, single: bool, deal: int, first: int,
          scores: tuple[int, ...], out: tuple[bool, ...], results: tuple[DealResult, ...]) -> State:
    deck = list(range(DECK_SIZE))
    chance(seed, "deal", deal).shuffle(deck)
    size = rules.hand_size
    hands: list[tuple[int, ...]] = []
    pos = 0
    for seat in range(players):
        if out[seat]:
            hands.append(())
        else:
            hands.append(tuple(sorted(deck[pos:pos + size])))
            pos += size
    return State(rules, seed, players, single, deal, tuple(hands), ((),) * players,
                 tuple(deck[pos + 1:]), (), (deck[pos],), None, first, 0, 0, scores, out, results)


class Yaniv(Game[State, Action]):
    name = "yaniv"
    title = "Yaniv"
    min_players = 2
    max_players = 5
    type = GameType(hidden_information=True)
    summary = ("Keep your hand low: throw a card, a set or a run and draw one; call Yaniv at 7 or "
               "less, but beware of Assaf. 54 cards with two jokers; matches to 200 with halving.")
    options = (
        Option("face_values", "ten", "what J, Q, K count: ten (10 each) or rank (11, 12, 13)",
               choices=FACE_VALUES, title="What J, Q and K count",
               choice_titles=("10 each", "11, 12 and 13")),
        Option("hand_size", 5, "cards dealt to each player", minimum=1, maximum=7, title="Cards dealt"),
        Option("yaniv_limit", 7, "Yaniv may be called with a hand totalling at most this", minimum=0,
               maximum=50, title="Highest hand that may call Yaniv"),
        Option("assaf_penalty", 30, "what a caller who is not strictly lowest adds on top of their hand",
               minimum=0, maximum=200, title="Assaf penalty"),
        Option("halving", True, "a match score landing exactly on a multiple of 50 drops by 50",
               title="Halving at 50, 100, 150…"),
        Option("elimination", 200, "a player whose match score goes above this is out", minimum=1,
               title="Out above this many points"),
    )
    lengths = {"one deal": {"elimination": 1}, "short match": {"elimination": 100},
               "full match": {"elimination": 200}}  # one deal: every loser holds more than 1 in practice

    # ----- starting -----
    def rules_of(self, options: dict | None) -> Rules:
        return Rules(**self.resolve_options(options))

    def new_match(self, players: int = 2, seed: int = 0, options: dict | None = None) -> State:
        return self._start(players, seed, options, single=False)

    def new_deal(self, players: int = 2, seed: int = 0, options: dict | None = None) -> State:
        return self._start(players, seed, options, single=True)

    def _start(self, players: int, seed: int, options: dict | None, single: bool) -> State:
        self.check_players(players)
        rules = self.rules_of(options)
        first = chance(seed, "first").randrange(players)
        return _deal(rules, seed, players, single, 0, first, (0,) * players, (False,) * players, ())

    # ----- the surface -----
    def current_player(self, state: State) -> int | None:
        return state.to_move

    def is_over(self, state: State) -> bool:
        return state.to_move is None

    def deal_of(self, state: State) -> int:
        return state.deal

    def can_call(self, state: State) -> bool:
        """True when the player to move may call Yaniv."""
        return state.to_move is not None and state.rules.total(state.hands[state.to_move]) <= state.rules.yaniv_limit

    def legal_actions(self, state: State) -> list[Action]:
        # Kept with the state, which never changes: a server's move asks up to four times (the
        # AI's observation and its choice, the person's view and its labels).
        known = state.__dict__.get("_legal")
        if known is None:
            known = state.__dict__["_legal"] = tuple(self._list_legal(state))
        return list(known)

    def _list_legal(self, state: State) -> list[Action]:
        seat = state.to_move
        if seat is None:
            return []
        out: list[Action] = [CallYaniv()] if self.can_call(state) else []
        sources: list = [None, *(CARDS[c] for c in takeable(state.top))]
        for group in groups(state.hands[seat]):
            drop = tuple(CARDS[c] for c in group)
            out.extend(Discard(drop, source) for source in sources)
        return out

    def illegal_reason(self, state: State, action: Action) -> str | None:
        """Why ``action`` is not legal now, or None when it is (the same answer as
        ``action in legal_actions(state)``, without listing them all)."""
        seat = state.to_move
        if seat is None:
            return "the match is over"
        if isinstance(action, CallYaniv):
            total = state.rules.total(state.hands[seat])
            if total > state.rules.yaniv_limit:
                return f"Yaniv needs a hand of {state.rules.yaniv_limit} or less; yours is {total}"
            return None
        if not isinstance(action, Discard):
            return "not a Yaniv action"
        hand = state.hands[seat]
        cards = action.indices
        missing = [CARD_IDS[c] for c in cards if c not in hand]
        if missing:
            return f"you do not hold {', '.join(missing)}"
        try:
            canonical = arrange(cards)
        except GroupError as err:
            return str(err)
        if canonical != cards:
            return "list the group as " + ",".join(CARD_IDS[c] for c in canonical)
        if action.take is None:
            return None
        allowed = takeable(state.top)
        if action.take.index not in allowed:
            where = "a run's first or last card" if kind(state.top) == "run" else "a card"
            return (f"you may take the stock or {where} of the group thrown last: "
                    + ", ".join(CARD_IDS[c] for c in allowed))
        return None

    def why_illegal(self, state: State, action: Action) -> str:
        return self.illegal_reason(state, action) or "it is not among the legal actions now"

    def apply(self, state: State, action: Action) -> State:
        reason = self.illegal_reason(state, action)
        if reason is not None:
            raise IllegalActionError(getattr(action, "id", str(action)), reason)
        if isinstance(action, CallYaniv):
            return self._call(state)
        return self._discard(state, action.indices, None if action.take is None else action.take.index)

    def _discard(self, state: State, drop: tuple[int, ...], take: int | None) -> State:
        seat = state.to_move
        stock = state.stock
        if take is None:
            drawn = stock[-1]
            stock = stock[:-1]
        else:
            drawn = take
        hand = tuple(sorted([c for c in state.hands[seat] if c not in drop] + [drawn]))
        kept = [c for c in state.known[seat] if c not in drop]
        if take is not None:
            kept.append(take)
        hands = state.hands[:seat] + (hand,) + state.hands[seat + 1:]
        known = state.known[:seat] + (tuple(sorted(kept)),) + state.known[seat + 1:]
        below = state.below + tuple(c for c in state.top if c != take)
        reshuffles = state.reshuffles
        if not stock:  # ``below`` holds at least the old top group
            pile = list(below)
            chance(state.seed, "deal", state.deal, "reshuffle", reshuffles).shuffle(pile)
            stock, below, reshuffles = tuple(pile), (), reshuffles + 1
        return State(state.rules, state.seed, state.players, state.single_deal, state.deal, hands, known,
                     stock, below, drop, seat, _next_seat(state.out, seat), state.turn + 1, reshuffles,
                     state.scores, state.out, state.results)

    def _call(self, state: State) -> State:
        rules, caller = state.rules, state.to_move
        totals = tuple(None if state.out[s] else rules.total(state.hands[s]) for s in range(state.players))
        mine = totals[caller]
        others = [t for s, t in enumerate(totals) if s != caller and t is not None]
        lowest = min(others)
        assaf = lowest <= mine
        if assaf:
            winners = tuple(s for s in _order_after(state.out, caller) if totals[s] == lowest)
        else:
            winners = (caller,)
        added, scores, halved, eliminated, out = [], [], [], [], list(state.out)
        for s, total in enumerate(totals):
            points = 0 if total is None or s in winners else total
            if assaf and s == caller:
                points += rules.assaf_penalty
            score = state.scores[s] + points
            if rules.halving and points > 0 and score % 50 == 0:
                score -= 50
                halved.append(s)
            if total is not None and score > rules.elimination:
                out[s] = True
                eliminated.append(s)
            added.append(points)
            scores.append(score)
        result = DealResult(state.deal, caller, state.hands, totals, assaf, winners, tuple(added),
                            tuple(halved), tuple(eliminated), tuple(scores))
        results = state.results + (result,)
        out_t = tuple(out)
        if state.single_deal or sum(not o for o in out_t) <= 1:
            return State(rules, state.seed, state.players, state.single_deal, state.deal, state.hands,
                         state.known, state.stock, state.below, state.top, state.top_by, None,
                         state.turn, state.reshuffles, tuple(scores), out_t, results)
        return _deal(rules, state.seed, state.players, False, state.deal + 1, winners[0],
                     tuple(scores), out_t, results)

    def scores(self, state: State) -> list[float]:
        """Higher is better: minus the penalty points (of the single deal for ``new_deal``,
        of the whole match otherwise)."""
        if state.single_deal and state.results:
            return [-float(p) for p in state.results[-1].added]
        return [-float(s) for s in state.scores]

    def winners(self, state: State) -> list[int]:
        if state.to_move is not None:
            return []
        if state.single_deal:
            return list(state.results[-1].winners)
        return [s for s in range(state.players) if not state.out[s]]

    # ----- views -----
    def observe(self, state: State, player: int | None, reveal: bool = False) -> dict:
        rules = state.rules
        over = state.to_move is None
        own = state.hands[player] if player is not None else None
        top = state.top
        view = {
            "game": self.name,
            "seat": player,
            "players": state.players,
            "options": rules.to_json(),
            "deal": state.deal + 1,
            "turn": state.turn,
            "to_move": state.to_move,
            "over": over,
            "hand": None if own is None else _ids(sorted(own, key=sort_key)),
            "hand_value": None if own is None else rules.total(own),
            "can_call_yaniv": (player is not None and player == state.to_move
                               and rules.total(own) <= rules.yaniv_limit),
            "hand_counts": [len(h) for h in state.hands],
            "known": [_ids(sorted(k, key=sort_key)) for k in state.known],
            "discard": {"cards": _ids(top), "kind": kind(top), "describe": describe(top),
                        "takeable": [] if over else _ids(takeable(top)), "by": state.top_by,
                        "under": _ids(state.below)},
            "stock": len(state.stock),
            "scores": list(state.scores),
            "eliminated": [s for s in range(state.players) if state.out[s]],
            "winners": self.winners(state) if over else None,
            "last_result": _result_view(state.results[-1], rules) if state.results else None,
            "history": [r.entry for r in state.results],
            "legal_actions": self.legal_ids(state) if player is not None and player == state.to_move else [],
        }
        if reveal:
            view["hands"] = [_ids(sorted(h, key=sort_key)) for h in state.hands]
            view["hand_values"] = [rules.total(h) for h in state.hands]
        return view

    def resample_hidden(self, state: State, player: int | None, rng: random.Random) -> State:
        """The others' cards that ``player`` has not seen taken from the pile, and the
        stock, dealt again at random (counts kept). Cards known from the pile stay."""
        if state.to_move is None:
            return state
        seats = [s for s in range(state.players) if s != player]
        hidden = {s: [c for c in state.hands[s] if c not in state.known[s]] for s in seats}
        pool = [c for s in seats for c in hidden[s]] + list(state.stock)
        rng.shuffle(pool)
        hands = list(state.hands)
        pos = 0
        for s in seats:
            n = len(hidden[s])
            hands[s] = tuple(sorted(state.known[s] + tuple(pool[pos:pos + n])))
            pos += n
        return State(state.rules, state.seed, state.players, state.single_deal, state.deal, tuple(hands),
                     state.known, tuple(pool[pos:]), state.below, state.top, state.top_by, state.to_move,
                     state.turn, state.reshuffles, state.scores, state.out, state.results)

    # ----- ids and labels -----
    def parse_action(self, action_id: str) -> Action:
        return parse_action(action_id)

    def action_label(self, action: Action) -> str:
        if isinstance(action, CallYaniv):
            return "Yaniv!"
        try:
            thrown = describe(arrange(action.indices))
        except GroupError:
            thrown = ", ".join(c.label() for c in action.drop)
        source = "the stock" if action.take is None else action.take.label()
        return f"throw {thrown}, take {source}"

    # ----- JSON -----
    def to_json(self, state: State) -> dict:
        return {
            "options": state.rules.to_json(), "seed": state.seed, "players": state.players,
            "single_deal": state.single_deal, "deal": state.deal,
            "hands": [_ids(h) for h in state.hands], "known": [_ids(k) for k in state.known],
            "stock": _ids(state.stock), "below": _ids(state.below), "top": _ids(state.top),
            "top_by": state.top_by, "to_move": state.to_move, "turn": state.turn,
            "reshuffles": state.reshuffles, "scores": list(state.scores), "out": list(state.out),
            "results": [r.to_json() for r in state.results],
        }

    def from_json(self, data: dict) -> State:
        try:
            rules = self.rules_of(data["options"])
            players = int(data["players"])
            self.check_players(players)
            state = State(
                rules, int(data["seed"]), players, bool(data["single_deal"]), int(data["deal"]),
                tuple(_cards(h) for h in data["hands"]), tuple(_cards(k) for k in data["known"]),
                _cards(data["stock"]), _cards(data["below"]), _cards(data["top"]),
                None if data["top_by"] is None else int(data["top_by"]),
                None if data["to_move"] is None else int(data["to_move"]), int(data["turn"]),
                int(data["reshuffles"]), tuple(map(int, data["scores"])), tuple(map(bool, data["out"])),
                tuple(DealResult.from_json(r) for r in data["results"]))
        except OptionError:
            raise
        except (KeyError, TypeError, ValueError) as err:
            raise OptionError(f"not a Yaniv state: {err}") from None
        placed = [c for h in state.hands for c in h] + list(state.stock + state.below + state.top)
        if sorted(placed) != list(range(DECK_SIZE)) or len(state.hands) != players:
            raise OptionError("not a Yaniv state: every card must be in exactly one place")
        if not state.top or (state.to_move is not None and not state.stock):
            raise OptionError("not a Yaniv state: a deal in play has a stock and a discard")
        return state


def _cards(ids) -> tuple[int, ...]:
    return tuple(parse_card(c).index for c in ids)


def _order_after(out: tuple[bool, ...], caller: int) -> list[int]:
    """Seats still in, in turn order starting after ``caller``."""
    n = len(out)
    return [(caller + k) % n for k in range(1, n) if not out[(caller + k) % n]]


def _ids(cards) -> list[str]:
    return [CARD_IDS[c] for c in cards]


def _result_view(result: DealResult, rules: Rules) -> dict:
    """A finished deal as the table shows it after the call, Assaf explained: made once per deal
    (a deal's result belongs to one match, so to one ``rules``) and shared by every view."""
    known = result.__dict__.get("_view")
    if known is None:
        known = result.__dict__["_view"] = _make_result_view(result, rules)
    return known


def _make_result_view(result: DealResult, rules: Rules) -> dict:
    view = result.to_json()
    view["deal"] = result.deal + 1
    view["hands"] = [_ids(sorted(h, key=sort_key)) for h in result.hands]
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
