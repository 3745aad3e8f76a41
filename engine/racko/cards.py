"""Rack-O cards (docs/rules.md, section 3): the ints 1..max_card, and what a rack of them scores.

A rack is a sequence of cards, index 0 = slot 1 (the front, lowest) ... the back slot last.
These are plain functions of a rack, for the rules and the agents alike.
"""
from __future__ import annotations

from typing import Sequence

RUN_BONUS = {3: 50, 4: 100, 5: 200}  # 6 or more: 400


def all_cards(max_card: int) -> range:
    """Every card of a match whose highest card is ``max_card``, in order."""
    return range(1, max_card + 1)


def is_racko(rack: Sequence[int]) -> bool:
    """True when the rack ascends strictly from slot 1 to the back."""
    prev = 0
    for c in rack:
        if c <= prev:
            return False
        prev = c
    return True


def ascending_prefix(rack) -> int:
    """How many cards, from slot 1, ascend before the first break (at least 1)."""
    k, r = 1, len(rack)
    while k < r and rack[k - 1] < rack[k]:
        k += 1
    return k


def longest_run(rack) -> int:
    """The longest run of consecutive numbers in adjacent slots (21-22-23 -> 3)."""
    best = run = 1
    for i in range(1, len(rack)):
        run = run + 1 if rack[i] == rack[i - 1] + 1 else 1
        if run > best:
            best = run
    return best


def run_bonus(rack) -> int:
    """The bonus for the longest run (option ``bonus``): 3 -> 50, 4 -> 100, 5 -> 200, 6+ -> 400."""
    run = longest_run(rack)
    return 0 if run < 3 else RUN_BONUS.get(run, 400)
