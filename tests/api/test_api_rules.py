"""One API rule, kept everywhere (issue 26): a malformed action is 422 whatever the ply, an unknown
game is 404 wherever it is named, a body without its JSON Content-Type is told so, ``player=``
takes a name as the pages show it, a rematch needs no body, unknown options list the valid ones,
the CSV writes true/false, and ``ply`` is a JSON integer or absent."""
import csv
import io
import random

from tests.api.test_security import is_problem
from tests.conftest import new_match, play_randomly

ANN = {"type": "human", "name": "Ann"}
LEVEL_1 = {"type": "agent", "level": 1}


def move(client, match_id, headers, **body):
    return client.post(f"/api/matches/{match_id}/moves", json=body, headers=headers)


def test_syntax_first_then_staleness_then_legality(client):
    match_id, tokens = new_match(client, "tictactoe", [ANN, LEVEL_1])
    assert move(client, match_id, tokens[0], action="cell:0", ply=0).status_code == 200  # X at 0, the AI replies
    view = client.get(f"/api/matches/{match_id}", headers=tokens[0]).json()
    taken = next(f"cell:{i}" for i, c in enumerate(view["view"]["cells"]) if c == "O")
    for action in ("4", "cell 0", "cell:04", "CELL:4", "cell:9", "cell:٤"):
        for ply in (0, 2, None):  # stale, current, none: always the syntax first
            body = is_problem(move(client, match_id, tokens[0], action=action, **({} if ply is None else {"ply": ply})),
                              422, "cell:")
            assert body["field"] == "body.action"
    is_problem(move(client, match_id, tokens[0], action="cell:0", ply=0), 409, "stale")  # well formed, stale
    body = is_problem(move(client, match_id, tokens[0], action=taken, ply=2), 409, "already taken")  # then the rules
    assert body["action"] == taken
    assert client.get(f"/api/matches/{match_id}", headers=tokens[0]).json()["ply"] == 2


def test_a_malformed_action_out_of_turn_shows_no_one_elses_legal_moves(client):
    match_id, tokens = new_match(client, "uno", [ANN, {"type": "human", "name": "Bob"}], seed=7,
                                 options={"target_score": 50})
    view = client.get(f"/api/matches/{match_id}", headers=tokens[0]).json()
    mover, waiting = view["to_move"], 1 - view["to_move"]
    body = is_problem(move(client, match_id, tokens[waiting], action="play:purple"), 422, "not an action of Uno")
    assert "for example" not in body["detail"]  # the player to move's legal ids would show their hand
    legal = client.get(f"/api/matches/{match_id}", headers=tokens[mover]).json()["legal_actions"]
    is_problem(move(client, match_id, tokens[mover], action="play:purple"), 422, "for example", legal[0]["id"])
    assert move(client, match_id, tokens[waiting], action="draw").status_code == 409  # well formed: not your turn
    assert client.get(f"/api/matches/{match_id}").json()["ply"] == view["ply"]


def test_a_malformed_action_in_a_finished_match_is_still_422(client):
    match_id, tokens = new_match(client, "tictactoe", [ANN, LEVEL_1])
    assert client.post(f"/api/matches/{match_id}/resign", headers=tokens[0]).status_code == 200
    is_problem(move(client, match_id, tokens[0], action="cell 4"), 422, "not an action")
    is_problem(move(client, match_id, tokens[0], action="cell:4"), 409, "over")


def test_ply_is_a_json_integer_or_absent(client):
    match_id, tokens = new_match(client, "tictactoe", [ANN, LEVEL_1])
    for ply in ("0", True, "zero", 0.5):
        body = is_problem(move(client, match_id, tokens[0], action="cell:4", ply=ply), 422, "body.ply")
        assert body["field"] == "body.ply"
    after = move(client, match_id, tokens[0], action="cell:4", ply=0.0)  # JSON's 0.0 is the integer 0
    assert after.status_code == 200
    free = after.json()["legal_actions"][0]["id"]
    assert move(client, match_id, tokens[0], action=free).status_code == 200  # absent: not checked


def test_an_unknown_game_is_404_on_every_route_that_names_one(client, admin):
    """Every operation of the OpenAPI with a ``game`` parameter (path or query), and the body of
    a new match: a route added later without the rule fails here. (With the administrator's
    token: credentials are checked before anything else.)"""
    spec = client.get("/openapi.json").json()
    checked = []
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            names = {p["name"]: p["in"] for p in op.get("parameters", [])}
            if names.get("game") not in ("path", "query") or method != "get":
                continue
            url = path.replace("{game}", "chess").replace("{agent}", "random")
            params = {"game": "chess"} if names["game"] == "query" else {}
            if "player" in names:
                params["player"] = "Ann"
            assert "{" not in url, url
            is_problem(client.get(url, params=params, headers=admin), 404, "no game 'chess'")
            assert "404" in op["responses"], (method, path)
            checked.append(path)
    assert {"/api/results", "/api/agents", "/api/matches", "/api/leaderboard", "/api/leaderboard/history",
            "/api/people-vs-levels", "/api/tournaments", "/api/games/{game}", "/api/games/{game}/fair",
            "/api/agents/training-runs"} <= set(checked)
    is_problem(client.post("/api/matches", json={"game": "chess", "seats": [ANN, ANN]}), 404, "no game 'chess'")
    assert "404" in spec["paths"]["/api/matches"]["post"]["responses"]


def test_a_body_without_the_json_content_type_is_told_so(client):
    match_id, tokens = new_match(client, "tictactoe", [ANN, LEVEL_1])
    url = f"/api/matches/{match_id}/moves"
    text = '{"action": "cell:4"}'
    form = client.post(url, content=text, headers={**tokens[0], "Content-Type": "application/x-www-form-urlencoded"})
    assert is_problem(form, 400, "Content-Type: application/json", "x-www-form-urlencoded")["field"] == "body"
    is_problem(client.post(url, content=text, headers=tokens[0]), 400, "Content-Type: application/json",
               "no Content-Type")
    is_problem(client.post("/api/matches", json=[1, 2]), 400, "JSON object")  # JSON, but not an object
    assert client.post(url, content=text, headers={**tokens[0], "Content-Type": "application/json; charset=utf-8"}
                       ).status_code == 200


def test_player_takes_a_name_as_the_pages_show_it(client):
    match_id, tokens = new_match(client, "tictactoe", [{"type": "human", "name": "Api"}, {"type": "agent", "level": 4}])
    client.post(f"/api/matches/{match_id}/resign", headers=tokens[0])
    history = "/api/leaderboard/history"
    by_name = client.get(history, params={"game": "tictactoe", "player": "Api"}).json()
    assert by_name["player"] == "person:Api" and [p["match"] for p in by_name["points"]] == [match_id]
    assert client.get(history, params={"game": "tictactoe", "player": "person:Api"}).json() == by_name
    perfect = client.get(history, params={"game": "tictactoe", "player": "Perfect"}).json()  # a level's title
    assert perfect["player"] == "agent:perfect" and len(perfect["points"]) == 1
    is_problem(client.get(history, params={"game": "tictactoe", "player": "Nobody"}), 404, "Nobody")
    is_problem(client.get(history, params={"game": "uno", "player": "Api"}), 404, "uno")
    clash, clash_tokens = new_match(client, "tictactoe", [{"type": "human", "name": "Perfect"}, LEVEL_1])
    client.post(f"/api/matches/{clash}/resign", headers=clash_tokens[0])
    body = is_problem(client.get(history, params={"game": "tictactoe", "player": "Perfect"}), 422,
                      "person:Perfect", "agent:perfect")
    assert body["field"] == "query.player"


def test_a_rematch_needs_no_body(client):
    match_id, tokens = new_match(client, "tictactoe", [ANN, LEVEL_1])
    client.post(f"/api/matches/{match_id}/resign", headers=tokens[0])
    r = client.post(f"/api/matches/{match_id}/rematch", headers=tokens[0])
    assert r.status_code == 201, r.text
    view = client.get(f"/api/matches/{r.json()['id']}", headers={"Authorization": f"Bearer {r.json()['tokens']['0']}"})
    assert view.json()["seat"] == 0 and view.json()["rematch_of"] == match_id  # not swapped
    spec = client.get("/openapi.json").json()["paths"]["/api/matches/{match_id}/rematch"]["post"]
    assert not spec["requestBody"].get("required", False)


def test_unknown_options_list_the_valid_ones(client):
    body = is_problem(client.post("/api/matches", json={"game": "uno", "seats": [ANN, LEVEL_1],
                                                        "options": {"target": 100}}), 422, "target")
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert all(o["name"] in body["detail"] for o in games["uno"]["options"])
    is_problem(client.post("/api/matches", json={"game": "tictactoe", "seats": [ANN, LEVEL_1],
                                                 "options": {"board": 4}}), 422, "no options")


def test_csv_booleans_are_true_and_false(client):
    match_id, tokens = new_match(client, "tictactoe", [ANN, LEVEL_1])
    play_randomly(client, match_id, tokens[0], random.Random(4))
    text = client.get("/api/results?format=csv").text
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows and {r["ai_only"] for r in rows} == {"false"} and {r["hints"] for r in rows} == {"false"}
    json_rows = client.get("/api/results").json()
    assert [r["won"] for r in rows] == [str(j["won"]).lower() for j in json_rows]
    assert "True" not in text and "False" not in text
