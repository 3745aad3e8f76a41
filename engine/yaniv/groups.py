"""Discard groups: what may be thrown in one turn, and what the next player may take
(docs/rules.md, section 4, rules 4 and 5).

A group is one of

- a **single** card (any card, a joker included);
- a **set**: two or more cards of one rank (jokers do not join sets);
- a **run**: three or more cards of one suit in consecutive ranks, Ace low only
  (A-2-3 is a run, Q-K-A is not). Jokers stand in for missing ranks *inside* the
  run (``7s jk1 9s``, ``5h jk1 jk2 8h``); a run starts and ends with real cards,
  so it never reaches below the Ace or beyond the King. Jokers alone are singles.

Groups are tuples of card indices (see ``engine.yaniv.cards``) in their
*canonical order*: a set by card index, a run by rank with the jokers in the gaps
(the lower-numbered joker first). ``arrange`` puts any cards in that order or says
why they are no group; ``groups(hand)`` lists every group a hand can throw.

From the group the previous player threw, the next player may take any card of a
set, but only the first or the last card of a run (``takeable``).
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import Iterable

from engine.yaniv.cards import CARD_IDS, JOKER, RANK_LABELS, RANK_OF, SUIT_NAMES, SUIT_OF


class GroupError(ValueError):
    """Cards that cannot be thrown together; the message says why."""


def arrange(cards: Iterable[int]) -> tuple[int, ...]:
    """The canonical order of ``cards`` as a group, or GroupError with the reason."""
    cards = tuple(cards)
    if not cards:
        raise GroupError("throw at least one card")
    if len(set(cards)) != len(cards):
        raise GroupError("a card is listed twice")
    if len(cards) == 1:
        return cards
    jokers = sorted(c for c in cards if RANK_OF[c] == JOKER)
    naturals = sorted((c for c in cards if RANK_OF[c] != JOKER), key=lambda c: RANK_OF[c])
    if not naturals:
        raise GroupError("jokers alone are singles: throw one joker at a time")
    ranks = [RANK_OF[c] for c in naturals]
    if len(set(ranks)) == 1:
        if jokers:
            raise GroupError("jokers only fill gaps inside a run; they do not join a set")
        return tuple(sorted(cards))
    if len({SUIT_OF[c] for c in naturals}) > 1:
        if len(set(ranks)) < len(ranks):
            raise GroupError("a set is cards of one rank only")
        raise GroupError("a run is cards of one suit; a set is cards of one rank")
    if len(set(ranks)) < len(ranks):
        raise GroupError("a run cannot hold the same rank twice")
    if len(cards) < 3:
        raise GroupError("a run needs at least three cards")
    gaps = ranks[-1] - ranks[0] + 1 - len(ranks)
    if gaps > len(jokers):
        need = f"{gaps} missing rank{'s' if gaps > 1 else ''}"
        raise GroupError(f"{CARD_IDS[naturals[0]]} to {CARD_IDS[naturals[-1]]} has {need} "
                         f"and only {len(jokers)} joker{'s' if len(jokers) != 1 else ''} to fill them")
    if gaps < len(jokers):
        raise GroupError("jokers only fill gaps inside a run: a run starts and ends with real cards")
    return _fill(naturals, jokers)


def _fill(naturals: list[int], jokers: list[int]) -> tuple[int, ...]:
    """Naturals of one suit sorted by rank with the jokers placed in the gaps, in order."""
    spare = iter(jokers)
    out = [naturals[0]]
    for prev, card in zip(naturals, naturals[1:]):
        out.extend(next(spare) for _ in range(RANK_OF[card] - RANK_OF[prev] - 1))
        out.append(card)
    return tuple(out)


def kind(group: tuple[int, ...]) -> str:
    """'single', 'set' or 'run' for a valid group."""
    if len(group) == 1:
        return "single"
    first = RANK_OF[group[0]]
    return "set" if all(RANK_OF[c] == first for c in group) else "run"


def takeable(group: tuple[int, ...]) -> tuple[int, ...]:
    """The cards of ``group`` the next player may take: all of a single or a set, the
    two ends of a run."""
    if len(group) == 1:
        return group
    if RANK_OF[group[0]] == RANK_OF[group[-1]]:
        return group
    return (group[0], group[-1])


@lru_cache(maxsize=1 << 16)
def groups(hand: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every group ``hand`` can throw, each in canonical order: singles, sets, runs."""
    out: list[tuple[int, ...]] = [(c,) for c in hand]
    jokers = sorted(c for c in hand if RANK_OF[c] == JOKER)
    by_rank: dict[int, list[int]] = {}
    by_suit: dict[int, list[int]] = {}
    for c in sorted(hand):
        if RANK_OF[c] != JOKER:
            by_rank.setdefault(RANK_OF[c], []).append(c)
            by_suit.setdefault(SUIT_OF[c], []).append(c)
    for same in by_rank.values():
        for size in range(2, len(same) + 1):
            out.extend(combinations(same, size))
    for suited in by_suit.values():
        if len(suited) < 2:
            continue
        suited.sort(key=lambda c: RANK_OF[c])
        for size in range(2, len(suited) + 1):
            for naturals in combinations(suited, size):
                span = RANK_OF[naturals[-1]] - RANK_OF[naturals[0]] + 1
                gaps = span - size
                if span < 3 or gaps > len(jokers):
                    continue
                for fill in combinations(jokers, gaps):
                    out.append(_fill(list(naturals), list(fill)))
    return tuple(out)


def describe(group: tuple[int, ...]) -> str:
    """For people: 'the 7 of spades', 'three 5s', 'a run 7-9 of spades'."""
    k = kind(group)
    if k == "single":
        c = group[0]
        if RANK_OF[c] == JOKER:
            return "a joker"
        return f"{RANK_LABELS[RANK_OF[c]]} of {SUIT_NAMES[SUIT_OF[c]]}"
    if k == "set":
        return f"{len(group)} \u00d7 {RANK_LABELS[RANK_OF[group[0]]]}"
    suit = SUIT_NAMES[SUIT_OF[group[0]]]
    jokers = sum(1 for c in group if RANK_OF[c] == JOKER)
    with_jokers = f" with {jokers} joker{'s' if jokers > 1 else ''}" if jokers else ""
    return (f"run {RANK_LABELS[RANK_OF[group[0]]]}-{RANK_LABELS[RANK_OF[group[-1]]]} "
            f"of {suit}{with_jokers}")
