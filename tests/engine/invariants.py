"""The invariant sweep every game runs (docs/rules.md, 'Invariants every engine keeps').

Random play through the public surface only, checking at every step:
legal actions non-empty until the end; ``apply`` leaves its argument unchanged;
an action outside the legal ones is refused and changes nothing; the state
survives a JSON round trip; every seat's view (and the spectator's) is
JSON-serialisable, carries no seed, and is the same for any other arrangement
of the cards that seat cannot see; replaying the seed and actions is exact;
scores have one entry per seat (and sum to zero for zero-sum games).
"""
from __future__ import annotations

import json
import random

from engine import Game, IllegalActionError


def canon(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def sweep(game: Game, players: int, seeds, options=None, deal_only=True, zero_sum=False,
          max_steps=20_000, illegal_ids=()) -> int:
    """Returns the number of steps checked (so a caller can assert the sweep did work)."""
    checked = 0
    for seed in seeds:
        start = (game.new_deal if deal_only else game.new_match)(players, seed, options)
        state, history, rng = start, [], random.Random(seed)
        hidden_differs = False
        steps = 0
        while not game.is_over(state):
            steps += 1
            assert steps < max_steps, f"{game.name}: seed {seed} did not end in {max_steps} steps"
            legal = game.legal_actions(state)
            assert legal, f"{game.name}: no legal action before the end (seed {seed})"
            before = canon(game.to_json(state))
            assert canon(game.to_json(game.from_json(json.loads(before)))) == before
            for seat in [*range(players), None]:
                view = game.observe(state, seat)
                text = canon(view)
                assert str(seed) not in text, f"{game.name}: seed visible to seat {seat}"
                other = game.resample_hidden(state, seat, rng)
                if canon(game.to_json(other)) != before:
                    hidden_differs = True
                assert canon(game.observe(other, seat)) == text, (
                    f"{game.name}: seat {seat}'s view depends on cards it cannot see (seed {seed})")
            legal_ids = {a.id for a in legal}
            for bad in illegal_ids:
                if bad in legal_ids:
                    continue
                try:
                    game.apply_id(state, bad)
                except IllegalActionError:
                    pass
                else:
                    raise AssertionError(f"{game.name}: illegal action {bad!r} accepted")
                assert canon(game.to_json(state)) == before
            action = legal[rng.randrange(len(legal))]
            assert game.parse_action(action.id) == action, f"{action.id} does not parse back"
            nxt = game.apply(state, action)
            assert canon(game.to_json(state)) == before, f"{game.name}: apply mutated its argument"
            history.append(action.id)
            state = nxt
            checked += 1
        assert not game.legal_actions(state)
        scores = game.scores(state)
        assert len(scores) == players
        if zero_sum:
            assert abs(sum(scores)) < 1e-9, f"{game.name}: scores {scores} do not sum to zero"
        replay = (game.new_deal if deal_only else game.new_match)(players, seed, options)
        for action_id in history:
            replay = game.apply_id(replay, action_id)
        assert canon(game.to_json(replay)) == canon(game.to_json(state)), "replay differs"
        if hasattr(game, "has_hidden_information") and game.has_hidden_information:
            assert hidden_differs, f"{game.name}: resample_hidden never changed anything"
    return checked
