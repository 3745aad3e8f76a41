"""A fair game in one click: GET /api/games/{game}/fair seats the level to play and says why. A
newcomer starts in the middle of the ladder, each finished match moves one step (a win up, a
loss down), and before any match against the AIs a rated person gets the level rated nearest."""
from app.cli import main
from tests.api.test_security import is_problem
from tests.conftest import new_match

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def fair(client, game="tictactoe", **params) -> dict:
    r = client.get(f"/api/games/{game}/fair", params=params)
    assert r.status_code == 200, r.text
    return r.json()


def sensible(cells: list[str]) -> int:
    """X's move: win, else block, else the centre or a corner, else any free cell."""
    for mark in ("X", "O"):
        for line in LINES:
            marks = [cells[i] for i in line]
            if marks.count(mark) == 2 and marks.count("") == 1:
                return line[marks.index("")]
    return next(i for i in (4, 0, 2, 6, 8, 1, 3, 5, 7) if not cells[i])


def beat_level_1(client, name: str) -> str:
    """A match ``name`` wins against level 1 (Random), trying seeds until one is won."""
    for seed in range(40):
        match_id, tokens = new_match(client, "tictactoe", [{"type": "human", "name": name},
                                                           {"type": "agent", "level": 1}], seed=seed)
        view = client.get(f"/api/matches/{match_id}", headers=tokens[0]).json()
        while view["status"] == "active":
            cell = sensible(view["view"]["cells"])
            r = client.post(f"/api/matches/{match_id}/moves", json={"action": f"cell:{cell}"}, headers=tokens[0])
            assert r.status_code == 200, r.text
            view = r.json()
        if view["result"]["winners"] == [0]:
            return match_id
    raise AssertionError("no win against Random in 40 seeds")


def resign_against(client, name: str, level: int, **extra) -> None:
    match_id, tokens = new_match(client, "tictactoe", [{"type": "human", "name": name},
                                                       {"type": "agent", "level": level}], **extra)
    assert client.post(f"/api/matches/{match_id}/resign", headers=tokens[0]).status_code == 200


def test_a_newcomer_starts_in_the_middle_and_the_seats_create_the_match(client):
    levels = client.get("/api/games/tictactoe").json()["levels"]
    first = fair(client, player="Ann")
    middle = (len(levels) + 1) // 2
    assert first["level"] == middle and "middle of the ladder" in first["why"]
    assert levels[middle - 1]["title"] in first["why"]
    assert first["seats"] == [{"type": "human", "name": "Ann"}, {"type": "agent", "level": middle}]
    r = client.post("/api/matches", json={"game": "tictactoe", "seats": first["seats"]})
    assert r.status_code == 201, r.text
    seats = client.get(f"/api/matches/{r.json()['id']}").json()["seats"]
    assert [(s["type"], s["name"] if s["type"] == "human" else s["level"]) for s in seats] == \
        [("human", "Ann"), ("agent", middle)]
    assert fair(client)["level"] == middle  # no name: a newcomer too
    queen = fair(client, "queen_of_spades", player="Ann")  # every other seat at the level
    assert queen["seats"][1:] == [{"type": "agent", "level": queen["level"]}] * 3


def test_each_finished_match_moves_one_step_up_or_down_the_ladder(client):
    beat_level_1(client, "Ann")
    up = fair(client, player="Ann")
    assert up["level"] == 2 and "won" in up["why"] and "one step up" in up["why"]
    resign_against(client, "Ann", 2)
    down = fair(client, player="Ann")
    assert down["level"] == 1 and "lost" in down["why"] and "one step down" in down["why"]
    resign_against(client, "Ann", 1)
    foot = fair(client, player="Ann")
    assert foot["level"] == 1 and "foot of the ladder" in foot["why"]
    resign_against(client, "Ann", 4, hints=True)  # with the coach's help: not counted, as it is not rated
    assert fair(client, player="Ann") == foot
    assert fair(client, player="Bob")["level"] == 2  # someone else's results are not Ann's


def test_before_any_match_against_the_ais_the_nearest_rating_decides(client, db_url, monkeypatch, capsys):
    monkeypatch.setenv("PARLOUR_DATABASE_URL", db_url)
    assert main(["tournament", "tictactoe", "--players", "perfect,random", "--games", "20", "--workers", "1"]) == 0
    capsys.readouterr()
    match_id, tokens = new_match(client, "tictactoe", [{"type": "human", "name": "Bea"},
                                                       {"type": "human", "name": "Cy"}])
    assert client.post(f"/api/matches/{match_id}/resign", headers=tokens[1]).status_code == 200  # Bea wins
    board = client.get("/api/leaderboard", params={"game": "tictactoe"}).json()["players"]
    bea = next(p for p in board if p["player"] == "person:Bea")
    levels = [p for p in board if p["kind"] == "agent" and p["level"]]
    nearest = min(levels, key=lambda p: (abs(p["rating"] - bea["rating"]), p["level"]))
    got = fair(client, player="Bea")
    assert got["level"] == nearest["level"]
    assert f"Your rating {bea['display']}" in got["why"]
    assert f"nearest {nearest['name']} ({nearest['display']})" in got["why"]


def test_the_fair_route_keeps_the_api_rules(client):
    is_problem(client.get("/api/games/chess/fair", params={"player": "Ann"}), 404, "no game 'chess'")
    is_problem(client.get("/api/games/uno/fair", params={"player": "  "}), 422, "1 to 32")
    is_problem(client.get("/api/games/uno/fair", params={"player": "A\x00"}), 422, "printable")
    spec = client.get("/openapi.json").json()
    op = spec["paths"]["/api/games/{game}/fair"]["get"]
    assert "FairGame" in str(op["responses"]["200"]) and {"404", "422"} <= set(op["responses"])
    assert set(spec["components"]["schemas"]["FairGame"]["required"]) == {"seats", "why", "level"}
