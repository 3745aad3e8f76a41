"""The Deep Monte-Carlo player's view of a Yaniv decision: one feature row per legal action.

The actions are the call (when the hand may call) and every (group, source): a group the
hand can throw with the stock or a takeable card of the previous group, in the order of
``sage.discard_scores``. Each row holds what the seat knows and what the action leaves,
with the judgements of the players here as inputs:

- Sage's score of the throw (the hand expected after the next throw) and its gap to
  Sage's best; Pythia's reach chance (that the hand drawn to may call);
- a win chance per action: for the call, the belief that its total is strictly the
  lowest (``belief.lowest_chance``); for a throw, the race model's chance of winning by
  waiting from the hand it leaves (``race.win_chance``, the stock's cards averaged), the
  two numbers Pythia weighs;
- the hand's total and size before and after the throw, what is thrown and taken;
- the others (the nearest: fewest cards), their known cards and turns, whether one
  could call next turn, the turn, the unseen cards' values.

Everything comes from ``Worlds`` and ``Outlook``, which are built from the seat's view
(``of``) or, for the seat to move, from a table (``of_state``) with exactly that
information; a test checks that resampling the other hands leaves every row unchanged.

Row layout (``FEATURES`` columns, about 0..1):

  24  the seat: own total / 10, cards / 5, may call, the belief's call chance (0 when it
      may not call), turn / 20 (capped at 2), the nearest other's cards / 5, its known
      cards' total / 10, its known cards / 5, the others' most turns / 10 (capped at 2),
      threatened, other players - 1, the unseen cards by value (0 .. 10 and above, 11
      shares), their mean value / 10, stalled (the deal passed ``STALL_TURNS``)
  14  the action: call, stock, pile; thrown value / 10, thrown cards / 5, the card taken's
      value / 10; the rest's total / 10 and cards / 5; the total expected after the draw
      / 10; Sage's score / 10, its gap to the best / 10, Sage's best; reach chance; win chance
  54  the cards kept (the hand less the group thrown; the whole hand for the call)
  54  the cards thrown
"""
from __future__ import annotations

from itertools import permutations
from typing import NamedTuple

import numpy as np

from agents.yaniv.belief import lowest_chance
from agents.yaniv.common import STALL_TURNS, YANIV, Decision
from agents.yaniv.lookahead import Worlds
from agents.yaniv.race import Race, win_chance
from agents.yaniv.sage import Outlook, discard_scores, others_threaten, with_each_card
from engine.yaniv.cards import DECK_SIZE, RANK_OF, SUIT_OF

SEAT, ACTION = 24, 14
FEATURES = SEAT + ACTION + 2 * DECK_SIZE
BINS = 11

SUITS = 4


def renamed_card(card: int, suits: tuple[int, ...]) -> int:
    """The card with its suit renamed: suit s becomes ``suits[s]`` (a joker stays itself)."""
    return card if SUIT_OF[card] < 0 else suits[SUIT_OF[card]] * 13 + RANK_OF[card] - 1


def _renaming_columns() -> np.ndarray:
    """Per renaming of the suits (all 24, the identity first), where each column of a row goes."""
    maps = []
    for suits in permutations(range(SUITS)):
        cards = [renamed_card(c, suits) for c in range(DECK_SIZE)]
        cards_at = SEAT + ACTION
        maps.append(list(range(cards_at)) + [cards_at + c for c in cards] + [cards_at + DECK_SIZE + c for c in cards])
    return np.array(maps)


RENAMINGS = _renaming_columns()


def suits_renamed(x: np.ndarray) -> np.ndarray:
    """The rows ``x`` (n, FEATURES) under each renaming of the suits, stacked: (24 n, FEATURES),
    renaming k's rows at k n .. (k + 1) n. The rules treat the four suits alike, so a renamed row
    is the row of an equally good position (a test checks it on renamed views)."""
    out = np.empty((len(RENAMINGS),) + x.shape)
    for k, columns in enumerate(RENAMINGS):
        out[k][:, columns] = x
    return out.reshape(-1, x.shape[1])


class Seen(NamedTuple):
    """What the seat to move knows, in the two forms the players here read."""

    worlds: Worlds
    outlook: Outlook


def seen_of_view(view: dict) -> Seen:
    return Seen(Worlds.of(view), Outlook.of(view))


def seen_of_table(table) -> Seen:
    """For the seat to move of an ``engine.yaniv.rules.Table`` (or a state)."""
    return Seen(Worlds.of_state(table), Outlook.of_state(table))


def seat_row(seen: Seen, may_call: bool, call_chance: float) -> np.ndarray:
    worlds, outlook = seen
    values = outlook.values
    x = np.zeros(SEAT)
    x[0] = outlook.total(outlook.hand) / 10
    x[1] = len(outlook.hand) / 5
    x[2] = may_call
    x[3] = call_chance
    x[4] = min(2.0, outlook.turn / 20)
    count, known = min(outlook.others, key=lambda o: (o[0], sum(values[c] for c in o[1])))
    x[5] = count / 5
    x[6] = sum(values[c] for c in known) / 10
    x[7] = len(known) / 5
    x[8] = min(2.0, max(worlds.turns[s] for s in range(len(worlds.counts)) if s != worlds.seat) / 10)
    x[9] = others_threaten(outlook)
    x[10] = len(outlook.others) - 1
    pool = [min(values[c], BINS - 1) for c in outlook.unseen]
    if pool:
        x[11:11 + BINS] = np.bincount(pool, minlength=BINS)[:BINS] / len(pool)
        x[11 + BINS] = sum(values[c] for c in outlook.unseen) / len(pool) / 10
    x[12 + BINS] = outlook.turn >= STALL_TURNS
    return x


def candidates(seen: Seen) -> tuple[list[Decision], np.ndarray]:
    """The decisions open to the seat (the call first, when it may) and their feature rows."""
    worlds, outlook = seen
    values, hand, limit = outlook.values, outlook.hand, outlook.limit
    total = outlook.total(hand)
    may_call = total <= limit
    call = lowest_chance(worlds) if may_call else 0.0
    scores = discard_scores(outlook)
    best = min(scores.values())
    pool = outlook.unseen or tuple(c for c in range(DECK_SIZE) if c not in hand)
    race = Race(worlds, outlook)
    chances: dict[tuple[int, int, int], float] = {}

    def chance(base: int, cards: int, after: int) -> float:
        key = (base, cards, after)
        if key not in chances:
            chances[key] = win_chance(race.row(base, cards, after))
        return chances[key]

    decisions: list[Decision] = [YANIV] if may_call else []
    decisions += list(scores)
    x = np.zeros((len(decisions), FEATURES))
    x[:, :SEAT] = seat_row(seen, may_call, call)
    a = SEAT
    hand_bits = np.zeros(DECK_SIZE)
    hand_bits[list(hand)] = 1
    k = 0
    if may_call:
        x[0, a] = 1
        x[0, a + 6] = total / 10
        x[0, a + 7] = len(hand) / 5
        x[0, a + 8] = total / 10
        x[0, a + 13] = call
        x[0, a + ACTION:a + ACTION + DECK_SIZE] = hand_bits
        k = 1
    mean = sum(values[c] for c in pool) / len(pool)
    for (group, take), score in scores.items():
        row = x[k]
        rest = tuple(c for c in hand if c not in group)
        base = sum(values[c] for c in rest)
        after = with_each_card(rest, values)
        drawn = pool if take is None else (take,)
        row[a + 1 + (take is not None)] = 1
        row[a + 3] = sum(values[c] for c in group) / 10
        row[a + 4] = len(group) / 5
        row[a + 5] = 0 if take is None else values[take] / 10
        row[a + 6] = base / 10
        row[a + 7] = len(rest) / 5
        row[a + 8] = (base + (mean if take is None else values[take])) / 10
        row[a + 9] = score / 10
        row[a + 10] = (score - best) / 10
        row[a + 11] = score == best
        row[a + 12] = sum(values[c] <= limit - base for c in drawn) / len(drawn)
        row[a + 13] = sum(chance(base + values[c], len(rest) + 1, after[c]) for c in drawn) / len(drawn)
        row[a + ACTION + np.array(rest, dtype=int)] = 1
        row[a + ACTION + DECK_SIZE + np.array(group, dtype=int)] = 1
        k += 1
    return decisions, x
