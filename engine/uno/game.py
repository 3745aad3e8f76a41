"""Uno as a ``Game`` (docs/rules.md, section 2): options, reasons, labels, hidden cards.

The rules themselves are in ``engine.uno.rules`` (a mutable ``Table``); ``engine.kernel.TableGame``
makes the ``Game`` of it (``apply``, ``legal_actions``, new matches, JSON), and ``engine.uno.view``
says what a seat sees and writes the state's JSON.
"""
from __future__ import annotations

import random

from engine.base import GameType, Option
from engine.kernel import TableGame
from engine.uno import view as views
from engine.uno.actions import (
    ACTIONS, Accept, Action, Catch, Challenge, ChooseColour, Draw, Pass, Play, label, parse_action,
)
from engine.uno.cards import WILD_DRAW_FOUR, Colour
from engine.uno.rules import CHALLENGED, DRAWN, OPENING, Rules, State, Table


class Uno(TableGame[State, Action]):
    name = "uno"
    title = "Uno"
    min_players = 2
    max_players = 10
    type = GameType(hidden_information=True, whole_matches=True)
    table = Table
    rules_type = Rules
    actions = ACTIONS
    state_json = views.STATE_JSON
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
        Option("target_score", 500, "Points that end a match.", minimum=1, maximum=10_000,
               title="Points to win the match"),
        Option("max_turns", 2000, "Moves after which a deal ends with no winner.", minimum=1, maximum=20_000,
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

    # ----- the surface -----
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
        return parse_action(action_id)

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
