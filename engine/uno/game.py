"""Uno as a ``Game`` (docs/rules.md, section 2): options, the surface, JSON, hidden cards.

The rules themselves are in ``engine.uno.rules`` (a mutable ``Table``); this
class wraps them in the immutable interface every game shares: ``apply`` checks
the action, copies the state into a table, steps it and freezes the result.
"""
from __future__ import annotations

import random
from collections import Counter

from engine.base import Game, GameError, GameType, IllegalActionError, Option, OptionError
from engine.uno import view as views
from engine.uno.actions import (
    ACTIONS, Accept, Action, ActionSyntaxError, Catch, Challenge, ChooseColour, Draw, Pass, Play, label,
    parse_action,
)
from engine.uno.cards import CARD_IDS, FULL_DECK, WILD_DRAW_FOUR, Colour
from engine.uno.rules import CHALLENGED, DRAWN, OPENING, OVER, PHASES, PLAY, Rules, State, Table


class Uno(Game[State, Action]):
    name = "uno"
    title = "Uno"
    min_players = 2
    max_players = 10
    type = GameType(hidden_information=True, whole_matches=True)
    summary = ("108 cards, 7 each: match the top card's colour, number or symbol; Skip, Reverse, "
               "Draw Two, Wild and Wild Draw Four; first to empty their hand scores the others' "
               "cards; a match goes to 500.")
    options = (
        Option("opening_wild", "choose", "A Wild turned up to start: the first player names the "
               "colour (choose) or it goes back and another card is turned (redraw).",
               choices=("choose", "redraw"), title="A Wild turned up to start",
               choice_titles=("the first player names the colour", "turn another card")),
        Option("wd4_challenge", False, "Any Wild Draw Four may be played and the next player may "
               "challenge it (off: only legal ones are offered).", title="Wild Draw Four may be bluffed and challenged"),
        Option("wd4_when", "no_colour", "When a Wild Draw Four may be played: holding no card of the "
               "colour in force (no_colour, the official rule) or no other playable card, a Wild included "
               "(no_other_card, the write-up's).", choices=("no_colour", "no_other_card"),
               title="When a Wild Draw Four may be played",
               choice_titles=("holding no card of the colour in force", "holding no other playable card")),
        Option("draw_until_playable", False, "Draw until a playable card comes instead of one card.",
               title="Draw until you can play"),
        Option("play_drawn", True, "A playable card just drawn may be played at once (off: drawing ends "
               "the turn, as in the write-up).", title="Play a card just drawn"),
        Option("reverse_skips_two", True, "With two players a Reverse skips the other player (off: it only "
               "turns the direction, as in the write-up).", title="Reverse skips with two players"),
        Option("rotate_dealer", True, "The deal passes one seat to the left each deal, so the lead goes "
               "round (off: the same seat deals every deal, so the first seat leads every deal of a match, "
               "as in the write-up's model).", title="The deal passes to the left"),
        Option("first_card_acts", True, "A Skip, Reverse or Draw Two turned up to start acts on the first "
               "player (off: it is only the card to match, as in the write-up's model).",
               title="An action card turned up to start acts"),
        Option("uno_call", False, "Players call UNO with their second-last card; the next player may "
               "catch one who did not (2 cards penalty).", title="Call UNO yourself"),
        Option("target_score", 500, "Points that end a match.", minimum=1, title="Points to win the match"),
        Option("max_turns", 2000, "Moves after which a deal ends with no winner.", minimum=1,
               title="Longest deal, in moves"),
    )
    lengths = {"one deal": {"target_score": 1}, "short match": {"target_score": 200},
               "full match": {"target_score": 500}}  # the first to go out scores at least 1 in practice
    presets = {
        "writeup": {"play_drawn": False, "reverse_skips_two": False, "wd4_when": "no_other_card",
                    "wd4_challenge": False, "rotate_dealer": False, "first_card_acts": False},
    }
    """``writeup``: the rules of the Uno write-up's own model (its public code), where they differ
    from the official ones: drawing ends the turn, a two-player Reverse does not skip, a Wild
    Draw Four only when nothing else plays, no challenge, and the first seat leads every deal
    (the card turned up to start does not act)."""

    # ----- starting -----
    def rules(self, options: dict | None) -> Rules:
        return Rules(**self.resolve_options(options))

    def new_match(self, players: int, seed: int = 0, options: dict | None = None) -> State:
        self.check_players(players)
        return Table.new(players, seed, self.rules(options), single=False).freeze()

    def new_deal(self, players: int, seed: int = 0, options: dict | None = None) -> State:
        self.check_players(players)
        return Table.new(players, seed, self.rules(options), single=True).freeze()

    # ----- the surface -----
    def current_player(self, state: State) -> int | None:
        return None if state.phase == OVER else state.turn

    def legal_actions(self, state: State) -> list[Action]:
        return [ACTIONS[a] for a in Table.reader(state).legal()]

    def apply(self, state: State, action: Action) -> State:
        code = getattr(action, "code", None)
        action_id = getattr(action, "id", str(action))
        if state.phase == OVER:
            raise IllegalActionError(action_id, "the match is over")
        if not isinstance(code, int) or not 0 <= code < len(ACTIONS) or ACTIONS[code] != action \
                or code not in Table.reader(state).legal():
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
        return views.winners(state)

    def observe(self, state: State, player: int | None, reveal: bool = False) -> dict:
        return views.observe(state, player, reveal)

    def determinise(self, view: dict, rng: random.Random, single: bool | None = None) -> State:
        """A state the seat of ``view`` cannot tell from the real one (see engine.uno.view)."""
        return views.determinise(view, rng, single)

    def parse_action(self, action_id: str) -> Action:
        try:
            return parse_action(action_id)
        except ActionSyntaxError as err:
            raise IllegalActionError(action_id, str(err)) from None

    def action_label(self, action: Action) -> str:
        return label(action)

    def why_illegal(self, state: State, action: Action) -> str:
        """The reason, in a person's words, that ``action`` is not legal in ``state``."""
        phase, rules = state.phase, state.rules
        hand = state.hands[state.turn]
        colour = "none yet" if state.colour < 0 else Colour(state.colour).name.lower()
        if phase == OPENING and not isinstance(action, ChooseColour):
            return "first name the colour of the Wild turned up to start (colour:r, y, g or b)"
        if isinstance(action, ChooseColour):
            return "a colour is named like this only for a Wild turned up to start the deal"
        if phase == CHALLENGED and not isinstance(action, (Challenge, Accept, Catch)):
            return "first challenge or accept the Wild Draw Four played on you"
        if isinstance(action, (Challenge, Accept)):
            return "there is no Wild Draw Four waiting to be challenged or accepted"
        if isinstance(action, Catch):
            return "nobody can be caught now for not calling UNO"
        if isinstance(action, Draw):
            return ("you have drawn already: play the drawn card or pass" if phase == DRAWN
                    else "there is no card left to draw: pass")
        if isinstance(action, Pass):
            return "draw a card first: you may pass only after drawing, or when nothing is left to draw"
        if isinstance(action, Play):
            card = action.card
            if card.code not in hand:
                return f"you hold no {card.title}"
            if phase == DRAWN and card.code != hand[-1]:
                return "after drawing you may play only the card you drew, or pass"
            if action.uno and (not rules.uno_call or len(hand) != 2):
                return "UNO is called with your second-last card, and only with the uno_call option"
            if card.code == WILD_DRAW_FOUR and rules.wd4_when == "no_colour":
                return f"a Wild Draw Four may be played only when you hold no {colour} card"
            if card.code == WILD_DRAW_FOUR:
                return "a Wild Draw Four may be played only when no other card of yours can be"
            if not card.is_wild:
                top = views.card_id(state.discard[-1])
                return f"{card.title} matches neither the colour in force ({colour}) nor the top card ({top})"
        return "it is not among the legal actions now"

    # ----- hidden information -----
    def resample_hidden(self, state: State, player: int | None, rng: random.Random) -> State:
        """Every card ``player`` cannot see (other hands, the draw pile) dealt again at random,
        hand sizes kept; a pending Wild Draw Four's legality follows its player's new hand."""
        hands = [list(h) for h in state.hands]
        hidden = [p for p in range(state.players) if p != player]
        pool = list(state.pile) + [c for p in hidden for c in hands[p]]
        pile = views.deal_unseen(hands, hidden, pool, len(state.pile), rng)
        wd4_bad = state.wd4_bad
        if state.phase == CHALLENGED and state.wd4_by != player:
            wd4_bad = views.wd4_was_illegal(hands[state.wd4_by], state.prev_colour, state.discard, state.rules)
        return state._replace(hands=tuple(map(tuple, hands)), pile=tuple(pile), wd4_bad=wd4_bad)

    # ----- JSON -----
    def to_json(self, state: State) -> dict:
        ids = CARD_IDS.__getitem__
        return {
            "seed": state.seed, "players": state.players, "options": views.options_json(state.rules),
            "single_deal": state.single, "deal": state.deal, "dealer": state.dealer,
            "hands": [[ids(c) for c in h] for h in state.hands],
            "pile": [ids(c) for c in state.pile], "discard": [ids(c) for c in state.discard],
            "colour": views.colour_id(state.colour), "direction": state.direction, "turn": state.turn,
            "phase": PHASES[state.phase], "wd4_by": state.wd4_by, "wd4_bad": state.wd4_bad,
            "previous_colour": views.colour_id(state.prev_colour), "uno_missed": state.uno_missed,
            "moves": state.moves, "reshuffles": state.reshuffles, "scores": list(state.scores),
            "winner": state.winner, "log": [views.event_json(e) for e in state.log],
            "last_deal": views.last_deal_json(state.last_deal),
        }

    def from_json(self, data: dict) -> State:
        try:
            players = int(data["players"])
            self.check_players(players)
            codes = views.card_code
            hands = tuple(tuple(codes(c) for c in h) for h in data["hands"])
            pile = tuple(codes(c) for c in data["pile"])
            discard = tuple(codes(c) for c in data["discard"])
            if data["phase"] not in PHASES:
                raise GameError(f"unknown phase {data['phase']!r}")
            state = State(
                seed=int(data["seed"]), players=players, rules=self.rules(data["options"]),
                single=bool(data["single_deal"]), deal=int(data["deal"]), dealer=int(data["dealer"]),
                hands=hands, pile=pile, discard=discard, colour=views.colour_code(data["colour"]),
                direction=int(data["direction"]), turn=int(data["turn"]), phase=PHASES.index(data["phase"]),
                wd4_by=int(data["wd4_by"]), wd4_bad=bool(data["wd4_bad"]),
                prev_colour=views.colour_code(data["previous_colour"]), uno_missed=int(data["uno_missed"]),
                moves=int(data["moves"]), reshuffles=int(data["reshuffles"]),
                scores=tuple(int(s) for s in data["scores"]), winner=int(data["winner"]),
                log=tuple(views.event_from_json(e) for e in data["log"]),
                last_deal=views.last_deal_from_json(data["last_deal"]))
        except (KeyError, TypeError, ValueError) as err:
            if isinstance(err, GameError):
                raise
            raise OptionError(f"not an Uno state: {err!r}") from None
        self._check(state)
        return state

    def _check(self, state: State) -> None:
        """Cards conserved and the seats in range; a GameError otherwise."""
        held = Counter(c for h in state.hands for c in h) + Counter(state.pile) + Counter(state.discard)
        if held != Counter(FULL_DECK):
            raise GameError("an Uno state must hold each of the 108 cards exactly once")
        if len(state.hands) != state.players or len(state.scores) != state.players or not state.discard:
            raise GameError("an Uno state needs one hand and score per player and a discard pile")
        if state.direction not in (1, -1) or not (state.phase == OVER or 0 <= state.turn < state.players):
            raise GameError("bad direction or seat to move in an Uno state")
        if state.phase == PLAY and state.colour < 0:
            raise GameError("no colour in force in an Uno state at play")
