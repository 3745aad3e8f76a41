"""What every Uno card player here shares: turning a view into card codes, naming a
colour, and the moves around the choice of card.

A ``CardPlayer`` only decides *which playable card* to play (``pick``). Everything
else is common, as in the write-up:

- it plays a card whenever it can, and draws only when it cannot;
- after drawing it plays the drawn card if it can, else passes;
- a wild names the colour it holds most (ties: the colour whose cards are worth
  more, then red, yellow, green, blue), which is also how it names the colour of
  a Wild turned up to start;
- with ``uno_call`` it always calls UNO and always catches a player who did not;
- with ``wd4_challenge`` it never challenges (the write-up's players did not know
  the option); search agents decide that for themselves.

Decisions work on integer codes (``choose(hand, legal, rng)``), so training loops,
benchmarks and search rollouts call exactly the code that ``act`` calls.
"""
from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Sequence

from agents.base import Explanation
from engine.uno.actions import ACCEPT, ACTIONS, CATCH, CHALLENGE, CHOOSE, DRAW, Action, play_code
from engine.uno.cards import COLOUR_OF, COLOURED, POINTS_OF
from engine.uno.rules import PLAYS
from engine.uno.view import CODE_OF_ID


def hand_codes(observation: dict) -> list[int]:
    return [CODE_OF_ID[c] for c in observation["hand"]]


def best_colour(hand: Sequence[int], playing: int = -1) -> int:
    """The colour held most in ``hand`` once ``playing`` (a card code, or -1) has left it."""
    counts = [0, 0, 0, 0]
    points = [0, 0, 0, 0]
    for c in hand:
        colour = COLOUR_OF[c]
        if colour >= 0:
            counts[colour] += 1
            points[colour] += POINTS_OF[c]
    if playing >= 0 and playing < COLOURED:
        counts[COLOUR_OF[playing]] -= 1
        points[COLOUR_OF[playing]] -= POINTS_OF[playing]
    return max(range(4), key=lambda k: (counts[k], points[k], -k))


def playable_cards(legal: Sequence[int]) -> list[int]:
    """The distinct cards among the play actions of ``legal`` (codes, increasing)."""
    cards = []
    for a in legal:
        if a >= DRAW:
            break
        card = PLAYS[a][0]
        if card not in cards:
            cards.append(card)
    return cards


class CardPlayer(ABC):
    """Base of the Uno players that choose among playable cards by a value per card.

    Subclasses set ``name`` and ``label`` and define ``value(card, hand)`` (higher is
    played first; ties go to the lower card code) or override ``pick``.
    """

    name = ""
    label = "preference (higher is played first)"

    @abstractmethod
    def value(self, card: int, hand: Sequence[int]) -> float:
        """How much this player wants to play ``card`` now (higher first)."""

    def pick(self, cards: list[int], hand: Sequence[int], rng: random.Random) -> int:
        return max(cards, key=lambda c: (self.value(c, hand), -c))

    def choose(self, hand: Sequence[int], legal: Sequence[int], rng: random.Random) -> int:
        """The action code to play, given the own hand and the legal action codes."""
        first, last = legal[0], legal[-1]
        if last == CATCH:
            return CATCH
        if first < DRAW:
            card = self.pick(playable_cards(legal), hand, rng)
            colour = best_colour(hand, card) if card >= COLOURED else -1
            if len(hand) == 2:
                called = play_code(card, colour, uno=True)
                if called in legal:
                    return called
            return play_code(card, colour)
        if first == CHALLENGE:
            return ACCEPT
        if first >= CHOOSE:
            return CHOOSE + best_colour(hand)
        return first  # draw, or pass

    def held(self, observation: dict, rng: random.Random) -> list[int]:
        """The own hand of ``observation`` as ``choose`` takes it (card codes)."""
        return hand_codes(observation)

    def act(self, observation: dict, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        return ACTIONS[self.choose(self.held(observation, rng), [a.code for a in legal_actions], rng)]

    def explain(self, observation: dict, legal_actions: Sequence[Action]) -> Explanation:
        """The value of each playable card (the panel shows them against the play actions)."""
        hand = self.held(observation, random.Random(0))
        values = {a.id: float(self.value(PLAYS[a.code][0], hand)) for a in legal_actions if a.code < DRAW}
        note = "" if values else "no playable card: draws, or passes after drawing"
        return Explanation(self.label, values, note)
