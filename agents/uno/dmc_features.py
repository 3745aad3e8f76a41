"""The Deep Monte-Carlo Uno player's view of a decision: one feature row per candidate action.

The decisions it values (``candidate_codes``): at its turn, every card it may play, drawing
only when none can be played (as the write-up's players: a first version that valued
drawing too preferred it while untrained, and its deals stalled); holding the card it just
drew, playing it or passing. A wild names the colour it holds most, as the write-up's
players do (a version that valued each colour named the one it held most in 13% of its
wilds after 4,096 training deals, worse than chance: Monte-Carlo targets teach only the
actions taken, and its untrained preference was rarely explored). UNO is always called when it can be (a play without the call
is not a candidate) and a missed UNO is always caught; the rest (accepting a Wild Draw
Four, naming the colour of a Wild turned up to start) follows the write-up's players
(``agents.uno.play``).

Each row describes the hand the action leaves (the *afterstate*) and what the seat knows:
its own hand, the discard pile, the colour in force and the top card, every other hand's
size in the order they play after it, the players, the draw pile. Never a card it has not
seen: ``Seen`` is built from a rules table (training) or a view (serving) with exactly
that information, and a test checks that resampling the other seats' hidden cards leaves
every row unchanged.

Row layout (about 0..1):

  54  the afterstate hand, count of each card / its copies in a deck
  7   the afterstate hand: cards / 10, points / 100, cards of each colour / 7, wilds / 4
  54  the cards it has not seen (the others' hands and the draw pile), count / copies
  15  the top card's rank, one-hot (before the action)
  4   the colour in force, one-hot (before the action)
  12  the next four seats in playing order (the direction in force): cards / 10,
      holds one card, holds two (zeros for an empty place)
  4   players (2, 3, 4, 5 or more), one-hot
  2   draw pile / 100; 1 when it holds a card just drawn
  3   the action's kind, one-hot: play, draw, pass
  54  the card played, one-hot
  4   the colour in force after the action, one-hot
  1   its cards of that colour after the action / 7
  3   1 if the action plays the card BetterOffensive, Tactician or Defensive would play
      from this hand (the rules' choices as hints: a first version without them won 36%
      of whole games against BetterOffensive after 24,000 training deals)
"""
from __future__ import annotations

from typing import NamedTuple, Sequence

import numpy as np

from agents.uno.heuristics import BetterOffensive, Defensive
from agents.uno.play import best_colour
from agents.uno.tactician import Tactician
from engine.uno.actions import ACCEPT, CATCH, CHOOSE, DRAW, PASS, UNO_FLAG
from engine.uno.cards import COLOUR_OF, COLOURED, COPIES, DISTINCT, POINTS_OF, RANK_OF
from engine.uno.rules import CHALLENGED, DRAWN, OPENING, PHASES, PLAYS
from engine.uno.view import CODE_OF_ID, colour_code

PLAY_KIND, DRAW_KIND, PASS_KIND = range(3)
SEATS_SHOWN = 4

HAND, SUMMARY, UNSEEN, TOP, COLOUR, OTHERS, PLAYERS, PILE, KIND, CARD, AFTER, AFTER_HELD, HINTS = (
    0, 54, 61, 115, 130, 134, 146, 150, 152, 155, 209, 213, 214)
FEATURES = 217
HINTERS = (BetterOffensive(), Tactician(), Defensive())

_COPIES = np.asarray(COPIES, np.float64)
_POINTS = np.asarray(POINTS_OF, np.float64)
_COLOUR = np.zeros((DISTINCT, 4))  # [card, colour]: 1 for a coloured card's colour
for _c in range(COLOURED):
    _COLOUR[_c, COLOUR_OF[_c]] = 1.0


class Seen(NamedTuple):
    """What one seat knows at its decision."""

    hand: tuple[int, ...]  # its cards (codes)
    drawn: int  # the card it just drew and may play (phase "drawn"), else -1
    discard: tuple[int, ...]  # the discard pile (codes), the top card last
    colour: int  # the colour in force
    others: tuple[int, ...]  # the other hands' sizes, in the order they play after it
    pile: int  # cards in the draw pile
    players: int


def _order(seat: int, direction: int, counts: Sequence[int]) -> tuple[int, ...]:
    n = len(counts)
    return tuple(counts[(seat + k * direction) % n] for k in range(1, n))


def seen_of_table(table, seat: int) -> Seen:
    """``Seen`` for ``seat`` on an ``engine.uno.rules.Table`` (the seat to act)."""
    hand = table.hands[seat]
    drawn = hand[-1] if table.phase == DRAWN and table.turn == seat else -1
    return Seen(tuple(hand), drawn, tuple(table.discard), table.colour,
                _order(seat, table.direction, [len(h) for h in table.hands]), len(table.pile), table.players)


def seen_of_view(view: dict) -> Seen:
    """``Seen`` from a seat's view (``Uno.observe``)."""
    drawn = view["drawn"]
    return Seen(tuple(CODE_OF_ID[c] for c in view["hand"]), -1 if drawn is None else CODE_OF_ID[drawn],
                tuple(CODE_OF_ID[c] for c in view["discards"]), colour_code(view["colour"]),
                _order(view["seat"], view["direction"], view["hand_counts"]), view["draw_pile"], view["players"])


def rule_action(phase: int, legal: Sequence[int], hand: Sequence[int]) -> int | None:
    """The action taken without valuing (see the module docstring), or None when the
    network decides. ``phase`` is the rules' phase code."""
    if legal[-1] == CATCH:
        return CATCH
    if phase == CHALLENGED:
        return ACCEPT
    if phase == OPENING:
        return CHOOSE + best_colour(hand)
    return None


def phase_code(view: dict) -> int:
    return PHASES.index(view["phase"])


def candidate_codes(legal: Sequence[int], hand: Sequence[int]) -> list[int]:
    """The actions the network values: the plays (only those calling UNO when it can be
    called; a wild naming the colour ``hand`` holds most); drawing only when nothing can be
    played, passing on a card just drawn."""
    plays = [a for a in legal if UNO_FLAG <= a < DRAW] or [a for a in legal if a < DRAW]
    if not plays:
        return list(legal)
    out = []
    for a in plays:
        card, colour = PLAYS[a][0], PLAYS[a][1]
        if card < COLOURED or colour == best_colour(hand, card):
            out.append(a)
    return out + [a for a in legal if a == PASS]


def state_row(seen: Seen) -> tuple[np.ndarray, np.ndarray]:
    """The row's state part (the hand as held now) and the hand's counts by card."""
    held = np.bincount(np.asarray(seen.hand, np.int64), minlength=DISTINCT).astype(np.float64)
    gone = np.bincount(np.asarray(seen.discard, np.int64), minlength=DISTINCT)
    x = np.zeros(FEATURES)
    x[UNSEEN:UNSEEN + DISTINCT] = (_COPIES - held - gone) / _COPIES
    x[TOP + RANK_OF[seen.discard[-1]]] = 1.0
    if seen.colour >= 0:
        x[COLOUR + seen.colour] = 1.0
    for k, size in enumerate(seen.others[:SEATS_SHOWN]):
        x[OTHERS + 3 * k:OTHERS + 3 * k + 3] = size / 10, size == 1, size == 2
    x[PLAYERS + min(seen.players, 5) - 2] = 1.0
    x[PILE] = seen.pile / 100
    x[PILE + 1] = seen.drawn >= 0
    return x, held


def rows(seen: Seen, codes: Sequence[int]) -> np.ndarray:
    """One row per action code in ``codes`` (plays, draw, pass)."""
    base, held = state_row(seen)
    k = len(codes)
    x = np.tile(base, (k, 1))
    hands = np.tile(held, (k, 1))
    colours = np.full(k, seen.colour)
    for i, a in enumerate(codes):
        if a < DRAW:
            card, colour = PLAYS[a][0], PLAYS[a][1]
            hands[i, card] -= 1.0
            x[i, KIND + PLAY_KIND] = 1.0
            x[i, CARD + card] = 1.0
            colours[i] = colour
        else:
            x[i, KIND + (DRAW_KIND if a == DRAW else PASS_KIND)] = 1.0
    x[:, HAND:HAND + DISTINCT] = hands / _COPIES
    by_colour = hands @ _COLOUR
    x[:, SUMMARY] = hands.sum(axis=1) / 10
    x[:, SUMMARY + 1] = hands @ _POINTS / 100
    x[:, SUMMARY + 2:SUMMARY + 6] = by_colour / 7
    x[:, SUMMARY + 6] = hands[:, COLOURED:].sum(axis=1) / 4
    known = colours >= 0
    rows_known = np.nonzero(known)[0]
    x[rows_known, AFTER + colours[known]] = 1.0
    x[rows_known, AFTER_HELD] = by_colour[rows_known, colours[known]] / 7
    cards = [PLAYS[a][0] if a < DRAW else -1 for a in codes]
    playable = sorted({c for c in cards if c >= 0})
    if playable:
        for j, rule in enumerate(HINTERS):
            x[:, HINTS + j] = [c == rule.pick(playable, seen.hand, None) for c in cards]  # type: ignore[arg-type]
    return x

