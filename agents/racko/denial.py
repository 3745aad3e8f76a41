"""Denial: what a card this player discards is worth to the next player, who is offered it.

The next player's rack is hidden except the cards everybody saw it take from the discard pile
(``known``). Which of its slots were filled from the deck since the deal is public too
(``placed``): a dealt card is any card this player has not seen, a card placed from the deck is
one the next player chose for that slot, so it is drawn near the slot's share of the cards
(``target``). ``samples`` such racks are drawn from the cards this player has not seen; the
card's worth to the next player is the mean, over them, of how much its best slot lifts the
rack's score above taking it needs (Diablo's margin: what the network's player asks before it
takes a discard), or 0 when it would not take it.
"""
from __future__ import annotations

import numpy as np

from agents.racko.diablo import MARGIN, tries
from agents.racko.features import unseen_prefix


def target(slot: int, r: int, max_card: int) -> float:
    """The card slot ``slot`` (0-based) holds in an evenly spread rack (the features' ``t_i``)."""
    return slot * (max_card - 1) / r + 1


def next_seat_racks(view: dict, unseen: list[int], samples: int, rng: np.random.Generator) -> list[list[int]]:
    """``samples`` racks of the next player consistent with this seat's view (see the module)."""
    r, max_card = view["options"]["rack_size"], view["options"]["max_card"]
    nxt = (view["seat"] + 1) % len(view["turns"])
    rack = [0] * r
    for slot, card in view["known"][nxt]:
        rack[slot - 1] = card
    from_deck = {s - 1 for s in view["placed"][nxt] if s}
    hidden = [k for k in range(r) if not rack[k]]
    pool = np.array(unseen)
    width = max_card / r
    out = []
    for _ in range(samples):
        left = np.ones(len(pool), bool)
        filled = rack[:]
        for k in rng.permutation(hidden):
            if not left.any():
                break
            w = left * (np.exp(-np.abs(pool - target(int(k), r, max_card)) / width) if k in from_deck else 1.0)
            i = int(rng.choice(len(pool), p=w / w.sum()))
            filled[k], left[i] = int(pool[i]), False
        if all(filled):
            out.append(filled)
    return out


def worth_to_next(values, view: dict, cards: list[int], unseen: list[int], seen: list[int],
                  samples: int, rng: np.random.Generator) -> np.ndarray:
    """For each card: its mean worth to the next player (``values(racks, turns, prefix)``
    scores racks), 0 when the next player would not take it."""
    max_card = view["options"]["max_card"]
    nxt = (view["seat"] + 1) % len(view["turns"])
    racks = next_seat_racks(view, unseen, samples, rng)
    if not racks:
        return np.zeros(len(cards))
    margin = 1 / (MARGIN * len(racks[0]))
    every, sizes = list(racks), []
    for rack in racks:
        for card in cards:
            _slots, trial = tries(rack, card, max_card)
            sizes.append(len(trial) - 1)
            every.extend(trial[1:])
    scores = values(every, view["turns"][nxt], unseen_prefix(max_card, seen))
    now, tried = scores[:len(racks)], scores[len(racks):]
    starts = np.concatenate([[0], np.cumsum(sizes[:-1])]).astype(np.int64)
    best = np.maximum.reduceat(tried, starts).reshape(len(racks), len(cards))
    return np.maximum(best - now[:, None] - margin, 0.0).mean(axis=0)
