"""Yaniv as a ``Game`` (docs/rules.md, section 4): options, reasons, labels, hidden cards.

The rules themselves are in ``engine.yaniv.rules`` (a mutable ``Table``); ``engine.kernel.TableGame``
makes the ``Game`` of it (``apply``, ``legal_actions``, new matches, JSON), and ``engine.yaniv.view``
says what a seat sees and writes the state's JSON.
"""
from __future__ import annotations

import random

from engine.base import GameType, Option
from engine.kernel import TableGame
from engine.yaniv import view as views
from engine.yaniv.actions import Action, CallYaniv, Discard, action_of, parse_action
from engine.yaniv.cards import CARD_IDS, FACE_VALUES
from engine.yaniv.groups import GroupError, arrange, describe, kind, takeable
from engine.yaniv.rules import Rules, State, Table


class Yaniv(TableGame[State, Action]):
    name = "yaniv"
    title = "Yaniv"
    min_players = 2
    max_players = 5
    type = GameType(hidden_information=True)
    table = Table
    rules_type = Rules
    state_json = views.STATE_JSON
    summary = ("Keep your hand low: throw a card, a set or a run and draw one; call Yaniv at 7 or "
               "less, but beware of Assaf. 54 cards with two jokers; matches to 200 with halving.")
    options = (
        Option("face_values", "ten", "what J, Q, K count: ten (10 each) or rank (11, 12, 13)",
               choices=FACE_VALUES, title="What J, Q and K count",
               choice_titles=("10 each", "11, 12 and 13")),
        Option("hand_size", 5, "cards dealt to each player", minimum=1, maximum=7, title="Cards dealt"),
        Option("yaniv_limit", 7, "Yaniv may be called with a hand totalling at most this", minimum=0,
               maximum=50, title="Highest hand that may call Yaniv"),
        Option("assaf_penalty", 30, "what a caller who is not strictly lowest adds on top of their hand",
               minimum=0, maximum=200, title="Assaf penalty"),
        Option("halving", True, "a match score landing exactly on a multiple of 50 drops by 50",
               title="Halving at 50, 100, 150…"),
        Option("elimination", 200, "a player whose match score goes above this is out", minimum=1,
               maximum=1_000, title="Out above this many points"),
    )
    lengths = {"one deal": {"elimination": 1}, "short match": {"elimination": 100},
               "full match": {"elimination": 200}}  # one deal: every loser holds more than 1 in practice

    # ----- the surface -----
    def scores(self, state: State) -> list[float]:
        """Higher is better: minus the penalty points (of the single deal for ``new_deal``,
        of the whole match otherwise)."""
        if state.single_deal and state.results:
            return [-float(p) for p in state.results[-1].added]
        return [-float(s) for s in state.scores]

    def winners(self, state: State) -> list[int]:
        return views.winners(state)

    def observe(self, state: State, player: int | None, reveal: bool = False) -> dict:
        return views.observe(state, player, reveal)

    def illegal_reason(self, state: State, action: Action) -> str | None:
        """Why ``action`` is not legal now, or None when it is (the same answer as
        ``action in legal_actions(state)``, without listing them all)."""
        seat = state.to_move
        if seat is None:
            return "the match is over"
        if isinstance(action, CallYaniv):
            total = state.rules.total(state.hands[seat])
            if total > state.rules.yaniv_limit:
                return f"Yaniv needs a hand of {state.rules.yaniv_limit} or less; yours is {total}"
            return None
        if not isinstance(action, Discard):
            return "not a Yaniv action"
        hand = state.hands[seat]
        cards = action.indices
        missing = [CARD_IDS[c] for c in cards if c not in hand]
        if missing:
            return f"you do not hold {', '.join(missing)}"
        try:
            canonical = arrange(cards)
        except GroupError as err:
            return str(err)
        if canonical != cards:
            return "list the group as " + ",".join(CARD_IDS[c] for c in canonical)
        if action.take is None:
            return None
        allowed = takeable(state.top)
        if action.take.index not in allowed:
            where = "a run's first or last card" if kind(state.top) == "run" else "a card"
            return (f"you may take the stock or {where} of the group thrown last: "
                    + ", ".join(CARD_IDS[c] for c in allowed))
        return None

    def why_illegal(self, state: State, action: Action) -> str:
        return self.illegal_reason(state, action) or "it is not among the legal actions now"

    def resample_hidden(self, state: State, player: int | None, rng: random.Random) -> State:
        """The others' cards that ``player`` has not seen taken from the pile, and the
        stock, dealt again at random (counts kept). Cards known from the pile stay."""
        if state.to_move is None:
            return state
        seats = [s for s in range(state.players) if s != player]
        hidden = {s: [c for c in state.hands[s] if c not in state.known[s]] for s in seats}
        pool = [c for s in seats for c in hidden[s]] + list(state.stock)
        rng.shuffle(pool)
        hands = list(state.hands)
        pos = 0
        for s in seats:
            n = len(hidden[s])
            hands[s] = tuple(sorted(state.known[s] + tuple(pool[pos:pos + n])))
            pos += n
        return State(state.rules, state.seed, state.players, state.single_deal, state.deal, tuple(hands),
                     state.known, tuple(pool[pos:]), state.below, state.top, state.top_by, state.to_move,
                     state.turn, state.reshuffles, state.scores, state.out, state.results)

    # ----- ids and labels -----
    def parse_action(self, action_id: str) -> Action:
        return parse_action(action_id)

    def action(self, code: int) -> Action:
        return action_of(code)

    def action_label(self, action: Action) -> str:
        if isinstance(action, CallYaniv):
            return "Yaniv!"
        try:
            thrown = describe(arrange(action.indices))
        except GroupError:
            thrown = ", ".join(c.label() for c in action.drop)
        source = "the stock" if action.take is None else action.take.label()
        return f"throw {thrown}, take {source}"
