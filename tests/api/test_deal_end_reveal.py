"""The deal-end panel's reveal: every hand is in a person's view (and the replay) only once the
deal has ended, never while it is played."""
import random

import pytest

from tests.conftest import new_match

ME = {"type": "human", "name": "Ann"}
AI = {"type": "agent", "level": 1}
# game: (opponents, options, the view's key for the last deal, where it keeps the hands)
GAMES = {
    "uno": (2, {}, "last_deal", "hands"),
    "yaniv": (1, {}, "last_result", "hands"),
    "racko": (1, {"rack_size": 5, "max_turns": 60}, "last_result", "racks"),
    "queen_of_spades": (3, {"deals": 2}, "last_deal", "hands"),
}


@pytest.mark.parametrize("game", GAMES)
def test_hands_are_revealed_only_when_the_deal_has_ended(client, game):
    opponents, options, last_key, hands_key = GAMES[game]
    match_id, tokens = new_match(client, game, [ME] + [AI] * opponents, options=options, seed=11)
    rng = random.Random(5)
    for _ in range(1000):
        view = client.get(f"/api/matches/{match_id}", headers=tokens[0]).json()
        spectator = client.get(f"/api/matches/{match_id}").json()
        if view["view"][last_key] is not None:
            break
        for seen in (view["view"], spectator["view"]):  # during the deal: no hand but one's own
            assert "hands" not in seen and "racks" not in seen
        legal = [a["id"] for a in view["legal_actions"]]
        action = rng.choice([a for a in legal if a.startswith("play:")] or legal)  # Uno: play when one can
        assert client.post(f"/api/matches/{match_id}/moves", json={"action": action}, headers=tokens[0]).status_code == 200
    else:
        raise AssertionError("the first deal did not end")
    steps = client.get(f"/api/matches/{match_id}/replay", headers=tokens[0]).json()["moves"]
    ended = next(i for i, step in enumerate(steps) if step["view"][last_key] is not None)
    for step in steps[:ended]:  # the replay a person may step through in play: the same
        assert "hands" not in step["view"] and "racks" not in step["view"]
    revealed = view["view"][last_key][hands_key]
    assert len(revealed) == opponents + 1
    assert any(revealed[s] for s in range(1, opponents + 1))  # the others' cards, shown at the deal's end
