"""The rules of Yaniv (docs/rules.md, section 4) on a mutable ``Table``: the one implementation of them.

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

The table keeps these immutable tuples and replaces them as play goes on, so
``thaw`` and ``freeze`` copy no cards. Deals and reshuffles use ``rng.shuffle``
(the games recorded before the kernel's ``shuffled`` were dealt so).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import NamedTuple

from engine import kernel
from engine.base import chance
from engine.yaniv.actions import CALL, TAKE, cards_of, mask_of
from engine.yaniv.cards import CARD_IDS, DECK_SIZE, card_values, parse_card
from engine.yaniv.groups import GroupError, arrange, groups, takeable


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

    @staticmethod
    def of(players: int, options: dict) -> Rules:
        """``options`` resolved by ``Yaniv.resolve_options`` (any number of players)."""
        return Rules(**options)

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
    def from_json(data: dict) -> DealResult:
        return DealResult(
            int(data["deal"]), int(data["caller"]),
            tuple(tuple(parse_card(c).index for c in h) for h in data["hands"]),
            tuple(None if t is None else int(t) for t in data["totals"]), bool(data["assaf"]),
            tuple(map(int, data["winners"])), tuple(map(int, data["added"])),
            tuple(map(int, data["halved"])), tuple(map(int, data["eliminated"])),
            tuple(map(int, data["scores"])))


class State(NamedTuple):
    """An immutable Yaniv position."""

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

    def current_player(self) -> int | None:
        return self.to_move

    def is_over(self) -> bool:
        return self.to_move is None


@lru_cache(maxsize=1 << 16)
def group_masks(hand: tuple[int, ...]) -> tuple[int, ...]:
    """The bits of every group ``hand`` can throw (``groups``), in order."""
    return tuple(mask_of(group) for group in groups(hand))


@lru_cache(maxsize=1 << 16)
def group_of(mask: int) -> tuple[int, ...] | None:
    """The group whose bits are ``mask``, in canonical order; None if those cards are no group."""
    try:
        return arrange(cards_of(mask))
    except GroupError:
        return None


def _next_seat(out: tuple[bool, ...], seat: int) -> int:
    n = len(out)
    seat = (seat + 1) % n
    while out[seat]:
        seat = (seat + 1) % n
    return seat


def _order_after(out: tuple[bool, ...], caller: int) -> list[int]:
    """Seats still in, in turn order starting after ``caller``."""
    n = len(out)
    return [(caller + k) % n for k in range(1, n) if not out[(caller + k) % n]]


class Table(kernel.Table[State]):
    """A mutable Yaniv table (``engine.kernel.Table``): ``legal()`` lists action codes
    (``engine.yaniv.actions``), ``step(code)`` plays one. Its values are those of ``State``."""

    rules: Rules
    seed: int
    players: int
    single_deal: bool
    deal: int
    hands: tuple[tuple[int, ...], ...]
    known: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    below: tuple[int, ...]
    top: tuple[int, ...]
    top_by: int | None
    to_move: int | None
    turn: int
    reshuffles: int
    scores: tuple[int, ...]  # replaced, never changed in place
    out: tuple[bool, ...]
    results: tuple[DealResult, ...]

    # ----- making and converting tables -----
    @classmethod
    def new(cls, players: int, seed: int, rules: Rules, single: bool) -> Table:
        """A match (or, ``single``, one deal) at its first turn; the first player is drawn from the seed."""
        t = cls()
        t.rules, t.seed, t.players, t.single_deal = rules, seed, players, single
        t.scores, t.out, t.results = (0,) * players, (False,) * players, ()
        t.start_deal(0, chance(seed, "first").randrange(players))
        return t

    # ----- the deal -----
    def start_deal(self, deal: int, first: int) -> None:
        """Shuffle, deal ``hand_size`` cards to every seat still in, turn up a card; ``first`` leads."""
        deck = list(range(DECK_SIZE))
        chance(self.seed, "deal", deal).shuffle(deck)
        size = self.rules.hand_size
        hands: list[tuple[int, ...]] = []
        pos = 0
        for seat in range(self.players):
            if self.out[seat]:
                hands.append(())
            else:
                hands.append(tuple(sorted(deck[pos:pos + size])))
                pos += size
        self.deal, self.hands, self.known = deal, tuple(hands), ((),) * self.players
        self.stock, self.below, self.top, self.top_by = tuple(deck[pos + 1:]), (), (deck[pos],), None
        self.to_move, self.turn, self.reshuffles = first, 0, 0

    # ----- what may be done -----
    def can_call(self) -> bool:
        """The player to move may call Yaniv."""
        return self.to_move is not None and self.rules.total(self.hands[self.to_move]) <= self.rules.yaniv_limit

    def legal(self) -> list[int]:
        """Calling Yaniv (when allowed), then each group the hand can throw with each source:
        the stock, then the takeable cards of the top group."""
        if self.to_move is None:
            return []
        out = [CALL] if self.can_call() else []
        sources = [0, *((c + 1) * TAKE for c in takeable(self.top))]
        for mask in group_masks(self.hands[self.to_move]):
            out.extend([mask + source for source in sources])
        return out

    def is_legal(self, code: int) -> bool:
        if self.to_move is None:
            return False
        if code == CALL:
            return self.can_call()
        take, mask = divmod(code, TAKE)
        if not 0 < mask < TAKE or mask & ~mask_of(self.hands[self.to_move]) or group_of(mask) is None:
            return False
        return not take or take - 1 in takeable(self.top)

    # ----- doing it -----
    def step(self, code: int) -> None:
        if code == CALL:
            self.call()
        else:
            take, mask = divmod(code, TAKE)
            group = group_of(mask)
            assert group is not None  # step trusts its caller: the code is legal
            self.discard(group, take - 1 if take else None)

    def discard(self, drop: tuple[int, ...], take: int | None) -> None:
        """The player to move throws ``drop`` and draws ``take`` (None: the top of the stock);
        an emptied stock is rebuilt from the pile under the new top group."""
        seat = self.to_move
        assert seat is not None
        stock = self.stock
        if take is None:
            drawn = stock[-1]
            stock = stock[:-1]
        else:
            drawn = take
        hand = tuple(sorted([c for c in self.hands[seat] if c not in drop] + [drawn]))
        kept = [c for c in self.known[seat] if c not in drop]
        if take is not None:
            kept.append(take)
        self.hands = self.hands[:seat] + (hand,) + self.hands[seat + 1:]
        self.known = self.known[:seat] + (tuple(sorted(kept)),) + self.known[seat + 1:]
        below = self.below + tuple(c for c in self.top if c != take)
        if not stock:  # ``below`` holds at least the old top group
            pile = list(below)
            chance(self.seed, "deal", self.deal, "reshuffle", self.reshuffles).shuffle(pile)
            stock, below = tuple(pile), ()
            self.reshuffles += 1
        self.stock, self.below, self.top, self.top_by = stock, below, drop, seat
        self.to_move = _next_seat(self.out, seat)
        self.turn += 1

    def call(self) -> None:
        """The player to move calls Yaniv: the deal is scored (Yaniv or Assaf, halving,
        elimination) and the match ends or the next deal starts."""
        rules, caller = self.rules, self.to_move
        assert caller is not None
        totals = tuple(None if self.out[s] else rules.total(self.hands[s]) for s in range(self.players))
        mine = totals[caller]
        assert mine is not None
        lowest = min(t for s, t in enumerate(totals) if s != caller and t is not None)
        assaf = lowest <= mine
        winners = tuple(s for s in _order_after(self.out, caller) if totals[s] == lowest) if assaf else (caller,)
        added, scores, halved, eliminated, out = [], [], [], [], list(self.out)
        for s, total in enumerate(totals):
            points = 0 if total is None or s in winners else total
            if assaf and s == caller:
                points += rules.assaf_penalty
            score = self.scores[s] + points
            if rules.halving and points > 0 and score % 50 == 0:
                score -= 50
                halved.append(s)
            if total is not None and score > rules.elimination:
                out[s] = True
                eliminated.append(s)
            added.append(points)
            scores.append(score)
        self.results += (DealResult(self.deal, caller, self.hands, totals, assaf, winners, tuple(added),
                                    tuple(halved), tuple(eliminated), tuple(scores)),)
        self.scores, self.out = tuple(scores), tuple(out)
        if self.single_deal or sum(not o for o in self.out) <= 1:
            self.to_move = None
        else:
            self.start_deal(self.deal + 1, winners[0])
