"""The answers the server writes itself (a seat's view, a move's, a resignation's, a joiner's, an
event's): FastAPI does not check them against the models their routes declare, so this does, in
every game, from the first view to the end of a match (the models forbid any key they do not name)."""
import random

import pytest

from app.schemas.matches import Created, Joined, MatchView, MoveAnswer
from tests.conftest import event_payloads

ME = {"type": "human", "name": "Ann"}
AI = {"type": "agent", "level": 1}
OTHERS = {"tictactoe": 1, "uno": 2, "yaniv": 2, "racko": 1, "queen_of_spades": 3}


@pytest.mark.parametrize("game", OTHERS)
def test_a_match_from_its_first_view_to_its_end_answers_as_its_models_say(client, game):
    r = client.post("/api/matches", json={"game": game, "seats": [ME] + [AI] * OTHERS[game]})
    created = Created.model_validate(r.json())
    mine = {"Authorization": f"Bearer {created.tokens['0']}"}
    url, rng = f"/api/matches/{created.id}", random.Random(game)
    MatchView.model_validate(client.get(url).json())  # a spectator's
    for _ in range(3):
        view = MatchView.model_validate(client.get(url, headers=mine).json())
        if view.status != "active":
            break
        r = client.post(f"{url}/moves", json={"action": rng.choice(view.legal_actions).id}, headers=mine)
        assert r.status_code == 200, r.text
        assert MoveAnswer.model_validate(r.json()).made
    for payload in event_payloads(client, created.id, 2, mine):
        if "match" in payload:
            MatchView.model_validate(payload["match"])
    r = client.post(f"{url}/resign", headers=mine)
    if r.status_code == 200:  # a match the AIs ended already is over (409)
        assert MatchView.model_validate(r.json()).status == "finished"
    finished = MatchView.model_validate(client.get(url, headers=mine).json())
    assert finished.result is not None


def test_a_friend_joining_and_a_creator_starting_answer_with_views(client):
    seats = [ME, {"type": "friend"}, {"type": "friend"}]
    created = Created.model_validate(client.post("/api/matches", json={"game": "uno", "seats": seats}).json())
    assert created.invites and set(created.invites) == {"1", "2"}
    assert set(created.tokens) == {"0"}  # the friends' seats: only their links
    joined = client.post(f"/api/matches/{created.id}/join", json={"name": "Bo"},
                         headers={"Authorization": f"Bearer {created.invites['1'].rpartition('.')[2]}"})
    assert Joined.model_validate(joined.json()).status == "waiting"
    started = client.post(f"/api/matches/{created.id}/start", json={"levels": {"2": 1}},
                          headers={"Authorization": f"Bearer {created.tokens['0']}"})
    assert MatchView.model_validate(started.json()).status == "active"


def test_a_view_with_a_key_the_model_does_not_name_fails_it(client):
    created = Created.model_validate(client.post("/api/matches", json={"game": "tictactoe", "seats": [ME, AI]}).json())
    view = client.get(f"/api/matches/{created.id}").json()
    with pytest.raises(ValueError):
        MatchView.model_validate({**view, "seed": 1})
