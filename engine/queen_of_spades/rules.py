"""The rules of Queen of Spades (docs/rules.md, section 5) on a mutable ``Table``: the one implementation.

``QueenOfSpades.apply`` thaws its immutable ``State`` into a ``Table``, plays one
card and freezes the result; the training loop, the search level and the
benchmark drive a ``Table`` directly (``legal()``, ``step(card)``, ``copy()``), so
everything plays by exactly the same rules. An action's code is its card.

Conventions (where docs/rules.md leaves a choice open):

- Four seats 0..3; "left" is the next higher seat, and play goes that way.
- The first deal of a match (and every single deal) is dealt by seat 3, so seat 0
  leads the first trick; the dealer moves one seat left each deal and the seat left
  of the dealer leads. Eight cards each from a deck shuffled from the match seed
  (``chance(seed, "deal", k)``): the first eight to the seat left of the dealer, and
  so on round the table. Hands are kept sorted (card order of ``cards``).
- Scoring (rule 3) is checked in the order written: all eight tricks; else the Q♠
  trick and the last trick by one player; else the split. ``RULE_NAMES`` names the
  three cases.
- ``score_limit`` (0 = off): the match ends after the first deal that leaves some
  player's total at +limit or beyond, or at −limit or beyond; otherwise after
  ``deals`` deals.
- Public inferences kept for ``resample_hidden``: ``voids[seat]`` (bit per suit) marks
  a suit that seat failed to follow, so it holds none of it; with ``forced_queen``,
  ``no_queen[seat]`` marks a seat that failed to follow without playing the Q♠
  while it was still out, so it does not hold it.

Integers throughout: cards 0..31 (``engine.queen_of_spades.cards``), seats 0..3,
``played`` a 32-bit mask (bit ``card``) of every card played this deal (finished
tricks and the current one). ``queen_by``/``last_by`` are a seat or None.
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from typing import NamedTuple

from engine import kernel
from engine.base import chance
from engine.kernel import shuffled
from engine.queen_of_spades.cards import DECK_SIZE, HAND_SIZE, QUEEN_OF_SPADES

PLAYERS = 4
TRICKS = 8
ALL_TRICKS, QUEEN_AND_LAST, SPLIT = "all_tricks", "queen_and_last", "split"
RULE_NAMES = (ALL_TRICKS, QUEEN_AND_LAST, SPLIT)
_QS = QUEEN_OF_SPADES
_QS_BIT = 1 << QUEEN_OF_SPADES
DECK = tuple(range(DECK_SIZE))


@dataclass(frozen=True)
class Rules:
    """The rule options of one match (see ``QueenOfSpades.options``)."""

    deals: int = 8
    forced_queen: bool = False
    score_limit: int = 0

    @staticmethod
    def of(players: int, options: dict) -> Rules:
        """``options`` resolved by ``QueenOfSpades.resolve_options`` (four players)."""
        return Rules(**options)

    def to_json(self) -> dict:
        return {"deals": self.deals, "forced_queen": self.forced_queen, "score_limit": self.score_limit}


class DealResult(NamedTuple):
    """A finished deal: the hands as dealt, who took what, the rule that applied, the points."""

    deal: int  # from 0
    dealer: int
    hands: tuple[tuple[int, ...], ...]  # as dealt, sorted
    tricks: tuple[int, ...]  # tricks taken per seat
    queen_by: int
    queen_trick: int  # 1..8
    last_by: int
    rule: str  # one of RULE_NAMES
    points: tuple[int, ...]
    scores: tuple[int, ...]  # match totals after this deal


class State(NamedTuple):
    seed: int
    rules: Rules
    single: bool  # the match is this one deal (``new_deal``)
    deal: int  # current (or last) deal, from 0
    dealer: int
    dealt: tuple[tuple[int, ...], ...]  # the hands as dealt this deal (hidden until it ends)
    hands: tuple[tuple[int, ...], ...]
    trick: tuple[tuple[int, int], ...]  # (seat, card) played to the current trick, in order
    taken: tuple[tuple[int, tuple[tuple[int, int], ...]], ...]  # finished tricks: (winner, plays)
    leader: int
    to_move: int | None  # None when the match is over
    played: int  # bit mask of the cards played this deal
    tricks: tuple[int, ...]
    queen_by: int | None
    last_by: int | None
    voids: tuple[int, ...]  # per seat, bit per suit it failed to follow
    no_queen: tuple[bool, ...]  # per seat, known not to hold the Q♠ (forced_queen only)
    scores: tuple[int, ...]  # match totals
    results: tuple[DealResult, ...]  # every finished deal, in order

    def current_player(self) -> int | None:
        return self.to_move

    def is_over(self) -> bool:
        return self.to_move is None


def deal_points(tricks, queen_by: int, last_by: int) -> tuple[str, list[int]]:
    """Rule 3, in its order: (the rule that applied, points per seat); always sums to zero."""
    for seat in range(PLAYERS):
        if tricks[seat] == TRICKS:
            return ALL_TRICKS, [3 if p == seat else -1 for p in range(PLAYERS)]
    if queen_by == last_by:
        return QUEEN_AND_LAST, [-3 if p == queen_by else 1 for p in range(PLAYERS)]
    return SPLIT, [-1 if p == queen_by or p == last_by else 1 for p in range(PLAYERS)]


class Table(kernel.Table[State]):
    """A mutable Queen of Spades table (``engine.kernel.Table``): ``legal()`` lists cards,
    ``step(card)`` plays one. Its values are those of ``State``, as lists where they change, and
    four it keeps for speed: ``led`` (the suit led, -1 before the trick's first card),
    ``tricks_done``, ``queen_trick`` (the trick that held the Q♠, 0 before), and ``forced``
    (the rules' ``forced_queen``)."""

    seed: int
    rules: Rules
    single: bool
    deal: int
    dealer: int
    dealt: tuple[tuple[int, ...], ...]
    hands: list[list[int]]
    trick: list[tuple[int, int]]
    taken: list[tuple[int, tuple[tuple[int, int], ...]]]
    leader: int
    to_move: int | None
    played: int
    tricks: list[int]
    queen_by: int | None
    last_by: int | None
    voids: list[int]
    no_queen: list[bool]
    scores: list[int]
    results: list[DealResult]
    led: int
    tricks_done: int
    queen_trick: int
    forced: bool

    # ----- making and converting tables -----
    @classmethod
    def new(cls, players: int = PLAYERS, seed: int = 0, rules: Rules = Rules(), single: bool = True,
            deck: list[int] | None = None) -> Table:
        """A match (or, ``single``, one deal) at its first card. ``deck`` (32 cards, a
        permutation) replaces the first deal's shuffle from the seed."""
        t = cls()
        t.seed, t.rules, t.single = seed, rules, single
        t.deal, t.dealer = 0, PLAYERS - 1
        t.scores = [0] * PLAYERS
        t.results = []
        t.start_deal(deck)
        t.derive()
        return t

    def start_deal(self, deck: list[int] | None = None) -> None:
        if deck is None:
            deck = shuffled(DECK, chance(self.seed, "deal", self.deal))
        dealer = self.dealer
        first = (dealer + 1) % PLAYERS
        hands: list[list[int]] = [[]] * PLAYERS
        for k in range(PLAYERS):
            hands[(first + k) % PLAYERS] = sorted(deck[HAND_SIZE * k:HAND_SIZE * (k + 1)])
        self.hands = hands
        self.dealt = tuple(map(tuple, hands))
        self.trick, self.led, self.taken, self.tricks_done = [], -1, [], 0
        self.leader = self.to_move = first
        self.played = 0
        self.tricks = [0] * PLAYERS
        self.queen_by = self.last_by = None
        self.queen_trick = 0
        self.voids = [0] * PLAYERS
        self.no_queen = [False] * PLAYERS

    def derive(self) -> None:
        self.led = self.trick[0][1] >> 3 if self.trick else -1
        self.tricks_done = len(self.taken)
        self.queen_trick = next((k for k, (_, plays) in enumerate(self.taken, 1) if any(c == _QS for _, c in plays)), 0)
        self.forced = self.rules.forced_queen

    @classmethod
    def reader(cls, s: State) -> Table:
        """A table that only answers ``legal()``, sharing ``s``'s hands."""
        t = cls()
        t.to_move, t.hands, t.trick, t.forced = s.to_move, s.hands, s.trick, s.rules.forced_queen  # type: ignore[assignment]
        t.led = s.trick[0][1] >> 3 if s.trick else -1
        return t

    # ----- what may be played -----
    def legal(self) -> list[int]:
        """The cards the seat to move may play, in card order (empty when the match is over)."""
        if self.to_move is None:
            return []
        hand = self.hands[self.to_move]
        if not self.trick:
            return hand[:]
        low = self.led << 3  # the hand is sorted: the led suit's cards are hand[i:j]
        i = bisect_left(hand, low)
        j = bisect_left(hand, low + 8, i)
        if i < j:
            return hand[i:j]
        if self.forced and _QS in hand:
            return [_QS]
        return hand[:]

    # ----- playing -----
    def step(self, card: int) -> None:
        """The seat to move plays ``card`` (which must be legal)."""
        p = self.to_move
        assert p is not None
        self.hands[p].remove(card)
        self.played |= 1 << card
        trick = self.trick
        trick.append((p, card))
        n = len(trick)
        if n == 1:
            self.led = card >> 3
            self.to_move = (p + 1) & 3
            return
        if card >> 3 != self.led:
            self.voids[p] |= 1 << self.led
            if self.forced and card != _QS and not self.played & _QS_BIT:
                self.no_queen[p] = True
        if n < PLAYERS:
            self.to_move = (p + 1) & 3
            return
        # the trick is complete: the highest card of the led suit (lowest index) wins
        (winner, best), (s1, c1), (s2, c2), (s3, c3) = trick
        led = self.led
        if c1 < best and c1 >> 3 == led:
            winner, best = s1, c1
        if c2 < best and c2 >> 3 == led:
            winner, best = s2, c2
        if c3 < best and c3 >> 3 == led:
            winner = s3
        self.tricks[winner] += 1
        self.taken.append((winner, tuple(trick)))
        self.tricks_done += 1
        if self.queen_by is None and self.played & _QS_BIT:  # the Q♠ is in this trick
            self.queen_by, self.queen_trick = winner, self.tricks_done
        self.trick = []
        self.leader = self.to_move = winner
        if self.tricks_done == TRICKS:
            self.last_by = winner
            self.end_deal()

    def deal_points(self) -> list[int]:
        """Points of the deal just finished (on a single deal: once it is over)."""
        if self.tricks_done == TRICKS:
            return self.scoring()[3]
        return list(self.results[-1].points)

    def scoring(self) -> tuple[int, int, str, list[int]]:
        """The eight tricks played: who took the Q♠ trick and the last, the rule, the points."""
        queen_by, last_by = self.queen_by, self.last_by
        assert queen_by is not None and last_by is not None
        return (queen_by, last_by, *deal_points(self.tricks, queen_by, last_by))

    def end_deal(self) -> None:
        queen_by, last_by, rule, points = self.scoring()
        scores = self.scores = [s + d for s, d in zip(self.scores, points)]
        self.results.append(DealResult(self.deal, self.dealer, self.dealt, tuple(self.tricks), queen_by,
                                       self.queen_trick, last_by, rule, tuple(points), tuple(scores)))
        limit = self.rules.score_limit
        if self.single or self.deal + 1 >= self.rules.deals or (limit and max(map(abs, scores)) >= limit):
            self.to_move = None
            return
        self.deal += 1
        self.dealer = (self.dealer + 1) % PLAYERS
        self.start_deal()
