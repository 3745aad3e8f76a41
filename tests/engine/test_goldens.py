"""Every registered game has a golden playthrough that replays byte for byte."""
import json

import pytest

from engine import GAMES, get_game
from tests.goldens import DIR
from tests.engine.invariants import canon


@pytest.mark.parametrize("name", GAMES)
def test_golden_replays_exactly(name):
    path = DIR / f"{name}.json"
    assert path.exists(), f"{name} has no golden playthrough: run python -m tests.goldens {name}"
    golden = json.loads(path.read_text())
    game = get_game(name)
    state = game.new_match(golden["players"], golden["seed"], golden["options"])
    for action_id in golden["actions"]:
        state = game.apply_id(state, action_id)
    assert game.is_over(state)
    assert canon(game.to_json(state)) == canon(golden["final_state"])
    assert [canon(game.observe(state, p)) for p in range(golden["players"])] == [
        canon(v) for v in golden["final_views"]]
    assert game.scores(state) == golden["scores"]
