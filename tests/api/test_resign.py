"""Resigning (every game) and matches abandoned after a time without a move."""
import time

import pytest

from tests.conftest import new_match

ME = {"type": "human", "name": "Ann"}
AI = {"type": "agent", "level": 1}
GAMES = {"tictactoe": 1, "uno": 2, "yaniv": 2, "racko": 1, "queen_of_spades": 3}
A_MOVE = {"tictactoe": "cell:4", "uno": "draw", "yaniv": "yaniv", "racko": "draw:deck", "queen_of_spades": "play:QS"}
"""An action each game can read (one it cannot is 422, whatever the state of the match)."""


@pytest.mark.parametrize("game", GAMES)
def test_a_seat_resigns_with_its_token_and_the_others_win(client, game):
    match_id, tokens = new_match(client, game, [ME] + [AI] * GAMES[game])
    url = f"/api/matches/{match_id}/resign"
    assert client.post(url).status_code == 401
    assert client.post(url, headers={"Authorization": "Bearer nope"}).status_code == 403
    r = client.post(url, headers=tokens[0])
    assert r.status_code == 200, r.text
    view = r.json()
    assert view["status"] == "finished" and view["to_move"] is None and view["legal_actions"] == []
    assert view["result"]["winners"] == list(range(1, GAMES[game] + 1))
    if game != "tictactoe":  # noughts and crosses resigns by its own rule, as a move
        assert view["result"]["ending"] == {"kind": "resigned", "seat": 0}
    again = client.post(url, headers=tokens[0])
    assert again.status_code == 409 and "over" in again.json()["detail"]
    move = client.post(f"/api/matches/{match_id}/moves", json={"action": A_MOVE[game]}, headers=tokens[0])
    assert move.status_code == 409
    listed = client.get(f"/api/matches?game={game}").json()["matches"][0]
    assert listed["status"] == "finished"


def test_resigning_when_it_is_not_your_turn(client):
    match_id, tokens = new_match(client, "tictactoe", [ME, {"type": "human", "name": "Bob"}])
    r = client.post(f"/api/matches/{match_id}/resign", headers=tokens[1])  # Ann is to move
    assert r.status_code == 200 and r.json()["result"] == {"scores": [0.0, 0.0], "winners": [0],
                                                          "ending": {"kind": "resigned", "seat": 1}}
    rows = client.get("/api/results?game=tictactoe").json()
    assert {(row["seat"], row["won"], row["ending"]) for row in rows} == {(0, True, "resigned"), (1, False, "resigned")}


def test_a_match_without_a_move_for_the_set_time_is_abandoned(client, monkeypatch):
    match_id, tokens = new_match(client, "uno", [ME, AI])
    assert client.get(f"/api/matches?status=active").json()["total"] == 1
    monkeypatch.setenv("PARLOUR_ABANDON_AFTER_S", "1")
    time.sleep(1.1)
    listed = client.get("/api/matches").json()["matches"][0]
    assert listed["status"] == "finished" and listed["ending"]["kind"] == "abandoned"
    view = client.get(f"/api/matches/{match_id}", headers=tokens[0]).json()
    assert view["result"]["ending"]["kind"] == "abandoned" and view["result"]["winners"] == []
    assert client.post(f"/api/matches/{match_id}/resign", headers=tokens[0]).status_code == 409
    assert client.get("/api/people-vs-levels").json() == []  # not counted as anyone's win or loss


def test_a_stale_match_is_abandoned_when_someone_moves_in_it(client, monkeypatch):
    match_id, tokens = new_match(client, "tictactoe", [ME, AI])
    monkeypatch.setenv("PARLOUR_ABANDON_AFTER_S", "1")
    time.sleep(1.1)
    r = client.post(f"/api/matches/{match_id}/moves", json={"action": "cell:4"}, headers=tokens[0])
    assert r.status_code == 409 and "abandoned" in r.json()["detail"]
