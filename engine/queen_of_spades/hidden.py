"""Dealing the cards a seat cannot see again, consistently with everything public.

What is public about the other hands: how many cards each holds, the cards already
played, the suits each seat failed to follow (it holds none of them: ``voids``) and,
with ``forced_queen``, the seats that failed to follow without playing the Q♠ while
it was out (they do not hold it: ``no_queen``). ``redeal`` returns a new deal of the
hidden seats' cards drawn **uniformly** from all deals that agree with those facts:
first by rejection (a plain shuffle, kept if it agrees; exact and fast while few
voids are known), then, if that keeps failing, by counting the agreeing deals class
by class (a suit's cards, the Q♠ on its own) and drawing each class's split with
probability proportional to the number of deals it leaves.
"""
from __future__ import annotations

import random
from math import comb

from engine.queen_of_spades.cards import QUEEN_OF_SPADES

_TRIES = 12


def redeal(hands: list[list[int]], seats: list[int], voids, no_queen, rng: random.Random) -> None:
    """Replace ``hands[s]`` for each of ``seats`` (sizes kept, sorted) by a uniform draw among
    the deals of their cards that respect ``voids`` (bit per suit) and ``no_queen``."""
    pool = [c for s in seats for c in hands[s]]
    sizes = [len(hands[s]) for s in seats]
    banned = [_banned(voids[s], no_queen[s]) for s in seats]  # per seat, a mask of cards it cannot hold
    for _ in range(_TRIES):
        rng.shuffle(pool)
        at, ok = 0, True
        for size, ban in zip(sizes, banned):
            for c in pool[at:at + size]:
                if ban >> c & 1:
                    ok = False
                    break
            if not ok:
                break
            at += size
        if ok:
            at = 0
            for s, size in zip(seats, sizes):
                hands[s] = sorted(pool[at:at + size])
                at += size
            return
    new = _counted(pool, sizes, banned, rng)
    for s, cards in zip(seats, new):
        hands[s] = sorted(cards)


def _banned(void_suits: int, no_queen: bool) -> int:
    mask = 0
    for suit in range(4):
        if void_suits >> suit & 1:
            mask |= 0xFF << (8 * suit)
    if no_queen:
        mask |= 1 << QUEEN_OF_SPADES
    return mask


def _counted(pool: list[int], sizes: list[int], banned: list[int], rng: random.Random) -> list[list[int]]:
    """The exact uniform draw: classes of interchangeable cards (same seats allowed), the
    number of completions counted by a memoised recursion over the classes."""
    classes: dict[tuple[bool, ...], list[int]] = {}
    for c in sorted(pool):
        allowed = tuple(not ban >> c & 1 for ban in banned)
        classes.setdefault(allowed, []).append(c)
    groups = list(classes.items())
    memo: dict[tuple, int] = {}

    def splits(k: int, caps: tuple[int, ...], allowed: tuple[bool, ...], i: int = 0):
        if i == len(caps) - 1:
            if k <= caps[i] and (k == 0 or allowed[i]):
                yield (k,)
            return
        top = min(k, caps[i]) if allowed[i] else 0
        for x in range(top + 1):
            for rest in splits(k - x, caps, allowed, i + 1):
                yield (x, *rest)

    def ways(i: int, caps: tuple[int, ...]) -> int:
        if i == len(groups):
            return int(not any(caps))
        key = (i, caps)
        if key not in memo:
            allowed, cards = groups[i]
            memo[key] = sum(_multinomial(len(cards), split) * ways(i + 1, _minus(caps, split))
                            for split in splits(len(cards), caps, allowed))
        return memo[key]

    caps = tuple(sizes)
    total = ways(0, caps)
    if total == 0:
        raise ValueError("no deal of the unseen cards agrees with the public facts")
    out: list[list[int]] = [[] for _ in sizes]
    for i, (allowed, cards) in enumerate(groups):
        options = [(split, _multinomial(len(cards), split) * ways(i + 1, _minus(caps, split)))
                   for split in splits(len(cards), caps, allowed)]
        pick = rng.randrange(sum(w for _, w in options))
        for split, w in options:  # noqa: B007 (the split drawn is used after the loop)
            if pick < w:
                break
            pick -= w
        cards = cards[:]
        rng.shuffle(cards)
        at = 0
        for seat, x in enumerate(split):
            out[seat] += cards[at:at + x]
            at += x
        caps = _minus(caps, split)
    return out


def _minus(caps: tuple[int, ...], split: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(a - b for a, b in zip(caps, split))


def _multinomial(n: int, parts: tuple[int, ...]) -> int:
    out = 1
    for x in parts:
        out *= comb(n, x)
        n -= x
    return out
