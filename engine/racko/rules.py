"""The rules of Rack-O (docs/rules.md, section 3) on a mutable table: the one implementation of them.

``Racko.apply`` copies its immutable ``State`` into a ``Table``, makes one ``step``
and freezes the result; simulations, benchmarks and training loops drive a
``Table`` directly (plain ints and lists), so they play by exactly the same rules.

Conventions:

- Cards are the ints 1..max_card. A rack is a list, index 0 = slot 1 (the front,
  lowest) ... index rack_size - 1 = the back slot. Racks are never rearranged.
- Seats are numbered 0..n-1; "left" is the next higher seat. The first deal of a
  match (and every single deal) is dealt by seat n-1, so seat 0 plays first; the
  dealer moves one seat left each deal.
- The deck is a list drawn from its end. Cards are dealt one at a time from the
  top, starting at the dealer's left; a player's first card goes in the back
  slot, the last in slot 1. Then the top card is turned up to start the discard
  pile (its top is the end of the list).
- A turn is two actions by the same seat: draw (``DRAW`` phase), then place or
  discard (``PLACE`` phase). A card from the discard pile must be placed.
- The deck is rebuilt when a player draws from it while it is empty: every
  discard but the top one, shuffled (``chance(seed, "reshuffle", deal, k)``).
  There are always at least two cards outside the racks (the options demand it),
  so this never comes up empty.
- Rack-O is checked at the end of the mover's turn (a rack dealt in order still
  needs a turn).
- ``max_turns`` counts turns (draw + place = one), all seats together. A deal that
  reaches it ends with no Rack-O: nobody wins it, and every player scores their
  rack as a non-winner would (5 per card up to the first break). (docs/rules.md,
  section 3, rule 8: scoring the racks keeps a match of weak players finite.)
- ``known[seat][k]`` is the card in that seat's slot k + 1 if everybody saw it go
  there (taken from the discard pile), else 0.
- ``dealt[seat]`` is the rack as dealt; ``placed[seat]`` lists, for each turn that
  seat took in this deal, the slot it filled (1..rack_size) or 0 for a discard
  (public: everybody sees which card leaves which slot). With them a seat's view
  says everything that seat saw happen, so agents need no memory of their own.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from engine import kernel
from engine.base import OptionError, chance
from engine.kernel import shuffled
from engine.racko.actions import DISCARD, DRAW_DECK, PLACE
from engine.racko.cards import all_cards, ascending_prefix, longest_run, run_bonus

DRAW, PLACE_PHASE, OVER = 0, 1, 2
PHASES = ("draw", "place", "over")
FROM_NONE, FROM_DECK, FROM_DISCARD = 0, 1, 2
SOURCES = (None, "deck", "discard")
LOG_KEEP = 16


def fewest_cards(players: int, rack: int) -> int:
    """The smallest ``max_card`` a match may set: every rack, plus one card for the deck and one
    for the discard pile."""
    return players * rack + 2


@dataclass(frozen=True)
class Rules:
    """The rule options of a match with ``max_card`` resolved for its number of players."""

    rack_size: int = 10
    max_card: int = 40
    max_turns: int = 1500
    bonus: bool = False
    target_score: int = 500

    @staticmethod
    def of(players: int, options: dict) -> Rules:
        """``options`` (resolved by ``Racko.resolve_options``) for ``players`` seats;
        a ``max_card`` of 0 means (players + 2) · rack_size."""
        rack = options["rack_size"]
        max_card = options["max_card"] or (players + 2) * rack
        if max_card < fewest_cards(players, rack):
            raise OptionError(
                f"max_card {max_card} is too small: {players} racks of {rack} need {players * rack} cards, "
                f"plus at least 2 for the deck and the discard pile (so at least {fewest_cards(players, rack)})")
        return Rules(rack, max_card, options["max_turns"], options["bonus"], options["target_score"])

    def to_json(self) -> dict:
        return {"rack_size": self.rack_size, "max_card": self.max_card, "max_turns": self.max_turns,
                "bonus": self.bonus, "target_score": self.target_score}

    @property
    def racko_points(self) -> int:
        return racko_points(self.rack_size)


def racko_points(rack_size: int) -> int:
    """What going Rack-O scores before any bonus: 5 · rack_size + 25."""
    return 5 * rack_size + 25


def deal_points(rules: Rules, racks, winner: int) -> list[int]:
    """Each seat's points for a deal that ``winner`` ended by going Rack-O (-1: nobody did)."""
    points = [5 * ascending_prefix(rack) for rack in racks]
    if winner >= 0:
        points[winner] = rules.racko_points + (run_bonus(racks[winner]) if rules.bonus else 0)
    return points


class Result(NamedTuple):
    """How a deal ended: every rack shown, the deal's points, the match scores after it."""

    deal: int
    winner: int  # the seat that went Rack-O, -1 if the deal hit max_turns
    racks: tuple[tuple[int, ...], ...]
    points: tuple[int, ...]
    scores: tuple[int, ...]
    turns: int

    def to_json(self) -> dict:
        """The deal in JSON, with the bonus of a Rack-O: what it scored beyond ``racko_points``."""
        winner = self.winner
        return {"deal": self.deal, "winner": None if winner < 0 else winner, "rack_o": winner >= 0,
                "racks": [list(r) for r in self.racks], "points": list(self.points),
                "scores": list(self.scores), "turns": self.turns,
                "runs": [longest_run(r) for r in self.racks],
                "bonus": self.points[winner] - racko_points(len(self.racks[winner])) if winner >= 0 else 0}

    @staticmethod
    def from_json(data: dict) -> Result:
        winner = data["winner"]
        return Result(int(data["deal"]), -1 if winner is None else int(winner),
                      tuple(tuple(int(c) for c in r) for r in data["racks"]),
                      tuple(int(p) for p in data["points"]), tuple(int(s) for s in data["scores"]),
                      int(data["turns"]))


Event = tuple
"""One public event of the log, a plain tuple: ``("deal", deal, dealer)``, ``("turnup", card)``,
``("draw", seat, source, card)`` (source FROM_DECK / FROM_DISCARD; the card only from the
discard pile, else 0), ``("discard", seat, card)``, ``("place", seat, slot 1.., card out,
card in or 0 when it came from the deck)``, ``("reshuffle", cards in the new deck)``,
``("racko", seat, points)``, ``("stalled", turns)``."""


class State(NamedTuple):
    """An immutable Rack-O position; racks, deck and discard pile as tuples of ints."""

    seed: int
    players: int
    rules: Rules
    single: bool  # True: the match is this one deal
    deal: int
    dealer: int
    racks: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]  # top card last
    discard: tuple[int, ...]  # top card last
    known: tuple[tuple[int, ...], ...]  # per seat and slot: the card everybody saw go there, or 0
    dealt: tuple[tuple[int, ...], ...]  # the racks as dealt
    placed: tuple[tuple[int, ...], ...]  # per seat and turn: the slot filled (1..), 0 for a discard
    to_move: int  # -1 when over
    phase: int
    drawn: int  # the card the seat to move holds (PLACE phase), else 0
    source: int  # FROM_DECK / FROM_DISCARD while a card is held, else FROM_NONE
    turn: int  # turns taken in this deal, all seats
    turns: tuple[int, ...]  # turns taken in this deal, per seat
    reshuffles: int
    scores: tuple[int, ...]
    winner: int  # who went Rack-O in this deal, -1 if nobody (yet)
    log: tuple[Event, ...]
    last_result: Result | None

    def current_player(self) -> int | None:
        return None if self.phase == OVER else self.to_move

    def is_over(self) -> bool:
        return self.phase == OVER


class Table(kernel.Table[State]):
    """A mutable Rack-O table (``engine.kernel.Table``): ``legal()`` lists action codes, ``step(code)``
    plays one. Its values are those of ``State``, as lists where they change; ``size`` and ``limit``
    are the rules' ``rack_size`` and ``max_turns``. A table made with ``log=False`` keeps no event log
    (faster, for simulations)."""

    log_keep: ClassVar[int] = LOG_KEEP
    seed: int
    players: int
    rules: Rules
    single: bool
    deal: int
    dealer: int
    racks: list[list[int]]
    deck: list[int]
    discard: list[int]
    known: list[list[int]]
    dealt: tuple[tuple[int, ...], ...]
    placed: list[list[int]]
    to_move: int
    phase: int
    drawn: int
    source: int
    turn: int
    turns: list[int]
    reshuffles: int
    scores: list[int]
    winner: int
    log: list[Event] | None
    last_result: Result | None
    size: int
    limit: int

    # ----- making and converting tables -----
    @classmethod
    def new(cls, players: int, seed: int, rules: Rules, single: bool = True, log: bool = True,
            deck: list[int] | None = None) -> Table:
        """A match (or, ``single``, one deal) at its first turn. ``deck``: the first deal's
        shuffled deck (drawn from the end; the list is used up), by default from the seed."""
        t = cls()
        t.seed, t.players, t.rules, t.single = seed, players, rules, single
        t.deal, t.dealer = 0, players - 1
        t.scores = [0] * players
        t.log = [] if log else None
        t.last_result = None
        t.derive()
        t.start_deal(deck)
        return t

    def derive(self) -> None:
        self.size, self.limit = self.rules.rack_size, self.rules.max_turns

    @classmethod
    def reader(cls, s: State) -> Table:
        """A table that only answers ``legal()``: its phase, source and rack size."""
        t = cls()
        t.phase, t.source, t.size = s.phase, s.source, s.rules.rack_size
        return t

    # ----- the deal -----
    def start_deal(self, deck: list[int] | None = None) -> None:
        """Shuffle, deal the racks one card at a time (back slot first), turn up a card."""
        n, r, dealer = self.players, self.size, self.dealer
        if deck is None:
            deck = shuffled(all_cards(self.rules.max_card), chance(self.seed, "deal", self.deal))
        # the card dealt j-th (from 0) goes to seat (dealer + 1 + j) % n, into slot r - 1 - j // n;
        # it is deck[-1 - j]: seat s's i-th card is deck[-1 - ((s - dealer - 1) % n) - i * n]
        racks = []
        for seat in range(n):
            first = -1 - (seat - dealer - 1) % n
            racks.append(deck[first::-n][:r][::-1])
        del deck[-n * r:]
        self.racks = racks
        self.dealt = tuple(map(tuple, racks))
        self.known = [[0] * r for _ in range(n)]
        self.placed = [[] for _ in range(n)]
        top = deck.pop()
        self.deck, self.discard = deck, [top]
        self.to_move, self.phase, self.drawn, self.source = (dealer + 1) % n, DRAW, 0, FROM_NONE
        self.turn, self.turns, self.reshuffles, self.winner = 0, [0] * n, 0, -1
        if self.log is not None:
            self.log.append(("deal", self.deal, dealer))
            self.log.append(("turnup", top))

    # ----- what may be done -----
    def legal(self) -> list[int]:
        """The legal action codes, in increasing order."""
        phase = self.phase
        if phase == DRAW:
            return [0, 1]
        if phase == OVER:
            return []
        places = list(range(PLACE, PLACE + self.size))
        return places if self.source == FROM_DISCARD else [DISCARD, *places]

    # ----- doing it -----
    def step(self, a: int) -> None:
        """Play action code ``a`` for the seat to move (which must be legal)."""
        p = self.to_move
        log = self.log
        if self.phase == DRAW:
            if a == DRAW_DECK:
                if not self.deck:
                    self.reshuffle()
                self.drawn = self.deck.pop()
                self.source = FROM_DECK
                if log is not None:
                    log.append(("draw", p, FROM_DECK, 0))
            else:
                self.drawn = card = self.discard.pop()
                self.source = FROM_DISCARD
                if log is not None:
                    log.append(("draw", p, FROM_DISCARD, card))
            self.phase = PLACE_PHASE
            return
        card = self.drawn
        rack = self.racks[p]
        if a == DISCARD:
            self.discard.append(card)
            self.placed[p].append(0)
            if log is not None:
                log.append(("discard", p, card))
        else:
            k = a - PLACE
            out = rack[k]
            rack[k] = card
            self.discard.append(out)
            public = card if self.source == FROM_DISCARD else 0
            self.known[p][k] = public
            self.placed[p].append(k + 1)
            if log is not None:
                log.append(("place", p, k + 1, out, public))
        self.drawn, self.source = 0, FROM_NONE
        self.turn += 1
        self.turns[p] += 1
        if a != DISCARD or self.turns[p] == 1:  # only a placement changes a rack; one dealt in order
            prev = 0  # ends its player's first turn. (is_racko, inline: this runs every turn)
            for c in rack:
                if c <= prev:
                    break
                prev = c
            else:
                self.end_deal(p)
                return
        if self.turn >= self.limit:
            if log is not None:
                log.append(("stalled", self.turn))
            self.end_deal(-1)
            return
        self.to_move = (p + 1) % self.players
        self.phase = DRAW

    def reshuffle(self) -> None:
        """Every discard but the top becomes the new deck, shuffled (rule 5)."""
        self.reshuffles += 1
        cards = shuffled(self.discard[:-1], chance(self.seed, "reshuffle", self.deal, self.reshuffles))
        self.deck, self.discard = cards, self.discard[-1:]
        if self.log is not None:
            self.log.append(("reshuffle", len(cards)))

    def end_deal(self, winner: int) -> None:
        """Score the deal (rule 7); the match goes on with the next dealer or ends."""
        points = deal_points(self.rules, self.racks, winner)
        for p, pts in enumerate(points):
            self.scores[p] += pts
        self.winner = winner
        if winner >= 0 and self.log is not None:
            self.log.append(("racko", winner, points[winner]))
        self.last_result = Result(self.deal, winner, tuple(map(tuple, self.racks)), tuple(points),
                                  tuple(self.scores), self.turn)
        if self.single or max(self.scores) >= self.rules.target_score:
            self.phase, self.to_move = OVER, -1
            return
        self.deal += 1
        self.dealer = (self.dealer + 1) % self.players
        self.start_deal()
