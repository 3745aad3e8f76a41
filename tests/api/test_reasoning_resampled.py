"""What a person at a card table is given of an AI's reasoning during a deal is computed from
nothing they cannot see: for every agent of every card game, the AI moves mid-deal; its hidden
cards (and every other card the viewer cannot see) are dealt again consistently with what the
viewer saw, keeping the move it made legal; the AI reasons again on its new hand; and what the
viewer is served (the move in the log, its remembered form, ``last_explanation``) is the same.

The reasoning is built and served by the server's own functions (``match_turns.reasoning``,
``moves_json``, ``Played``, ``reason_json``), on a match held in memory; the test also checks
that the whole reasoning does change with the hidden cards for every agent that gives values, so
a served form that let any of it through would fail here."""
from __future__ import annotations

import random
from types import SimpleNamespace

import orjson
import pytest

from agents.catalog import agent_specs, make_agent
from app.services import match_turns, match_views
from app.services.match_moves import MoveRow, Played
from engine import get_game

SEATS = {"uno": 3, "racko": 3, "queen_of_spades": 4, "yaniv": 3}
AI = 1  # the seat of the agent under test; seat 0 is the person viewing, None a spectator
DECISIONS = 3  # mid-deal decisions per agent (2 for the agents that search: about 0.3 s a move)
RESAMPLES = 3  # new deals of the hidden cards per decision and viewer
TRIES = 2_000  # resamples tried to keep the move made legal (about 1 in 10 does, for a card play)

CASES = [(game, s.id) for game in SEATS for s in agent_specs(game)]


def decisions(game, count: int, seed: int):
    """``count`` states of the first deal of a seeded match played at random where seat ``AI``
    is to move with a choice, spread over the deal."""
    state, rng, found = game.new_match(SEATS[game.name], seed), random.Random(seed), []
    while not game.is_over(state) and game.deal_of(state) == 0:
        legal = game.legal_actions(state)
        if game.current_player(state) == AI and len(legal) > 1:
            found.append(state)
        state = game.apply(state, rng.choice(legal))
    return [found[i * len(found) // count] for i in range(count)] if len(found) >= count else found


def ai_move(game, rule: str, agent, state, action, ply: int) -> MoveRow:
    """The move ``action`` of seat ``AI`` in ``state`` as the server records it, with the
    reasoning the agent gives on its observation of ``state``."""
    why = match_turns.reasoning(game, rule, agent, game.observe(state, AI), game.legal_actions(state), game.deal_of(state))
    return MoveRow(ply=ply, seat=AI, action=action.id, label=game.action_label(action), explanation=why)


def served(game, after, move, viewer) -> list:
    """Everything a viewer of a match (a person's, not AI-only, at ``after``) is served of
    ``move``: as a stored row, as remembered, and as ``last_explanation``."""
    match = SimpleNamespace(id="in-memory", ply=move.ply + 1, ai_only=False, status="active", state=after)
    played = Played.of(move)
    forms = [*match_views.moves_json(game, match, [move], viewer), *match_views.moves_json(game, match, [played], viewer),
             match_views.reason_json(match_views.Book.of(game, match, viewer), [played])]
    return orjson.loads(orjson.dumps(forms))


@pytest.mark.parametrize("game_name,agent_id", CASES, ids=[f"{g}-{a}" for g, a in CASES])
def test_the_reasoning_a_viewer_is_served_mid_deal_does_not_change_with_the_hidden_cards(game_name, agent_id):
    game = get_game(game_name)
    s = next(s for s in agent_specs(game_name) if s.id == agent_id)
    agent = make_agent(game_name, agent_id)
    rng = random.Random(f"{game_name}:{agent_id}")
    changed = checked = 0
    for ply, state in enumerate(decisions(game, 2 if s.searches else DECISIONS, seed=len(agent_id) * 7919)):
        action = agent.act(game.observe(state, AI), game.legal_actions(state), random.Random(ply))
        after = game.apply(state, action)
        if game.is_over(after) or game.deal_of(after) != game.deal_of(state):
            continue  # the move ended the deal: its reasoning is then shown whole, as the hands are
        move = ai_move(game, s.description, agent, state, action, ply)
        for viewer in (0, None):
            seen, shown = game.observe(state, viewer), served(game, after, move, viewer)
            assert not any(form["explanation"]["values"] if "explanation" in form else form["values"]
                           for form in shown)
            for _ in range(RESAMPLES):
                other = next((o for o in (game.resample_hidden(state, viewer, rng) for _ in range(TRIES))
                              if action in game.legal_actions(o)), None)
                assert other is not None, f"no new deal of the hidden cards keeps {action.id} legal"
                assert game.observe(other, viewer) == seen  # the viewer cannot tell the two apart
                again = ai_move(game, s.description, agent, other, action, ply)
                changed += again.explanation != move.explanation
                checked += 1
                assert served(game, game.apply(other, action), again, viewer) == shown, (
                    f"seat {viewer} is served {agent_id}'s reasoning differently when its hidden cards differ")
    assert checked >= 2 * RESAMPLES
    if move.explanation["values"]:  # an agent that gives values: they depend on its hand, so the
        assert changed, f"{agent_id}'s whole reasoning never changed with its hand"  # test has teeth
