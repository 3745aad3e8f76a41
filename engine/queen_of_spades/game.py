"""Queen of Spades as a ``Game`` (docs/rules.md, section 5): options, the surface, reasons, hidden cards.

The rules are in ``engine.queen_of_spades.rules`` (a mutable ``Table``); this class
wraps them in the immutable interface every game shares: ``apply`` checks the card,
thaws the state into a table, plays it and freezes the result.
"""
from __future__ import annotations

import random
from collections import Counter

from engine.base import Game, GameError, GameType, IllegalActionError, Option, OptionError
from engine.queen_of_spades import view as views
from engine.queen_of_spades.actions import ACTIONS, ActionSyntaxError, Play, parse_action
from engine.queen_of_spades.cards import CARD_LABELS, DECK_SIZE, QUEEN_OF_SPADES, SUIT_SYMBOLS, labels
from engine.queen_of_spades.hidden import redeal
from engine.queen_of_spades.rules import PLAYERS, Rules, State, Table


class QueenOfSpades(Game[State, Play]):
    name = "queen_of_spades"
    title = "Queen of Spades"
    min_players = 4
    max_players = 4
    type = GameType(hidden_information=True, points_per_deal=True)
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

    # ----- starting -----
    def rules(self, options: dict | None) -> Rules:
        return Rules(**self.resolve_options(options))

    def new_match(self, players: int = 4, seed: int = 0, options: dict | None = None) -> State:
        self.check_players(players)
        return Table.new(seed, self.rules(options), single=False).freeze()

    def new_deal(self, players: int = 4, seed: int = 0, options: dict | None = None) -> State:
        self.check_players(players)
        return Table.new(seed, self.rules(options), single=True).freeze()

    # ----- the surface -----
    def current_player(self, state: State) -> int | None:
        return state.to_move

    def legal_actions(self, state: State) -> list[Play]:
        return [ACTIONS[c] for c in Table.thaw(state).legal()]

    def apply(self, state: State, action: Play) -> State:
        reason = self.illegal_reason(state, action)
        if reason is not None:
            raise IllegalActionError(getattr(action, "id", str(action)), reason)
        table = Table.thaw(state)
        table.play(action.card)
        return table.freeze()

    def is_over(self, state: State) -> bool:
        return state.to_move is None

    def deal_of(self, state: State) -> int:
        return state.deal

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
        try:
            return parse_action(action_id)
        except ActionSyntaxError as err:
            raise IllegalActionError(str(action_id), str(err)) from None

    def action_label(self, action: Play) -> str:
        return action.label

    def illegal_reason(self, state: State, action) -> str | None:
        """Why ``action`` may not be played now, in a person's words; None when it may."""
        if state.to_move is None:
            return "the match is over"
        if not isinstance(action, Play) or not isinstance(action.card, int) or not 0 <= action.card < DECK_SIZE:
            return "not a Queen of Spades action (like play:QS)"
        card, hand = action.card, state.hands[state.to_move]
        if card not in hand:
            return f"you do not hold {CARD_LABELS[card]}"
        if not state.trick:
            return None
        led = state.trick[0][1] >> 3
        follow = [c for c in hand if c >> 3 == led]
        if follow and card >> 3 != led:
            return f"you must follow {SUIT_SYMBOLS[led]}: you hold {labels(follow)}"
        if not follow and state.rules.forced_queen and QUEEN_OF_SPADES in hand and card != QUEEN_OF_SPADES:
            return (f"you cannot follow {SUIT_SYMBOLS[led]} and hold the Q♠: with forced_queen "
                    "you must play it")
        return None

    def why_illegal(self, state: State, action: Play) -> str:
        return self.illegal_reason(state, action) or "it is not among the legal actions now"

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
        played_by = [[] for _ in range(PLAYERS)]
        for _, plays in (*state.taken, (None, state.trick)):
            for seat, c in plays:
                played_by[seat].append(c)
        dealt = tuple(tuple(sorted(h + played_by[s])) for s, h in enumerate(hands))
        return state._replace(hands=tuple(map(tuple, hands)), dealt=dealt)

    # ----- JSON -----
    def to_json(self, state: State) -> dict:
        return views.to_json(state)

    def from_json(self, data: dict) -> State:
        try:
            state = views.from_json(data, self.rules(data["options"]))
        except GameError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise OptionError(f"not a Queen of Spades state: {err!r}") from None
        self._check(state)
        return state

    def _check(self, state: State) -> None:
        held = Counter(c for h in state.hands for c in h) + Counter(views.played_cards(state))
        if held != Counter(range(DECK_SIZE)):
            raise GameError("a Queen of Spades state must hold each of the 32 cards exactly once")
        if len(state.hands) != PLAYERS or len(state.scores) != PLAYERS or len(state.trick) >= PLAYERS:
            raise GameError("a Queen of Spades state has four hands and scores and at most three cards on the trick")
        if state.to_move is not None and not 0 <= state.to_move < PLAYERS:
            raise GameError("bad seat to move in a Queen of Spades state")
