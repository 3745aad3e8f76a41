"""The match contract over HTTP, with noughts and crosses."""
import random

from tests.conftest import new_match, play_randomly

HUMAN = {"type": "human", "name": "Ann"}


def test_games_describe_rules_options_and_levels(client):
    games = {g["name"]: g for g in client.get("/api/games").json()}
    ttt = games["tictactoe"]
    assert [lvl["id"] for lvl in ttt["levels"]] == ["random", "menace-live", "menace-trained", "perfect"]
    assert client.get("/api/games/tictactoe").json()["title"] == "Noughts and crosses"
    assert client.get("/api/games/chess").status_code == 404


def test_a_person_plays_a_whole_game_and_the_result_is_stored(client):
    match_id, tokens = new_match(client, "tictactoe", [HUMAN, {"type": "agent", "level": 4}])
    view = client.get(f"/api/matches/{match_id}", headers=tokens[0]).json()
    assert view["seat"] == 0 and view["to_move"] == 0 and len(view["legal_actions"]) == 9
    r = client.post(f"/api/matches/{match_id}/moves", json={"action": "cell:4", "ply": 0}, headers=tokens[0])
    made = r.json()["made"]
    assert [m["seat"] for m in made] == [0, 1] and made[1]["explanation"]["label"].startswith("minimax")
    final = play_randomly(client, match_id, tokens[0], random.Random(3))
    assert final["result"]["winners"] in ([], [1])  # nobody beats Perfect
    rows = client.get("/api/results?game=tictactoe").json()
    assert {(r["seat"], r["type"]) for r in rows} == {(0, "human"), (1, "agent")}
    csv = client.get("/api/results?format=csv").text
    assert csv.splitlines()[0].startswith("match,game,finished_at,seat")
    assert client.get("/api/matches?game=tictactoe&status=finished").json()["total"] == 1


def test_errors_are_4xx_with_a_reason_and_change_nothing(client):
    match_id, tokens = new_match(client, "tictactoe", [HUMAN, {"type": "agent", "level": 1}])
    client.post(f"/api/matches/{match_id}/moves", json={"action": "cell:0", "ply": 0}, headers=tokens[0])
    before = client.get(f"/api/matches/{match_id}", headers=tokens[0]).json()
    taken = "cell:0"
    cases = [
        ({"action": taken, "ply": 2}, tokens[0], 409, "already taken"),
        ({"action": "cell:9", "ply": 2}, tokens[0], 422, "0 to 8"),  # no action of the game: syntax, 422
        ({"action": "cell:5", "ply": 0}, tokens[0], 409, "stale"),
        ({"action": "cell:5", "ply": 2}, {"Authorization": "Bearer wrong"}, 403, "token"),
        ({"action": "cell:5", "ply": 2}, {}, 401, "token"),
        ({"ply": 2}, tokens[0], 422, "action"),
    ]
    for body, headers, status, words in cases:
        r = client.post(f"/api/matches/{match_id}/moves", json=body, headers=headers)
        assert r.status_code == status, (body, r.text)
        assert words in r.json()["detail"]
    after = client.get(f"/api/matches/{match_id}", headers=tokens[0]).json()
    assert after["view"] == before["view"] and after["ply"] == before["ply"]
    bad = [({"game": "chess", "seats": [HUMAN]}, 404), ({"game": "tictactoe", "seats": [HUMAN]}, 422),
           ({"game": "tictactoe", "seats": [HUMAN, {"type": "agent", "level": 7}]}, 422),
           ({"game": "tictactoe", "seats": [HUMAN, {"type": "agent", "agent": "deep-blue"}]}, 422),
           ({"game": "tictactoe", "seats": [HUMAN, HUMAN], "options": {"board": 4}}, 422),
           ({"game": "tictactoe", "seats": [HUMAN, {"type": "robot"}]}, 422)]
    for body, status in bad:
        r = client.post("/api/matches", json=body)
        assert r.status_code == status, (body, r.text)
        assert r.json()["detail"]
    assert client.get("/api/matches/nope").status_code == 404


def test_spectators_see_no_legal_moves_and_the_seed_is_never_served(client):
    match_id, tokens = new_match(client, "tictactoe", [HUMAN, {"type": "agent", "level": 1}], seed=987654321)
    spectator = client.get(f"/api/matches/{match_id}").json()
    assert spectator["seat"] is None and spectator["legal_actions"] == []
    play_randomly(client, match_id, tokens[0], random.Random(1))
    for path in (f"/api/matches/{match_id}", f"/api/matches/{match_id}/replay", "/api/results",
                 "/api/matches", f"/play/{match_id}"):
        assert "987654321" not in client.get(path, headers=tokens[0]).text


def test_ai_only_match_streams_every_move_and_replays(client):
    match_id, tokens = new_match(client, "tictactoe", [{"type": "agent", "level": 4}, {"type": "agent", "level": 4}],
                                 delay_ms=0)
    assert tokens == {}
    moves = []
    with client.stream("GET", f"/api/matches/{match_id}/events") as stream:
        event = None
        for line in stream.iter_lines():
            if line.startswith("event: "):
                event = line[7:]
                if event == "end":
                    break
            elif line.startswith("data: ") and event == "move":
                import json
                moves.append(json.loads(line[6:])["move"])
    assert [m["ply"] for m in moves] == list(range(9))  # perfect play draws
    replay = client.get(f"/api/matches/{match_id}/replay").json()
    assert [m["action"] for m in replay["moves"]] == [m["action"] for m in moves]
    assert all(m["explanation"] for m in replay["moves"][:-1])
    assert client.get(f"/api/matches/{match_id}").json()["result"]["winners"] == []


def test_pause_and_step_an_ai_only_match(client):
    created = client.post("/api/matches", json={"game": "tictactoe", "delay_ms": 0, "seats": [
        {"type": "agent", "level": 1}, {"type": "agent", "level": 1}]}).json()
    match_id, control = created["id"], {"Authorization": f"Bearer {created['control_token']}"}
    assert client.post(f"/api/matches/{match_id}/control", json={"action": "pause"}).status_code == 401
    assert client.post(f"/api/matches/{match_id}/control", json={"action": "pause"},
                       headers={"Authorization": "Bearer guess"}).status_code == 403
    assert client.post(f"/api/matches/{match_id}/control", json={"action": "pause"}, headers=control).json()["paused"]
    assert client.post(f"/api/matches/{match_id}/control", json={"action": "step"},
                       headers=control).json()["steps"] == 1
    with client.stream("GET", f"/api/matches/{match_id}/events") as stream:
        for line in stream.iter_lines():
            if line.startswith("event: move"):
                break
    view = client.get(f"/api/matches/{match_id}").json()
    assert view["ply"] == 1 and view["paused"]
    human_id, tokens = new_match(client, "tictactoe", [HUMAN, {"type": "agent", "level": 1}])
    assert client.post(f"/api/matches/{human_id}/control", json={"action": "pause"}).status_code == 409


def test_rematch_and_swap_sides(client):
    match_id, tokens = new_match(client, "tictactoe", [HUMAN, {"type": "agent", "level": 1}])
    play_randomly(client, match_id, tokens[0], random.Random(2))
    assert client.post(f"/api/matches/{match_id}/rematch", json={}).status_code == 401
    r = client.post(f"/api/matches/{match_id}/rematch", json={"swap": True}, headers=tokens[0]).json()
    view = client.get(f"/api/matches/{r['id']}", headers={"Authorization": f"Bearer {r['tokens']['1']}"}).json()
    assert view["seat"] == 1 and view["seats"][1]["type"] == "human" and view["rematch_of"] == match_id
    assert view["ply"] == 1  # the AI, now X, has already opened


def test_a_restart_loses_nothing(db_url):
    from fastapi.testclient import TestClient

    from app.main import create_app

    with TestClient(create_app(db_url, preload=False)) as c:
        match_id, tokens = new_match(c, "tictactoe", [HUMAN, {"type": "agent", "level": 2}])
        c.post(f"/api/matches/{match_id}/moves", json={"action": "cell:4", "ply": 0}, headers=tokens[0])
        before = c.get(f"/api/matches/{match_id}", headers=tokens[0]).json()
    with TestClient(create_app(db_url, preload=False)) as c:
        after = c.get(f"/api/matches/{match_id}", headers=tokens[0]).json()
        assert after == before
        final = play_randomly(c, match_id, tokens[0], random.Random(5))
        assert final["status"] == "finished"


def test_agents_strength_and_training_runs(client):
    agents = {a["id"]: a for a in client.get("/api/agents?game=tictactoe").json()}
    assert agents["perfect"]["strength"]["vs"]["Perfect"]["score"] == 0.5
    assert agents["menace-live"]["live"] and not agents["perfect"]["live"]
    runs = client.get("/api/agents/training-runs?game=tictactoe").json()
    menace = next(r for r in runs if r["file"] == "menace-trained")
    assert menace["games"] > 0 and menace["command"].startswith("parlour train tictactoe menace")
    curve = client.get("/api/agents/tictactoe/menace-trained/curve").json()
    assert curve["training"]["windows"] and curve["live"] is None
