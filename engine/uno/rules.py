"""The rules of Uno (docs/rules.md, section 2) on a mutable table: the one implementation of them.

``Uno.apply`` copies its immutable ``State`` into a ``Table``, makes one ``step``
and freezes the result; search agents and the benchmark drive a ``Table``
directly, so they play by exactly the same rules without the copying.

Conventions (where docs/rules.md leaves a choice open):

- Seats are numbered 0..n-1; "left" is the next higher seat (direction +1).
  The first deal of a match (and every single deal) is dealt by seat n-1, so seat
  0 plays first; the dealer then moves one seat left each deal (with
  ``rotate_dealer: false``, the write-up's model, seat n-1 deals every deal, so seat
  0 leads every deal of a match).
- Seven cards are dealt one at a time starting at the dealer's left.
- After drawing, the player always decides: play the drawn card if it is playable,
  or pass. (So nobody else learns whether a drawn card was playable.) With
  ``draw_until_playable`` the player draws until a playable card comes or both
  piles are empty, then decides the same way.
- When neither pile has a card to draw, ``pass`` replaces ``draw``.
- Three options give the rules of the Uno write-up's own model (the preset
  ``writeup`` of ``Uno``): ``play_drawn: false`` (drawing ends the turn: the
  drawn card cannot be played, and there is no ``DRAWN`` phase), ``reverse_skips_two:
  false`` (with two players a Reverse only turns the direction, so the other player
  plays next) and ``wd4_when: "no_other_card"`` (a Wild Draw Four only when no other
  card in hand is playable, a Wild included; other Wild Draw Fours do not count).
  With ``wd4_challenge`` a challenge tests whichever condition ``wd4_when`` names.
  A Reverse turned up to start a two-player deal then only turns the direction too.
  Two more follow the write-up's model in who leads: ``rotate_dealer: false`` (seat
  0 leads every deal) and ``first_card_acts: false`` (a Skip, Reverse or Draw Two
  turned up to start is only the card to match: the first player keeps the lead).
- A player who goes out ends the deal at once: a last Draw Two or Wild Draw Four
  still makes the next player draw (rule 9), and no challenge is offered.
- With ``wd4_challenge`` the challenge's result is public; the challenged hand is
  not shown to the challenger (the outcome is all the rule needs).
- With ``uno_call`` a player who plays their second-last card may call UNO
  (``play:...:uno``). If they do not, the next player to act may ``catch`` them
  (they draw 2) before doing anything else; the chance passes with that action.
- A deal cut off by ``max_turns`` scores nothing; in a match the next deal starts.

Card codes and action codes are those of ``engine.uno.cards`` and
``engine.uno.actions``. Phases: ``PLAY`` (play or draw), ``DRAWN`` (play the card
just drawn or pass), ``CHALLENGED`` (challenge or accept a Wild Draw Four),
``OPENING`` (name the colour of a Wild turned up first), ``OVER``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from engine import kernel
from engine.base import chance
from engine.kernel import shuffled
from engine.uno.actions import (
    ACCEPT, CATCH, CHALLENGE, CHOOSE, DRAW, PASS, UNO_FLAG,
)
from engine.uno.cards import (
    COLOUR_OF, COLOURED, FULL_DECK, POINTS_OF, RANK_OF, WILD, WILD_DRAW_FOUR, Rank,
)

PLAY, DRAWN, CHALLENGED, OPENING, OVER = range(5)
PHASES = ("play", "drawn", "challenged", "opening", "over")
HAND_SIZE = 7

_SKIP, _REVERSE, _DRAW_TWO = int(Rank.SKIP), int(Rank.REVERSE), int(Rank.DRAW_TWO)
_WILD_PLAYS = (52, 53, 54, 55)
_WD4_PLAYS = (56, 57, 58, 59)


def _playable(colour: int, top_rank: int) -> frozenset[int]:
    """The card codes that may be played on a top card of ``top_rank`` in ``colour``."""
    return frozenset([WILD, WILD_DRAW_FOUR, *(code for code in range(COLOURED)
                                                if code // 13 == colour or code % 13 == top_rank)])


def _play_info(a: int) -> tuple[int, int, int, int]:
    uno = int(a >= UNO_FLAG)
    base = a - UNO_FLAG * uno
    card = base if base < COLOURED else WILD if base < 56 else WILD_DRAW_FOUR
    colour = base // 13 if base < COLOURED else (base - 52) % 4
    return card, colour, uno, RANK_OF[card]


PLAYS: tuple[tuple[int, int, int, int], ...] = tuple(_play_info(a) for a in range(DRAW))
"""``PLAYS[code]`` of a play action: (card, colour it leaves in force, 1 if UNO is called, rank)."""

PLAYABLE: tuple[frozenset[int], ...] = tuple(_playable(colour, rank) for colour in range(4) for rank in range(15))
"""``PLAYABLE[15 * colour + rank of the top card]``: the card codes that may be played
(``.intersection(hand)`` picks a hand's playable cards without a Python loop)."""


def wd4_allowed(hand, colour: int, top: int, when: str) -> bool:
    """Whether a Wild Draw Four may be played from ``hand`` (rule 4) on ``top`` with ``colour``
    in force: ``when`` "no_colour", if the hand holds no card of that colour; "no_other_card",
    if no card of the hand but Wild Draw Fours is playable."""
    if when == "no_colour":
        return not any(COLOUR_OF[c] == colour for c in hand)
    playable = PLAYABLE[15 * colour + RANK_OF[top]]
    return not any(c in playable for c in hand if c != WILD_DRAW_FOUR)


@dataclass(frozen=True)
class Rules:
    """The rule options of a match (see ``Uno.options``)."""

    opening_wild: str = "choose"
    wd4_challenge: bool = False
    wd4_when: str = "no_colour"  # or "no_other_card"
    draw_until_playable: bool = False
    play_drawn: bool = True
    reverse_skips_two: bool = True
    rotate_dealer: bool = True
    first_card_acts: bool = True
    uno_call: bool = False
    target_score: int = 500
    max_turns: int = 2000

    @staticmethod
    def of(players: int, options: dict) -> Rules:
        """``options`` resolved by ``Uno.resolve_options`` (any number of players)."""
        return Rules(**options)

    def to_json(self) -> dict:
        return dict(vars(self))  # every field is a plain value (dataclasses.asdict is 25x slower)


Event = tuple
"""One public event of the log: a plain tuple ``(kind, *values)`` (cheap to make):

``("deal", deal number, dealer)``, ``("turnup", card)``, ``("returned", card)``
(put back into the pile), ``("colour", seat, colour)`` (named for the opening
Wild), ``("play", seat, card, colour now in force, 1 if UNO was called else 0)``,
``("draw", seat, cards drawn)``, ``("pass", seat)``, ``("skip", seat losing a
turn)``, ``("reverse", new direction)``, ``("penalty", seat, cards drawn)``,
``("challenge", seat, 1 if the Wild Draw Four was illegal)``, ``("catch", seat,
caught seat)``, ``("reshuffle", cards in the new pile)``, ``("out", winner,
points)``, ``("stalled", moves)`` (the deal hit ``max_turns``).
"""


class State(NamedTuple):
    """An immutable Uno position. Card codes everywhere; lists of the table as tuples."""

    seed: int
    players: int
    rules: Rules
    single: bool  # True: the match is this one deal
    deal: int
    dealer: int
    hands: tuple[tuple[int, ...], ...]  # in the order the cards arrived; the last is the newest
    pile: tuple[int, ...]  # the draw pile, top card last
    discard: tuple[int, ...]  # the discard pile, top card last
    colour: int  # the colour in force, -1 while an opening Wild waits for one
    direction: int  # +1 to the left, -1 to the right
    turn: int  # the seat to act, -1 when over
    phase: int
    wd4_by: int  # CHALLENGED: who played the Wild Draw Four
    wd4_bad: bool  # CHALLENGED: it was played while holding the colour in force (hidden)
    prev_colour: int  # CHALLENGED: the colour in force before it
    uno_missed: int  # the seat that may be caught for not calling UNO, else -1
    moves: int  # actions so far in this deal
    reshuffles: int  # piles made from discards (and opening cards put back) this deal
    scores: tuple[int, ...]
    winner: int  # who went out in this deal, -1 if nobody (yet)
    log: tuple[Event, ...]  # the most recent public events
    last_deal: tuple | None  # (deal, winner, points, hands) of the previous deal of a match

    def current_player(self) -> int | None:
        return None if self.phase == OVER else self.turn

    def is_over(self) -> bool:
        return self.phase == OVER


LOG_KEEP = 24


class Table(kernel.Table[State]):
    """A mutable Uno table (``engine.kernel.Table``): ``legal()`` lists action codes, ``step(code)``
    plays one. Its values are those of ``State``, as lists where they change; ``limit`` is the rules'
    ``max_turns``."""

    log_keep: ClassVar[int] = LOG_KEEP
    seed: int
    players: int
    rules: Rules
    single: bool
    deal: int
    dealer: int
    hands: list[list[int]]
    pile: list[int]
    discard: list[int]
    colour: int
    direction: int
    turn: int
    phase: int
    wd4_by: int
    wd4_bad: bool
    prev_colour: int
    uno_missed: int
    moves: int
    reshuffles: int
    scores: list[int]
    winner: int
    log: list[Event]
    last_deal: tuple | None
    limit: int

    # ----- making and converting tables -----
    @classmethod
    def new(cls, players: int, seed: int, rules: Rules, single: bool,
            deck: list[int] | None = None) -> Table:
        """A match (or, ``single``, one deal) at its first turn; ``deck`` is the shuffled
        deck of the first deal (drawn from the end; the list is used up), by default
        shuffled from the seed."""
        t = cls()
        t.seed, t.players, t.rules, t.single = seed, players, rules, single
        t.deal, t.dealer = 0, players - 1
        t.scores = [0] * players
        t.log = []
        t.last_deal = None
        t.derive()
        t.start_deal(deck)
        return t

    def derive(self) -> None:
        self.limit = self.rules.max_turns

    @classmethod
    def reader(cls, s: State) -> Table:
        """A table sharing ``s``'s tuples, for reading only (``legal``, ``plays_of``)."""
        t = cls()
        t.players, t.rules, t.hands, t.pile, t.discard = s.players, s.rules, s.hands, s.pile, s.discard  # type: ignore[assignment]
        t.colour, t.turn, t.phase, t.uno_missed = s.colour, s.turn, s.phase, s.uno_missed
        return t

    # ----- the deal -----
    def start_deal(self, deck: list[int] | None = None) -> None:
        """Shuffle, deal seven each, turn up the first card and apply it (rule 2)."""
        if deck is None:
            deck = shuffled(FULL_DECK, chance(self.seed, "deal", self.deal))
        n, dealer = self.players, self.dealer
        # one card at a time from the top (the end), starting at the dealer's left: the seat
        # j places after the dealer gets the j-th card from the top, then every n-th
        self.hands = [deck[-1 - (seat - dealer - 1) % n::-n][:HAND_SIZE] for seat in range(n)]
        del deck[-HAND_SIZE * n:]
        self.pile, self.discard = deck, []
        self.direction, self.moves, self.reshuffles, self.winner = 1, 0, 0, -1
        self.wd4_by, self.wd4_bad, self.prev_colour, self.uno_missed = -1, False, -1, -1
        self.log.append(("deal", self.deal, dealer))
        while True:
            top = self.pile.pop()
            self.log.append(("turnup", top))
            if top == WILD_DRAW_FOUR or (top == WILD and self.rules.opening_wild == "redraw"):
                self.pile.append(top)
                self.reshuffles += 1
                self.pile = shuffled(self.pile, chance(self.seed, "opening", self.deal, self.reshuffles))
                self.log.append(("returned", top))
                continue
            break
        self.discard.append(top)
        self.colour = COLOUR_OF[top]
        self.phase = PLAY
        first = (dealer + 1) % n
        self.turn = first
        rank = RANK_OF[top]
        if top == WILD:
            self.phase = OPENING
        elif not self.rules.first_card_acts:  # the write-up's model: only the card to match
            pass
        elif rank == _SKIP or (rank == _REVERSE and n == 2 and self.rules.reverse_skips_two):
            self.log.append(("skip", first))
            self.turn = (first + 1) % n
        elif rank == _REVERSE and n == 2:  # not skipping (the write-up's rule): the first player plays
            self.direction = -1
            self.log.append(("reverse", -1))
        elif rank == _REVERSE:
            self.direction = -1
            self.log.append(("reverse", -1))
            self.turn = dealer
        elif rank == _DRAW_TWO:
            self.penalty(first, 2)
            self.log.append(("skip", first))
            self.turn = (first + 1) % n

    # ----- what may be done -----
    def plays_of(self, card: int, hand: list[int]) -> list[int]:
        """The play codes of ``card`` from ``hand`` if it is playable now (no UNO variants)."""
        if card not in PLAYABLE[15 * self.colour + RANK_OF[self.discard[-1]]]:
            return []
        if card < COLOURED:
            return [card]
        if card == WILD:
            return list(_WILD_PLAYS)
        if self.rules.wd4_challenge or wd4_allowed(hand, self.colour, self.discard[-1], self.rules.wd4_when):
            return list(_WD4_PLAYS)
        return []

    def legal(self) -> list[int]:
        """The legal action codes: plays in increasing code order, then draw or pass, then catch."""
        phase = self.phase
        if phase == PLAY:
            p = self.turn
            hand = self.hands[p]
            out = [*PLAYABLE[15 * self.colour + RANK_OF[self.discard[-1]]].intersection(hand)]  # each code once
            if out:
                out.sort()
                if out[-1] >= COLOURED:
                    out = self.with_wild_plays(out, hand)
                if self.rules.uno_call and len(hand) == 2:
                    out += [a + UNO_FLAG for a in out]
            out.append(DRAW if self.pile or len(self.discard) > 1 else PASS)
        elif phase == DRAWN:
            hand = self.hands[self.turn]
            out = self.plays_of(hand[-1], hand)
            if out and self.rules.uno_call and len(hand) == 2:
                out += [a + UNO_FLAG for a in out]
            out.append(PASS)
            return out
        elif phase == CHALLENGED:
            p = self.turn
            out = [CHALLENGE, ACCEPT]
        elif phase == OPENING:
            return [CHOOSE, CHOOSE + 1, CHOOSE + 2, CHOOSE + 3]
        else:
            return []
        if self.uno_missed >= 0 and self.uno_missed != p:
            out.append(CATCH)
        return out

    def with_wild_plays(self, cards: list[int], hand: list[int]) -> list[int]:
        """``cards`` (sorted playable codes, wilds last) with the wilds replaced by their plays."""
        wd4 = cards[-1] == WILD_DRAW_FOUR
        wild = cards[-1 - wd4] == WILD if len(cards) > wd4 else False
        out = cards[:len(cards) - wd4 - wild]
        if wild:
            out += _WILD_PLAYS
        if wd4 and (self.rules.wd4_challenge or wd4_allowed(hand, self.colour, self.discard[-1], self.rules.wd4_when)):
            out += _WD4_PLAYS
        return out

    # ----- doing it -----
    def step(self, a: int) -> None:
        """Play action code ``a`` for the seat to act (which must be legal)."""
        p = self.turn
        self.moves += 1
        if self.uno_missed >= 0 and a != CATCH:  # any other action ends the chance to catch
            self.uno_missed = -1
        if a < DRAW:
            self.play(p, a)
        elif a == DRAW:
            self.draw_turn(p)
        elif a == PASS:
            self.log.append(("pass", p))
            self.phase = PLAY
            self.turn = (p + self.direction) % self.players
        elif a == ACCEPT:
            self.penalty(p, 4)
            self.log.append(("skip", p))
            self.phase, self.wd4_by, self.wd4_bad, self.prev_colour = PLAY, -1, False, -1
            self.turn = (p + self.direction) % self.players
        elif a == CHALLENGE:
            self.challenge(p)
        elif a == CATCH:
            caught = self.uno_missed
            self.uno_missed = -1
            self.log.append(("catch", p, caught))
            self.penalty(caught, 2)
        else:
            self.colour = a - CHOOSE
            self.log.append(("colour", p, self.colour))
            self.phase = PLAY
        if self.moves >= self.limit and self.phase != OVER:  # limit: the rules' max_turns
            self.log.append(("stalled", self.moves))
            self.end_deal(-1)

    def play(self, p: int, a: int) -> None:
        card, colour, uno, rank = PLAYS[a]
        hand = self.hands[p]
        prev_colour, prev_top = self.colour, self.discard[-1]
        hand.remove(card)
        self.discard.append(card)
        self.colour = colour
        self.phase = PLAY
        self.log.append(("play", p, card, colour, uno))
        n = self.players
        nxt = (p + self.direction) % n
        if not hand:
            if rank == _DRAW_TWO:
                self.penalty(nxt, 2)
            elif card == WILD_DRAW_FOUR:
                self.penalty(nxt, 4)
            self.end_deal(p)
            return
        if self.rules.uno_call and len(hand) == 1 and not uno:
            self.uno_missed = p
        if rank < _SKIP or card == WILD:
            self.turn = nxt
        elif rank == _SKIP or (rank == _REVERSE and n == 2 and self.rules.reverse_skips_two):
            self.log.append(("skip", nxt))
            self.turn = (nxt + self.direction) % n
        elif rank == _REVERSE:
            self.direction = -self.direction
            self.log.append(("reverse", self.direction))
            self.turn = (p + self.direction) % n
        elif rank == _DRAW_TWO:
            self.penalty(nxt, 2)
            self.log.append(("skip", nxt))
            self.turn = (nxt + self.direction) % n
        elif self.rules.wd4_challenge:
            self.phase, self.turn = CHALLENGED, nxt
            # whether it was played against rule 4 (checked on the hand left: the Wild Draw Four has no colour)
            self.wd4_by, self.prev_colour = p, prev_colour
            self.wd4_bad = not wd4_allowed(hand, prev_colour, prev_top, self.rules.wd4_when)
        else:
            self.penalty(nxt, 4)
            self.log.append(("skip", nxt))
            self.turn = (nxt + self.direction) % n

    def challenge(self, p: int) -> None:
        """Rule 4: an illegal Wild Draw Four costs its player 4 and the challenger plays on;
        a legal one costs the challenger 6 and their turn."""
        illegal = self.wd4_bad
        self.log.append(("challenge", p, int(illegal)))
        if illegal:
            self.penalty(self.wd4_by, 4)
        else:
            self.penalty(p, 6)
            self.log.append(("skip", p))
            self.turn = (p + self.direction) % self.players
        self.phase, self.wd4_by, self.wd4_bad, self.prev_colour = PLAY, -1, False, -1

    def draw_turn(self, p: int) -> None:
        """Rule 5: draw one (or until playable); then the player decides (phase DRAWN)."""
        hand = self.hands[p]
        if self.rules.draw_until_playable:
            got = 0
            while self.take(hand):
                got += 1
                if self.plays_of(hand[-1], hand):
                    break
        elif self.pile or self.reshuffle():  # one card (``take`` without the call)
            hand.append(self.pile.pop())
            got = 1
        else:
            got = 0
        self.log.append(("draw", p, got))
        if self.rules.play_drawn:
            self.phase = DRAWN
        else:
            self.turn = (p + self.direction) % self.players

    def take(self, hand: list[int]) -> bool:
        """Move the top card of the draw pile to ``hand``, reshuffling the discards into a
        new pile first if it is empty (rule 8). False when there is nothing to draw."""
        if not self.pile and not self.reshuffle():
            return False
        hand.append(self.pile.pop())
        return True

    def penalty(self, seat: int, count: int) -> None:
        hand = self.hands[seat]
        got = 0
        while got < count and self.take(hand):
            got += 1
        self.log.append(("penalty", seat, got))

    def reshuffle(self) -> bool:
        """All discards but the top card become the new draw pile; the colour stays."""
        if len(self.discard) < 2:
            return False
        cards = shuffled(self.discard[:-1], chance(self.seed, "reshuffle", self.deal, self.reshuffles + 1))
        self.discard = self.discard[-1:]
        self.reshuffles += 1
        self.pile = cards
        self.log.append(("reshuffle", len(cards)))
        return True

    def end_deal(self, winner: int) -> None:
        """Rule 9: the winner scores every other hand; the match goes on or ends."""
        points = 0
        if winner >= 0:
            points = sum(POINTS_OF[c] for h in self.hands for c in h)
            self.scores[winner] += points
            self.log.append(("out", winner, points))
        self.winner = winner
        self.last_deal = (self.deal, winner, points, tuple(map(tuple, self.hands)))
        if self.single or (winner >= 0 and self.scores[winner] >= self.rules.target_score):
            self.phase, self.turn = OVER, -1
            return
        self.deal += 1
        if self.rules.rotate_dealer:
            self.dealer = (self.dealer + 1) % self.players
        self.start_deal()
