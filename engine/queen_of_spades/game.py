"""Queen of Spades as a ``Game`` (docs/rules.md, section 5): options, reasons, labels, hidden cards.

The rules are in ``engine.queen_of_spades.rules`` (a mutable ``Table``); ``engine.kernel.TableGame``
makes the ``Game`` of it (``apply``, ``legal_actions``, new matches, JSON), and
``engine.queen_of_spades.view`` says what a seat sees and writes the state's JSON.
"""
from __future__ import annotations

import random

from engine.base import GameType, Option
from engine.kernel import TableGame
from engine.queen_of_spades import view as views
from engine.queen_of_spades.actions import ACTIONS, Play, parse_action
from engine.queen_of_spades.cards import CARD_LABELS, DECK_SIZE, QUEEN_OF_SPADES, SUIT_SYMBOLS, labels
from engine.queen_of_spades.hidden import redeal
from engine.queen_of_spades.rules import PLAYERS, Rules, State, Table


class QueenOfSpades(TableGame[State, Play]):
    name = "queen_of_spades"
    title = "Queen of Spades"
    min_players = 4
    max_players = 4
    type = GameType(hidden_information=True, points_per_deal=True)
    table = Table
    rules_type = Rules
    actions = ACTIONS
    state_json = views.STATE_JSON
    summary = ("Grasobern: 4 players, 32 cards, 8 each, follow suit, no trumps. Do not take the trick "
               "with the Q♠, nor the last trick, unless you take every trick. Points per deal sum to zero.")
    options = (
        Option("deals", 8, "Deals in a match (cumulative points).", minimum=1, maximum=1000,
               title="Deals in a match"),
        Option("forced_queen", False, "A player who cannot follow suit and holds the Q♠ must play it.",
               title="The Q♠ must be played when you cannot follow suit"),
        Option("score_limit", 0, "End the match early after a deal leaving someone at +limit or −limit "
               "points (0: off).", minimum=0, maximum=1000, title="Stop early at this many points"),
    )
    lengths = {"one deal": {"deals": 1}, "short match": {"deals": 4}, "full match": {"deals": 8}}

    # ----- the kernel's hooks -----
    def decode(self, data: dict) -> State:
        state = self.state_json.from_json(data, rules=self.rules(PLAYERS, data["options"]), played=0)
        return state._replace(played=views.played_mask(state.trick, state.taken))


    # ----- the surface -----
    def scores(self, state: State) -> list[float]:
        """The deal's points for a single deal (``new_deal``), the match totals otherwise."""
        if state.single and state.results:
            return [float(p) for p in state.results[-1].points]
        return [float(s) for s in state.scores]

    def winners(self, state: State) -> list[int]:
        return views.winners(state)

    def observe(self, state: State, player: int | None, reveal: bool = False) -> dict:
        return views.observe(state, player, reveal)

    def parse_action(self, action_id: str) -> Play:
        return parse_action(action_id)

    def action_label(self, action: Play) -> str:
        return action.label

    def why_illegal(self, state: State, action: Play) -> str:
        """Why ``action`` may not be played now, in a person's words."""
        if state.to_move is None:
            return "the match is over"
        if not isinstance(action, Play) or not isinstance(action.card, int) or not 0 <= action.card < DECK_SIZE:
            return "not a Queen of Spades action (like play:QS)"
        card, hand = action.card, state.hands[state.to_move]
        if card not in hand:
            return f"you do not hold {CARD_LABELS[card]}"
        if not state.trick:
            return "it is not among the legal actions now"
        led = state.trick[0][1] >> 3
        follow = [c for c in hand if c >> 3 == led]
        if follow and card >> 3 != led:
            return f"you must follow {SUIT_SYMBOLS[led]}: you hold {labels(follow)}"
        if not follow and state.rules.forced_queen and QUEEN_OF_SPADES in hand and card != QUEEN_OF_SPADES:
            return (f"you cannot follow {SUIT_SYMBOLS[led]} and hold the Q♠: with forced_queen "
                    "you must play it")
        return "it is not among the legal actions now"

    # ----- hidden information -----
    def resample_hidden(self, state: State, player: int | None, rng: random.Random) -> State:
        """Every card ``player`` cannot see (the other hands of the deal in play) dealt again
        uniformly among the deals that keep each hand's size and what play has shown: a seat
        that failed to follow a suit holds none of it (``engine.queen_of_spades.hidden``)."""
        if state.to_move is None:
            return state
        hands = [list(h) for h in state.hands]
        seats = [s for s in range(PLAYERS) if s != player]
        redeal(hands, seats, state.voids, state.no_queen, rng)
        played_by: list[list[int]] = [[] for _ in range(PLAYERS)]
        for _, plays in (*state.taken, (None, state.trick)):
            for seat, c in plays:
                played_by[seat].append(c)
        dealt = tuple(tuple(sorted(h + played_by[s])) for s, h in enumerate(hands))
        return state._replace(hands=tuple(map(tuple, hands)), dealt=dealt)
