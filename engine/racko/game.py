"""Rack-O as a ``Game`` (docs/rules.md, section 3): options, reasons, labels, hidden cards.

The rules themselves are in ``engine.racko.rules`` (a mutable ``Table``); ``engine.kernel.TableGame``
makes the ``Game`` of it (``apply``, ``legal_actions``, new matches, JSON), and ``engine.racko.view``
says what a seat sees and writes the state's JSON.
"""
from __future__ import annotations

import random

from engine.base import GameType, Option
from engine.kernel import TableGame
from engine.racko import view as views
from engine.racko.actions import ACTIONS, DISCARD, DRAW_DECK, DRAW_DISCARD, MAX_RACK, Action, label, parse_action
from engine.racko.rules import DRAW, FROM_DISCARD, FROM_NONE, OVER, Rules, State, Table, fewest_cards


class Racko(TableGame[State, Action]):
    name = "racko"
    title = "Rack-O"
    min_players = 2
    max_players = 4
    type = GameType(hidden_information=True, actions_per_move=2)
    table = Table
    rules_type = Rules
    actions = ACTIONS
    state_json = views.STATE_JSON
    summary = ("Cards 1..N; put your rack of 10 in ascending order from front to back by drawing "
               "from the deck or the discard pile and replacing rack cards. The first in order calls "
               "Rack-O (75 points); the others score 5 per card in order from the front. Match to 500.")
    options = (
        Option("rack_size", 10, "slots in each rack (the write-up's experiments also use 5)",
               minimum=3, maximum=MAX_RACK, title="Slots in a rack"),
        Option("max_card", 0, "highest card (cards 1..max_card); 0 = (players + 2) · rack_size", minimum=0,
               maximum=400, title="Highest card"),
        Option("max_turns", 1500, "turns (all seats) after which a deal ends with no Rack-O", minimum=1,
               maximum=20_000, title="Longest deal, in turns"),
        Option("bonus", False, "Rack-O adds a bonus for its longest run of consecutive numbers "
               "(3: 50, 4: 100, 5: 200, 6+: 400)", title="Bonus for a run of consecutive numbers"),
        Option("target_score", 500, "points that end a match", minimum=1, maximum=10_000,
               title="Points to win the match"),
    )
    lengths = {"one deal": {"target_score": 1}, "short match": {"target_score": 250},
               "full match": {"target_score": 500}}  # everyone scores at least 5 a deal

    def options_schema(self, players: int) -> dict:
        """The options' schema, with the rule that ties them to the players: ``max_card`` is 0
        (automatic) or at least ``fewest_cards(players, rack_size)``; one branch per rack size."""
        schema = super().options_schema(players)
        rack = next(o for o in self.options if o.name == "rack_size")
        assert rack.minimum is not None and rack.maximum is not None
        floors = [{"properties": {"rack_size": {"const": size}, "max_card": {"minimum": fewest_cards(players, size)}},
                   "required": ["rack_size"]} for size in range(rack.minimum, rack.maximum + 1)]
        return {**schema, "anyOf": [
            {"not": {"required": ["max_card"]}}, {"properties": {"max_card": {"const": 0}}},
            {"not": {"required": ["rack_size"]},
             "properties": {"max_card": {"minimum": fewest_cards(players, rack.default)}}},
            *floors]}

    # ----- the surface -----
    def scores(self, state: State) -> list[float]:
        return [float(s) for s in state.scores]

    def winners(self, state: State) -> list[int]:
        return views.winners(state)

    def observe(self, state: State, player: int | None, reveal: bool = False) -> dict:
        return views.observe(state, player, reveal)

    def parse_action(self, action_id: str) -> Action:
        return parse_action(action_id)

    def action_label(self, action: Action) -> str:
        return label(action)

    def why_illegal(self, state: State, action: Action) -> str:
        """The reason, in a person's words, that ``action`` is not legal in ``state``."""
        if state.phase == OVER:
            return "the match is over"
        code = getattr(action, "code", None)
        if not isinstance(action, Action):
            return "it is not a Rack-O action"
        if state.phase == DRAW:
            return "take a card first: from the deck (draw:deck) or the discard pile (draw:discard)"
        if code in (DRAW_DECK, DRAW_DISCARD):
            return "you have drawn already: put the card in a slot (place:N) or discard it"
        if code == DISCARD:
            return "a card taken from the discard pile must go into your rack (place:N)"
        return f"your rack has only {state.rules.rack_size} slots (place:1 to place:{state.rules.rack_size})"

    # ----- hidden information -----
    def resample_hidden(self, state: State, player: int | None, rng: random.Random) -> State:
        """The cards ``player`` cannot see dealt again at random: the deck, the other seats'
        rack cards nobody saw them take, and a card another seat holds from the deck.
        Known cards (taken from the discard pile) stay where they are."""
        if state.phase == OVER:
            return state
        others = [p for p in range(state.players) if p != player]
        racks = [list(r) for r in state.racks]
        holes = [(p, k) for p in others for k, c in enumerate(state.known[p]) if not c]
        held = state.source != FROM_NONE and state.source != FROM_DISCARD and state.to_move != player
        pool = [racks[p][k] for p, k in holes] + list(state.deck) + ([state.drawn] if held else [])
        rng.shuffle(pool)
        for (p, k), card in zip(holes, pool):
            racks[p][k] = card
        rest = pool[len(holes):]
        drawn = state.drawn
        if held:
            drawn = rest.pop()
        dealt = [list(d) for d in state.dealt]
        for p in others:  # a slot never refilled still holds its dealt card; the others' first cards were seen
            untouched = set(range(state.rules.rack_size)) - {k - 1 for k in state.placed[p] if k}
            for k in untouched:
                dealt[p][k] = racks[p][k]
        return state._replace(racks=tuple(map(tuple, racks)), deck=tuple(rest), drawn=drawn,
                              dealt=tuple(map(tuple, dealt)))
