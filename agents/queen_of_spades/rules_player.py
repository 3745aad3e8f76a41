"""The rule player: a sensible Queen of Spades player written as rules, not learned.

It scores every legal card (higher = better) in one of four situations and plays the
best; ties go to the lower card index. ``decide(seen)`` returns the scores and a
one-line reason, on ints (``agents.queen_of_spades.seen``), so simulations call it too.

- **Taking every trick**: it has taken every trick so far (at least one) and leads
  with only winners left (no unseen card of a suit is above its card): it leads its
  highest winner and takes the rest.
- **Leading**: it leads the card least likely to win the trick, weighed by what
  winning would cost: the Q♠ still out (a player who cannot follow may drop it on
  the trick; leading A♠ or K♠ may catch it), and the tricks near the end (the
  winner of the seventh trick leads the last). It never leads the Q♠ while a higher
  spade is still out unless nothing else is left; holding the Q♠ itself it prefers
  its shortest other suit, to make a void to drop the queen into.
- **Following suit**: when taking the trick is safe (the Q♠ is neither in it nor can
  come, and it is not the last trick), it gets rid of its highest card. Otherwise it
  ducks with its highest card below the winning one; if every card it has wins, it
  plays its highest when it is last to play (it takes the trick anyway) and its
  lowest otherwise (a later player may still go over). When another player has taken
  every trick so far (three or more), it goes over them if it can, to stop them.
- **Discarding** (it cannot follow): the Q♠ first, then A♠ and K♠ while the Q♠ is
  still out, then the card most likely to win a trick later (fewest unseen cards
  above it), from its shortest suit.
"""
from __future__ import annotations

import random
from typing import Sequence

from agents.base import Explanation
from agents.queen_of_spades.seen import Seen, of_view
from engine.queen_of_spades.actions import ACTIONS
from engine.queen_of_spades.cards import CARD_LABELS, QUEEN_OF_SPADES, SUIT_SYMBOLS

QS = QUEEN_OF_SPADES
_ACE_KING_SPADES = (8, 9)


def above(card: int, mask: int) -> int:
    """How many cards of ``mask`` are in ``card``'s suit and above it (a lower index)."""
    low = card & ~7
    return ((mask >> low) & ((1 << (card - low)) - 1)).bit_count()


def suit_count(cards: Sequence[int], suit: int) -> int:
    return sum(1 for c in cards if c >> 3 == suit)


def decide(s: Seen) -> tuple[dict[int, float], str]:
    """Scores of the legal cards (higher = better) and the reason for the best, in words."""
    legal = s.legal
    if len(legal) == 1:
        return {legal[0]: 0.0}, "its only legal card"
    unseen = s.unseen
    queen_out = bool(unseen >> QS & 1)  # another player holds the Q♠
    if not s.trick:
        if s.tricks_done and s.tricks[s.seat] == s.tricks_done and all(above(c, unseen) == 0 for c in s.hand):
            return {c: 7 - (c & 7) for c in legal}, "has taken every trick and holds only winners: takes the rest"
        return _lead(s, unseen, queen_out)
    led = s.trick[0][1] >> 3
    if legal[0] >> 3 == led:
        return _follow(s, led, unseen, queen_out)
    return _discard(s, unseen, queen_out)


def _lead(s: Seen, unseen: int, queen_out: bool) -> tuple[dict[int, float], str]:
    others = [p for p in range(4) if p != s.seat]
    late = 1.5 if s.tricks_done >= 5 else 0.0
    scores = {}
    for c in s.legal:
        suit = c >> 3
        higher = above(c, unseen)
        if all(s.voids[p] >> suit & 1 for p in others) or not higher:
            win = 1.0
        else:
            win = 0.5 ** higher
        danger = 0.3 + late
        if queen_out:
            danger += 1.0
            if c in _ACE_KING_SPADES:
                danger += 3.0
        cost = win * danger
        if c == QS:
            cost += 10.0 if higher else 20.0  # leading the queen: only when nothing else is left
        elif not queen_out and QS in s.hand:
            cost -= 0.05 * (8 - suit_count(s.hand, suit))  # a short suit, to make a void for the queen
        scores[c] = -cost - 0.001 * (c & 7)
    best = max(scores, key=scores.__getitem__)
    higher = above(best, unseen)
    why = (f"leads {CARD_LABELS[best]}: {higher} unseen card{'s' if higher != 1 else ''} above it, "
           "least likely to win a costly trick" if higher else
           f"leads {CARD_LABELS[best]}: taking this trick costs little now")
    return scores, why


def _follow(s: Seen, led: int, unseen: int, queen_out: bool) -> tuple[dict[int, float], str]:
    trick, legal = s.trick, s.legal
    win_seat, best = trick[0]
    for seat, c in trick:
        if c >> 3 == led and c < best:
            win_seat, best = seat, c
    last_to_play = len(trick) == 3
    queen_in = any(c == QS for _, c in trick)
    queen_may_come = queen_out and not last_to_play
    winners = [c for c in legal if c < best]
    duckers = [c for c in legal if c > best]
    chaser = next((p for p in range(4) if p != s.seat and s.tricks_done >= 3 and s.tricks[p] == s.tricks_done),
                  None)
    if chaser is not None and winners and (win_seat == chaser or all(p != chaser for p, _ in trick)):
        card = min(winners) if not last_to_play else max(winners)  # surest, or cheapest when last
        return ({c: (10.0 if c == card else 0.0) - 0.001 * c for c in legal},
                f"seat {chaser} has taken every trick: goes over with {CARD_LABELS[card]} to stop them")
    safe = not queen_in and not queen_may_come and s.tricks_done < 7 and QS not in s.hand
    if safe:
        return ({c: -float(c) for c in legal},
                f"no Q♠ can reach this trick: gets rid of its highest {SUIT_SYMBOLS[led]}, {CARD_LABELS[min(legal)]}")
    if duckers:
        return ({c: (-float(c) if c > best else -100.0 - c) for c in legal},
                f"ducks under {CARD_LABELS[best]} with {CARD_LABELS[min(duckers)]}")
    if last_to_play:
        return {c: -float(c) for c in legal}, f"takes the trick anyway: plays its highest, {CARD_LABELS[min(legal)]}"
    return ({c: float(c) for c in legal},
            f"every card it has wins: plays its lowest, {CARD_LABELS[max(legal)]}, hoping to be overtaken")


def _discard(s: Seen, unseen: int, queen_out: bool) -> tuple[dict[int, float], str]:
    hand = s.hand
    scores = {}
    for c in s.legal:
        if c == QS:
            score = 100.0
        elif queen_out and c in _ACE_KING_SPADES:
            score = 50.0 - c
        else:
            score = 10.0 - above(c, unseen) - 0.1 * suit_count(hand, c >> 3) - 0.001 * (c & 7)
        scores[c] = score
    best = max(scores, key=scores.__getitem__)
    if best == QS:
        why = "cannot follow: drops the Q♠ on another player's trick"
    elif queen_out and best in _ACE_KING_SPADES:
        why = f"cannot follow: drops {CARD_LABELS[best]}, which could catch the Q♠ later"
    else:
        why = f"cannot follow: drops {CARD_LABELS[best]}, its card likeliest to win a trick later"
    return scores, why


def choose(s: Seen) -> int:
    scores, _ = decide(s)
    return max(s.legal, key=lambda c: (scores[c], -c))


class RulePlayer:
    """The rule player as an agent (see the module docstring)."""

    name = "rules"

    def act(self, observation: dict, legal_actions: Sequence, rng: random.Random):
        return ACTIONS[choose(of_view(observation, [a.card for a in legal_actions]))]

    def explain(self, observation: dict, legal_actions: Sequence) -> Explanation:
        seen = of_view(observation, [a.card for a in legal_actions])
        scores, why = decide(seen)
        order = sorted(scores, key=lambda c: (scores[c], -c))  # worst first; the last is played
        top = max(1, len(order) - 1)
        return Explanation("preference (1 = played, 0 = last choice)",
                           {ACTIONS[c].id: round(k / top, 3) if len(order) > 1 else 1.0 for k, c in enumerate(order)}, why)
