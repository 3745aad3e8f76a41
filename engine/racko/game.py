"""Rack-O as a ``Game`` (docs/rules.md, section 3): options, the surface, views, JSON, hidden cards.

The rules themselves are in ``engine.racko.rules`` (a mutable ``Table``); this class
wraps them in the immutable interface every game shares: ``apply`` checks the
action, copies the state into a table, steps it and freezes the result.

A seat's view (``observe``): its own rack (slot 1 first), the card it holds after
drawing, the whole discard pile (every card in it went down face up), the deck's
size, the cards everybody saw each seat take from the discard pile (``known``:
[slot, card] pairs, slot 1 = lowest), turns, scores, the public log, and after a
deal every rack. Never the deck order, another seat's hidden rack cards or the seed.
"""
from __future__ import annotations

import random

from engine.base import Game, GameError, GameType, IllegalActionError, Option, OptionError
from engine.racko.actions import (
    ACTIONS, DISCARD, DRAW_DECK, DRAW_DISCARD, MAX_RACK, PLACE, Action, ActionSyntaxError, label,
    parse_action,
)
from engine.racko.rules import (
    DRAW, FROM_DISCARD, FROM_NONE, OVER, PHASES, SOURCES, Result, Rules, State, Table,
)

_EVENT_FIELDS = {
    "deal": ("deal", "dealer"),
    "turnup": ("card",),
    "draw": ("seat", "source", "card"),
    "discard": ("seat", "card"),
    "place": ("seat", "slot", "out", "card"),
    "reshuffle": ("count",),
    "racko": ("seat", "points"),
    "stalled": ("turns",),
}


def event_json(e: tuple) -> dict:
    """``("place", 1, 3, 27, 0)`` -> ``{"event": "place", "seat": 1, "slot": 3, "out": 27, "card": None}``
    (a card nobody saw is None)."""
    out: dict = {"event": e[0]}
    for name, value in zip(_EVENT_FIELDS[e[0]], e[1:]):
        if name == "source":
            value = SOURCES[value]
        elif name == "card" and e[0] in ("draw", "place") and value == 0:
            value = None
        out[name] = value
    return out


def event_from_json(data: dict) -> tuple:
    kind = data.get("event")
    if kind not in _EVENT_FIELDS:
        raise GameError(f"unknown Rack-O event {kind!r}")
    values: list = [kind]
    for name in _EVENT_FIELDS[kind]:
        value = data[name]
        values.append(SOURCES.index(value) if name == "source" else 0 if value is None else int(value))
    return tuple(values)


class Racko(Game[State, Action]):
    name = "racko"
    title = "Rack-O"
    min_players = 2
    max_players = 4
    type = GameType(hidden_information=True, actions_per_move=2)
    summary = ("Cards 1..N; put your rack of 10 in ascending order from front to back by drawing "
               "from the deck or the discard pile and replacing rack cards. The first in order calls "
               "Rack-O (75 points); the others score 5 per card in order from the front. Match to 500.")
    options = (
        Option("rack_size", 10, "slots in each rack (the write-up's experiments also use 5)",
               minimum=3, maximum=MAX_RACK, title="Slots in a rack"),
        Option("max_card", 0, "highest card (cards 1..max_card); 0 = (players + 2) · rack_size", minimum=0,
               maximum=400, title="Highest card"),
        Option("max_turns", 1500, "turns (all seats) after which a deal ends with no Rack-O", minimum=1,
               title="Longest deal, in turns"),
        Option("bonus", False, "Rack-O adds a bonus for its longest run of consecutive numbers "
               "(3: 50, 4: 100, 5: 200, 6+: 400)", title="Bonus for a run of consecutive numbers"),
        Option("target_score", 500, "points that end a match", minimum=1, title="Points to win the match"),
    )
    lengths = {"one deal": {"target_score": 1}, "short match": {"target_score": 250},
               "full match": {"target_score": 500}}  # everyone scores at least 5 a deal

    # ----- starting -----
    def rules(self, players: int, options: dict | None) -> Rules:
        self.check_players(players)
        return Rules.of(players, self.resolve_options(options))

    def new_match(self, players: int = 2, seed: int = 0, options: dict | None = None) -> State:
        return Table.new(players, seed, self.rules(players, options), single=False).freeze()

    def new_deal(self, players: int = 2, seed: int = 0, options: dict | None = None) -> State:
        return Table.new(players, seed, self.rules(players, options), single=True).freeze()

    # ----- the surface -----
    def current_player(self, state: State) -> int | None:
        return None if state.phase == OVER else state.to_move

    def _legal_codes(self, state: State) -> list[int]:
        if state.phase == DRAW:
            return [DRAW_DECK, DRAW_DISCARD]
        if state.phase == OVER:
            return []
        places = list(range(PLACE, PLACE + state.rules.rack_size))
        return places if state.source == FROM_DISCARD else [DISCARD, *places]

    def legal_actions(self, state: State) -> list[Action]:
        return [ACTIONS[a] for a in self._legal_codes(state)]

    def apply(self, state: State, action: Action) -> State:
        code = getattr(action, "code", None)
        action_id = getattr(action, "id", str(action))
        if state.phase == OVER:
            raise IllegalActionError(action_id, "the match is over")
        if not isinstance(action, Action) or code not in self._legal_codes(state):
            raise IllegalActionError(action_id, self.why_illegal(state, action))
        table = Table.thaw(state)
        table.step(code)
        return table.freeze()

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def deal_of(self, state: State) -> int:
        return state.deal

    def scores(self, state: State) -> list[float]:
        return [float(s) for s in state.scores]

    def winners(self, state: State) -> list[int]:
        """A single deal: the seat that went Rack-O (none if the deal hit max_turns).
        A match: the highest score (every seat sharing it)."""
        if state.phase != OVER:
            return []
        if state.single:
            return [] if state.winner < 0 else [state.winner]
        best = max(state.scores)
        return [p for p, s in enumerate(state.scores) if s == best]

    def parse_action(self, action_id: str) -> Action:
        try:
            return parse_action(action_id)
        except ActionSyntaxError as err:
            raise IllegalActionError(str(action_id), str(err)) from None

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

    # ----- views -----
    def observe(self, state: State, player: int | None, reveal: bool = False) -> dict:
        over = state.phase == OVER
        to_move = None if over else state.to_move
        mine = player is not None and player == to_move
        holding = mine and state.source != FROM_NONE
        rules = state.rules
        view = {
            "game": self.name,
            "seat": player,
            "players": state.players,
            "options": rules.to_json(),
            "single_deal": state.single,
            "deal": state.deal,
            "dealer": state.dealer,
            "turn": state.turn,
            "turns": list(state.turns),
            "to_move": to_move,
            "phase": PHASES[state.phase],
            "rack": None if player is None else list(state.racks[player]),
            "drawn": state.drawn if holding else None,
            "drawn_from": SOURCES[state.source],
            "discard_top": state.discard[-1] if state.discard else None,
            "discard_pile": list(state.discard),
            "deck_size": len(state.deck),
            "known": [[[k + 1, c] for k, c in enumerate(known) if c] for known in state.known],
            "dealt": None if player is None else list(state.dealt[player]),
            "placed": [list(p) for p in state.placed],
            "scores": list(state.scores),
            "log": [event_json(e) for e in state.log],
            "last_result": state.last_result.to_json(rules) if state.last_result else None,
            "over": over,
            "winners": self.winners(state) if over else None,
            "legal_actions": [ACTIONS[a].id for a in self._legal_codes(state)] if mine else [],
        }
        if reveal or over:
            view["racks"] = [list(r) for r in state.racks]
        return view

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

    # ----- JSON -----
    def to_json(self, state: State) -> dict:
        return {
            "seed": state.seed, "players": state.players, "options": state.rules.to_json(),
            "single_deal": state.single, "deal": state.deal, "dealer": state.dealer,
            "racks": [list(r) for r in state.racks], "deck": list(state.deck), "discard": list(state.discard),
            "known": [list(k) for k in state.known], "dealt": [list(d) for d in state.dealt],
            "placed": [list(p) for p in state.placed], "to_move": state.to_move, "phase": PHASES[state.phase],
            "drawn": state.drawn, "drawn_from": SOURCES[state.source], "turn": state.turn,
            "turns": list(state.turns), "reshuffles": state.reshuffles, "scores": list(state.scores),
            "winner": state.winner, "log": [event_json(e) for e in state.log],
            "last_result": state.last_result.to_json(state.rules) if state.last_result else None,
        }

    def from_json(self, data: dict) -> State:
        try:
            players = int(data["players"])
            rules = self.rules(players, data["options"])
            if data["phase"] not in PHASES or data["drawn_from"] not in SOURCES:
                raise GameError(f"unknown phase {data['phase']!r} or source {data['drawn_from']!r}")
            ints = lambda xs: tuple(int(x) for x in xs)  # noqa: E731
            last = data["last_result"]
            state = State(
                seed=int(data["seed"]), players=players, rules=rules, single=bool(data["single_deal"]),
                deal=int(data["deal"]), dealer=int(data["dealer"]),
                racks=tuple(ints(r) for r in data["racks"]), deck=ints(data["deck"]),
                discard=ints(data["discard"]), known=tuple(ints(k) for k in data["known"]),
                dealt=tuple(ints(d) for d in data["dealt"]), placed=tuple(ints(p) for p in data["placed"]),
                to_move=int(data["to_move"]), phase=PHASES.index(data["phase"]), drawn=int(data["drawn"]),
                source=SOURCES.index(data["drawn_from"]), turn=int(data["turn"]), turns=ints(data["turns"]),
                reshuffles=int(data["reshuffles"]), scores=ints(data["scores"]), winner=int(data["winner"]),
                log=tuple(event_from_json(e) for e in data["log"]),
                last_result=None if last is None else Result.from_json(last))
        except (KeyError, TypeError, ValueError) as err:
            if isinstance(err, GameError):
                raise
            raise OptionError(f"not a Rack-O state: {err!r}") from None
        self._check(state)
        return state

    def _check(self, state: State) -> None:
        """Cards conserved, racks of the right size, the seat to move in range; a GameError otherwise."""
        r, n = state.rules.rack_size, state.players
        cards = [c for rack in state.racks for c in rack] + list(state.deck) + list(state.discard)
        if state.drawn:
            cards.append(state.drawn)
        if sorted(cards) != list(range(1, state.rules.max_card + 1)):
            raise GameError("a Rack-O state must hold each card 1..max_card exactly once")
        if len(state.racks) != n or any(len(rack) != r for rack in state.racks) or len(state.known) != n \
                or any(len(k) != r for k in state.known) or len(state.scores) != n or len(state.turns) != n \
                or len(state.dealt) != n or any(len(d) != r for d in state.dealt) \
                or [len(p) for p in state.placed] != list(state.turns):
            raise GameError("a Rack-O state needs one rack, known row, turn count and score per seat")
        if state.phase != OVER:
            holding = state.source != FROM_NONE
            if not 0 <= state.to_move < n or (state.phase != DRAW) != holding or bool(state.drawn) != holding:
                raise GameError("bad seat to move or drawn card in a Rack-O state")
