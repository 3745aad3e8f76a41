"""Sibyl: Sage's moves, checked by playing the deal out in worlds its seat cannot tell apart.

Sage scores every throw by the hand it leaves and calls Yaniv on a fixed threshold. Sibyl
takes Sage's ``candidates`` best throws (and the call, when it may call) and weighs each by
how often it wins the deal: it deals the cards it has not seen at random to the others'
unknown places and to the stock (``Worlds``: the others' counts and the cards seen taken
from the pile are kept; a player who has had turns to throw its high cards is dealt lower
ones, ``Worlds.deal``), and in each such world plays every candidate and then the rest of
the deal with Sage in every seat, its own included. The call is scored without play: it
wins a world when its hand is strictly the lowest. Every candidate meets the same worlds
(the same stock order too), so their differences are not the worlds' luck. The candidate
with the highest share of deals won is played (ties: Sage's order).

It reads only its seat's view (``Worlds.of``); ``Worlds.of_state`` gives the same worlds from a
state for the player to move, which tests use. A world's deal that runs ``CAP`` turns past
the move is scored by the lowest hand at that point.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Sequence

from agents.base import Explanation
from agents.yaniv.common import STALL_TURNS, YANIV, Decision, decision_id, to_action
from agents.yaniv.sage import Outlook, Sage, ranked_discards
from engine.yaniv import Rules, State
from engine.yaniv.cards import DECK_SIZE, parse_card
from engine.yaniv.rules import Table

CAP = 60  # turns a world's deal may run past the move before it is scored by the lowest hand


@dataclass(frozen=True)
class Worlds:
    """What the seat to move sees of the table, as the ingredients of a world."""

    rules: Rules
    seat: int
    hands: tuple[tuple[int, ...], ...]  # the seat's own hand; the others' known cards
    counts: tuple[int, ...]  # cards held per seat
    known: tuple[tuple[int, ...], ...]
    unseen: tuple[int, ...]
    below: tuple[int, ...]
    top: tuple[int, ...]
    top_by: int | None
    out: tuple[bool, ...]
    turn: int
    turns: tuple[int, ...]  # turns each seat has taken in this deal

    @staticmethod
    def of(view: dict) -> Worlds:
        seat = view["seat"]
        known = tuple(tuple(sorted(parse_card(c).index for c in k)) for k in view["known"])
        hand = tuple(sorted(parse_card(c).index for c in view["hand"]))
        below = tuple(parse_card(c).index for c in view["discard"]["under"])
        top = tuple(parse_card(c).index for c in view["discard"]["cards"])
        out = tuple(s in view["eliminated"] for s in range(view["players"]))
        return Worlds._make(Rules.of(view["players"], view["options"]), seat, hand, tuple(view["hand_counts"]),
                            known, below, top, view["discard"]["by"], out, view["turn"])

    @staticmethod
    def of_state(state: State) -> Worlds:
        """The same, for the player to move, from a state (reads nothing that player cannot see)."""
        seat = state.to_move
        assert seat is not None  # a deal in play has a player to move
        return Worlds._make(state.rules, seat, state.hands[seat], tuple(len(h) for h in state.hands),
                            state.known, state.below, state.top, state.top_by, state.out, state.turn)

    @staticmethod
    def _make(rules, seat, hand, counts, known, below, top, top_by, out, turn) -> Worlds:
        seen = set(hand) | set(below) | set(top)
        for k in known:
            seen.update(k)
        hands = tuple(hand if s == seat else known[s] for s in range(len(counts)))
        unseen = tuple(c for c in range(DECK_SIZE) if c not in seen)
        live = [s for s in range(len(counts)) if not out[s]]
        behind = {s: (live.index(seat) - live.index(s)) % len(live) for s in live}  # turns since it moved
        turns = tuple(0 if out[s] or s == seat or turn < behind[s] else (turn - behind[s]) // len(live) + 1
                      for s in range(len(counts)))
        return Worlds(rules, seat, hands, counts, known, unseen, below, top, top_by, out, turn, turns)

    def deal(self, rng: random.Random) -> Table:
        """One world: the unseen cards dealt at random to the others' unknown places and the stock,
        sifted: a player who has taken ``t`` turns keeps, of ``n + t // 2`` cards drawn for its ``n``
        unknown places, the ``n`` lowest (players throw their high cards), the rest going to the
        stock. (Dealt uniformly, or keeping the lowest of ``n + t``, measured weaker.)"""
        pool = list(self.unseen)
        rng.shuffle(pool)
        values = self.rules.values
        hands, back, pos = [], [], 0
        for s, held in enumerate(self.hands):
            n = self.counts[s] - len(held)
            k = min(self.turns[s] // 2, len(pool) - pos - n) if n else 0
            drawn = sorted(pool[pos:pos + n + k], key=values.__getitem__)
            hands.append(tuple(sorted(held + tuple(drawn[:n]))))
            back += drawn[n:]
            pos += n + k
        rest = pool[pos:] + back
        if back:
            rng.shuffle(rest)
        pool, pos = rest, 0
        players = len(self.counts)
        return Table.thaw(State(self.rules, rng.getrandbits(32), players, True, 0, tuple(hands), self.known,
                                tuple(pool[pos:]), self.below, self.top, self.top_by, self.seat, self.turn, 0,
                                (0,) * players, self.out))


def share_won(table: Table, seat: int) -> float:
    """The seat's share of the finished deal's win (a shared win counts 1/k)."""
    winners = table.results[-1].winners
    return 1 / len(winners) if seat in winners else 0.0


def lowest_share(table: Table, seat: int) -> float:
    """For a deal stopped unfinished: the seat's share of the lowest hands."""
    totals = {s: table.rules.total(h) for s, h in enumerate(table.hands) if not table.out[s]}
    low = min(totals.values())
    lows = [s for s, t in totals.items() if t == low]
    return 1 / len(lows) if seat in lows else 0.0


def play_out(table: Table, sage: Sage, seat: int, rng: random.Random) -> float:
    """Sage plays every seat from here to the deal's end; the seat's share of the win."""
    stop = table.turn + CAP
    while table.to_move is not None:
        if table.turn >= stop:
            return lowest_share(table, seat)
        decision = sage.choose(Outlook.of_state(table), rng)  # type: ignore[arg-type]  # a Table reads as a State
        if decision is YANIV:
            table.call()
        else:
            table.discard(*decision)
    return share_won(table, seat)


class Sibyl:
    name = "sibyl"

    def __init__(self, worlds: int = 24, candidates: int = 3, sage: Sage | None = None):
        self.worlds = worlds
        self.candidates = candidates
        self.sage = sage or Sage(samples=60)

    def weigh(self, worlds: Worlds, outlook: Outlook, rng: random.Random) -> dict[Decision, float]:
        """Each candidate's share of deals won over the same ``self.worlds`` worlds."""
        candidates = ranked_discards(outlook)[0][:self.candidates]
        mine = outlook.total(outlook.hand)
        can_call = mine <= outlook.limit
        won: dict[Decision, float] = dict.fromkeys([YANIV] if can_call else [], 0.0)
        won.update(dict.fromkeys(candidates, 0.0))
        for _ in range(self.worlds):
            world = worlds.deal(rng)
            seed = rng.getrandbits(32)
            if can_call:
                others = min(world.rules.total(h) for s, h in enumerate(world.hands)
                             if s != worlds.seat and not world.out[s])
                won[YANIV] += mine < others
            for d in candidates:
                table = world.copy()
                table.discard(*d)
                won[d] += play_out(table, self.sage, worlds.seat, random.Random(seed))
        return {d: w / self.worlds for d, w in won.items()}

    def choose(self, worlds: Worlds, outlook: Outlook, rng: random.Random) -> Decision:
        if outlook.turn >= STALL_TURNS and outlook.total(outlook.hand) <= outlook.limit:
            return YANIV
        weights = self.weigh(worlds, outlook, rng)
        return max(weights, key=weights.__getitem__)  # the first of the best: the call, then Sage's order

    def act(self, observation: dict, legal_actions: Sequence, rng: random.Random):
        return to_action(self.choose(Worlds.of(observation), Outlook.of(observation), rng))

    def explain(self, observation: dict, legal_actions: Sequence) -> Explanation:
        weights = self.weigh(Worlds.of(observation), Outlook.of(observation), random.Random(0))
        values = {decision_id(d): round(w, 3) for d, w in weights.items()}
        return Explanation("share of deals won", values,
                           f"Sage's {self.candidates} best throws and the call (when allowed), each played out "
                           f"with Sage in every seat over {self.worlds} random deals of the unseen cards")
