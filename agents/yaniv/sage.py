"""Sage: the strongest Yaniv level here, a planner that samples what it cannot see.

Harel sees six numbers. Sage reads the whole view: every card thrown so far (the
discard pile is public), the cards the others took from the pile, how many cards
each holds. The cards it has not seen (``unseen``) are the only ones that can be
in the others' hands or in the stock.

**Throwing and drawing.** For every group it can throw and every source it can
draw from (the stock, or each takeable card), Sage scores the hand it would then
hold by what that hand will still hold after its *next* throw::

    after(hand) = total(hand) - value of the best group in hand

so a pair of nines held back counts as one nine, a run in the making as its
rest. A card from the pile is known; the stock is averaged over the unseen cards.
The lowest expected ``after`` wins (ties: more cards thrown, then lower total).

**Calling Yaniv.** When it may call, Sage deals the unseen cards at random to
the others' unknown places (keeping the cards known to be in their hands)
``samples`` times and counts how often its total is strictly the lowest: that is
the chance the call is not Assaf. It calls when that chance reaches
``call_threshold``, or when waiting looks worse: if some other player could
call on their next turn (their known cards plus the average unseen card are
within the limit) the threshold drops to ``pressed_threshold``. In a deal that has
run ``STALL_TURNS`` turns (players stuck in a loop) it calls whenever it may.

Everything it reads is in its own view (``Outlook.of``); the same inputs can be
read from a state for the seat to move (``Outlook.of_state``), which training
and tests use.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from agents.base import Explanation
from agents.yaniv.common import STALL_TURNS, YANIV, Decision, Throw, decision_id, to_action
from engine.yaniv import State
from engine.yaniv.cards import DECK_SIZE, JOKER, RANK_OF, SUIT_OF, card_values, parse_card
from engine.yaniv.groups import groups, takeable


@dataclass(frozen=True)
class Outlook:
    """What the seat to move knows: its hand, the takeable cards, the others' card counts
    and known cards, and the cards it has not seen."""

    hand: tuple[int, ...]
    takeable: tuple[int, ...]
    others: tuple[tuple[int, tuple[int, ...]], ...]  # (cards held, cards known) per other player in
    unseen: tuple[int, ...]
    values: tuple[int, ...]
    limit: int
    turn: int = 0  # turns already taken in this deal

    @staticmethod
    def of(observation: dict) -> "Outlook":
        seat = observation["seat"]
        values = card_values(observation["options"]["face_values"])
        hand = tuple(sorted(parse_card(c).index for c in observation["hand"]))
        top = [parse_card(c).index for c in observation["discard"]["cards"]]
        under = [parse_card(c).index for c in observation["discard"]["under"]]
        out = set(observation["eliminated"])
        others, seen = [], set(hand) | set(top) | set(under)
        for s, count in enumerate(observation["hand_counts"]):
            if s == seat or s in out:
                continue
            known = tuple(sorted(parse_card(c).index for c in observation["known"][s]))
            seen.update(known)
            others.append((count, known))
        unseen = tuple(c for c in range(DECK_SIZE) if c not in seen)
        return Outlook(hand, tuple(parse_card(c).index for c in observation["discard"]["takeable"]),
                       tuple(others), unseen, values, observation["options"]["yaniv_limit"], observation["turn"])

    @staticmethod
    def of_state(state: State) -> "Outlook":
        """The same, for the player to move, from a state (reads nothing that player cannot see)."""
        seat = state.to_move
        assert seat is not None  # a deal in play has a player to move
        seen = set(state.hands[seat]) | set(state.top) | set(state.below)
        others = []
        for s in range(state.players):
            if s != seat and not state.out[s]:
                seen.update(state.known[s])
                others.append((len(state.hands[s]), state.known[s]))
        unseen = tuple(c for c in range(DECK_SIZE) if c not in seen)
        return Outlook(state.hands[seat], takeable(state.top), tuple(others), unseen, state.rules.values,
                       state.rules.yaniv_limit, state.turn)

    def total(self, cards) -> int:
        values = self.values
        return sum(values[c] for c in cards)


def after_next_throw(hand: tuple[int, ...], values: Sequence[int]) -> int:
    """What ``hand`` still holds after throwing its most valuable group."""
    if not hand:
        return 0
    return sum(values[c] for c in hand) - best_group_value(hand, values)


def best_group_value(hand: tuple[int, ...], values: Sequence[int]) -> int:
    """The value of the most valuable group ``hand`` can throw (``groups``' best, without
    listing them): a whole set, a single, or a run of one suit with jokers (worth 0) in its gaps."""
    jokers = 0
    by_rank: dict[int, int] = {}
    by_suit: dict[int, list[int]] = {}
    best = 0
    for c in hand:
        rank = RANK_OF[c]
        if rank == JOKER:
            jokers += 1
            continue
        by_rank[rank] = by_rank.get(rank, 0) + values[c]
        by_suit.setdefault(SUIT_OF[c], []).append(c)
    if by_rank:
        best = max(by_rank.values())
    for suited in by_suit.values():
        if len(suited) < 2:
            continue
        suited.sort(key=RANK_OF.__getitem__)
        for i in range(len(suited)):  # runs from suited[i] to suited[j], every card between taken
            value = values[suited[i]]
            for j in range(i + 1, len(suited)):
                span = RANK_OF[suited[j]] - RANK_OF[suited[i]] + 1
                if span - (j - i + 1) > jokers:
                    break
                value += values[suited[j]]
                if span >= 3 and value > best:
                    best = value
    return best


@lru_cache(maxsize=1 << 16)
def with_each_card(rest: tuple[int, ...], values: tuple[int, ...]) -> tuple[int, ...]:
    """``after_next_throw`` of ``rest`` plus each card, by card index (remembered: a search
    meets the same hands again and again). A card that can join no group of ``rest`` (another
    rank than all, no card of its suit within reach of a run) only competes as a single."""
    total, best = sum(values[c] for c in rest), best_group_value(rest, values)
    reach = 2 + sum(RANK_OF[c] == JOKER for c in rest)
    near = {(RANK_OF[c], SUIT_OF[c]) for c in rest if RANK_OF[c] != JOKER}
    row = []
    for x in range(DECK_SIZE):
        rank, suit = RANK_OF[x], SUIT_OF[x]
        if x in rest:
            row.append(0)
        elif rank != JOKER and not any(r == rank or (s == suit and abs(r - rank) <= reach) for r, s in near):
            row.append(total + values[x] - max(best, values[x]))
        else:
            row.append(after_next_throw(tuple(sorted(rest + (x,))), values))
    return tuple(row)


def discard_scores(outlook: Outlook, reach: float = 0.0) -> dict[Throw, float]:
    """Expected ``after_next_throw`` of the resulting hand for every (group, source), less ``reach``
    times the chance that the resulting hand may call (Sage: 0; Pythia leans towards calling sooner)."""
    values, hand = outlook.values, outlook.hand
    pool = outlook.unseen or tuple(c for c in range(DECK_SIZE) if c not in hand)
    scores: dict[Throw, float] = {}
    stock_cache: dict[tuple[int, ...], float] = {}
    for group in groups(hand):
        rest = tuple(c for c in hand if c not in group)
        row = with_each_card(rest, values)
        room = outlook.limit - sum(values[c] for c in rest)  # the most a drawn card may be worth for a call
        for card in outlook.takeable:
            scores[(group, card)] = row[card] - reach * (values[card] <= room)
        if rest not in stock_cache:
            stock_cache[rest] = (sum(row[x] for x in pool) - reach * sum(values[x] <= room for x in pool)) / len(pool)
        scores[(group, None)] = stock_cache[rest]
    return scores


def ranked_discards(outlook: Outlook, reach: float = 0.0) -> tuple[list[Throw], dict[Throw, float]]:
    """Every (group, source), best first (ties: more cards thrown, then the higher total thrown,
    then the stock), with its score (``discard_scores``)."""
    scores = discard_scores(outlook, reach)
    values = outlook.values

    def rank(d: Throw):
        group, take = d
        return (scores[d], -len(group), -sum(values[c] for c in group), take is not None)

    return sorted(scores, key=rank), scores


def best_discard(outlook: Outlook, reach: float = 0.0) -> tuple[Throw, dict[Throw, float]]:
    order, scores = ranked_discards(outlook, reach)
    return order[0], scores


def call_chance(outlook: Outlook, rng: random.Random, samples: int) -> float:
    """The share of random deals of the unseen cards in which a call now is not Assaf."""
    values = outlook.values
    mine = outlook.total(outlook.hand)
    pool = outlook.unseen
    unknown = sum(count - len(known) for count, known in outlook.others)
    wins = 0
    for _ in range(samples):
        drawn = rng.sample(pool, unknown)
        pos, ok = 0, True
        for count, known in outlook.others:
            n = count - len(known)
            theirs = sum(values[c] for c in known) + sum(values[c] for c in drawn[pos:pos + n])
            pos += n
            if theirs <= mine:
                ok = False
                break
        wins += ok
    return wins / samples


def others_threaten(outlook: Outlook) -> bool:
    """Could someone else call on their next turn? (known cards + an average unseen card each)"""
    values = outlook.values
    mean = sum(values[c] for c in outlook.unseen) / max(1, len(outlook.unseen))
    for count, known in outlook.others:
        if sum(values[c] for c in known) + mean * (count - len(known)) - mean <= outlook.limit:
            return True
    return False


class Sage:
    name = "sage"

    def __init__(self, samples: int = 200, call_threshold: float = 0.75, pressed_threshold: float = 0.45):
        self.samples = samples
        self.call_threshold = call_threshold
        self.pressed_threshold = pressed_threshold

    def choose(self, outlook: Outlook, rng: random.Random) -> Decision:
        if outlook.total(outlook.hand) <= outlook.limit:
            if outlook.turn >= STALL_TURNS:
                return YANIV
            chance = call_chance(outlook, rng, self.samples)
            threshold = self.pressed_threshold if others_threaten(outlook) else self.call_threshold
            if chance >= threshold:
                return YANIV
        return best_discard(outlook)[0]

    def act(self, observation: dict, legal_actions: Sequence, rng: random.Random):
        return to_action(self.choose(Outlook.of(observation), rng))

    def explain(self, observation: dict, legal_actions: Sequence) -> Explanation:
        outlook = Outlook.of(observation)
        _, scores = best_discard(outlook)
        values = {decision_id(d): -round(v, 2) for d, v in scores.items()}
        note = "minus the hand expected after the next throw (higher is better)"
        if outlook.total(outlook.hand) <= outlook.limit:
            chance = call_chance(outlook, random.Random(0), self.samples)
            values["yaniv"] = round(chance, 3)
            note += f"; yaniv: chance the call is not Assaf ({self.samples} samples of the unseen cards)"
        return Explanation("score", values, note)
