"""Ratings: every finished match rates its players exactly once; tournaments rate agents."""
from concurrent.futures import ThreadPoolExecutor

from app.cli import main
from app.services.ratings import MODEL, update
from tests.conftest import new_match


def board(client, game="tictactoe") -> dict:
    r = client.get(f"/api/leaderboard?game={game}")
    assert r.status_code == 200, r.text
    return {p["player"]: p for p in r.json()["players"]}


def test_openskill_update_conventions():
    prior = {}
    won = update(prior, ["agent:a", "agent:b"], [0])
    assert won["agent:a"][0] > MODEL.mu > won["agent:b"][0]
    drawn = update(prior, ["agent:a", "agent:b"], [])
    assert abs(drawn["agent:a"][0] - drawn["agent:b"][0]) < 1e-9 and drawn["agent:a"][1] < MODEL.sigma
    assert update(prior, ["agent:a", "agent:a"], [0]) == {}  # against itself: nothing to learn


def test_a_finished_match_rates_the_person_and_the_level(client):
    match_id, tokens = new_match(client, "tictactoe", [{"type": "human", "name": "Ada"}, {"type": "agent", "level": 4}])
    assert "person:Ada" not in board(client)
    ply = 0
    for cell in (0, 1, 2, 3, 4, 5, 6, 7, 8):  # any legal cell, until the game ends
        view = client.get(f"/api/matches/{match_id}", headers=tokens[0]).json()
        if view["status"] != "active":
            break
        legal = [a["id"] for a in view["legal_actions"]]
        if f"cell:{cell}" in legal:
            r = client.post(f"/api/matches/{match_id}/moves", json={"action": f"cell:{cell}", "ply": view["ply"]},
                            headers=tokens[0])
            assert r.status_code == 200, r.text
            ply = r.json()["ply"]
    assert ply > 0
    rated = board(client)
    ada, perfect = rated["person:Ada"], rated["agent:perfect"]
    assert ada["games"] == perfect["games"] == 1 and ada["kind"] == "person" and perfect["level"] == 4
    assert ada["mu"] <= MODEL.mu <= perfect["mu"] and ada["sigma"] < MODEL.sigma  # Perfect never loses
    assert abs(ada["ordinal"] - (ada["mu"] - 3 * ada["sigma"])) < 1e-6
    points = client.get("/api/leaderboard/history", params={"game": "tictactoe", "player": "person:Ada"}).json()
    assert [p["match"] for p in points["points"]] == [match_id]
    assert client.get("/api/leaderboard?game=chess").status_code in (400, 404, 422)


def test_racing_final_moves_rate_the_match_once(client):
    """Two people; X's winning move is sent by eight requests at once: one lands, one rating."""
    match_id, tokens = new_match(client, "tictactoe", [{"type": "human", "name": "Xena"},
                                                       {"type": "human", "name": "Otto"}])
    for ply, (seat, cell) in enumerate([(0, 0), (1, 3), (0, 1), (1, 4)]):
        r = client.post(f"/api/matches/{match_id}/moves", json={"action": f"cell:{cell}", "ply": ply},
                        headers=tokens[seat])
        assert r.status_code == 200, r.text

    def final(_):
        return client.post(f"/api/matches/{match_id}/moves", json={"action": "cell:2", "ply": 4},
                           headers=tokens[0]).status_code

    with ThreadPoolExecutor(8) as pool:
        statuses = list(pool.map(final, range(8)))
    assert statuses.count(200) == 1 and set(statuses) <= {200, 409}, statuses
    rated = board(client)
    assert rated["person:Xena"]["games"] == rated["person:Otto"]["games"] == 1
    assert rated["person:Xena"]["wins"] == 1 and rated["person:Xena"]["mu"] > rated["person:Otto"]["mu"]
    history = client.get("/api/leaderboard/history", params={"game": "tictactoe", "player": "person:Xena"}).json()
    assert len(history["points"]) == 1


def test_a_tournament_rates_its_agents(client, db_url, monkeypatch, capsys):
    monkeypatch.setenv("PARLOUR_DATABASE_URL", db_url)
    assert main(["tournament", "tictactoe", "--players", "perfect,random", "--games", "40", "--workers", "1"]) == 0
    capsys.readouterr()
    rated = board(client)
    assert rated["agent:perfect"]["games"] == rated["agent:random"]["games"] == 40
    assert rated["agent:perfect"]["ordinal"] > rated["agent:random"]["ordinal"]
    points = client.get("/api/leaderboard/history", params={"game": "tictactoe", "player": "agent:perfect"}).json()
    assert len(points["points"]) == 1 and points["points"][0]["tournament"] is not None


def test_ratings_are_shown_on_a_scale_players_know(client, db_url, monkeypatch, capsys):
    """1500 + 42 (mu - 25) for people and levels alike, provisional ("1500?") until ten rated
    matches; mu and sigma are still given, and settled ratings are listed first."""
    match_id, tokens = new_match(client, "tictactoe", [{"type": "human", "name": "Ada"}, {"type": "agent", "level": 4}])
    client.post(f"/api/matches/{match_id}/resign", headers=tokens[0])
    monkeypatch.setenv("PARLOUR_DATABASE_URL", db_url)
    assert main(["tournament", "tictactoe", "--players", "perfect,random", "--games", "20", "--workers", "1"]) == 0
    capsys.readouterr()
    listed = client.get("/api/leaderboard?game=tictactoe").json()["players"]
    for p in listed:
        assert p["rating"] == round(1500 + 42 * (p["mu"] - 25)) and p["ordinal"] == p["mu"] - 3 * p["sigma"]
        assert p["provisional"] == (p["games"] < 10)
        assert p["display"] == (f"{p['rating']}?" if p["provisional"] else str(p["rating"]))
    rated = {p["player"]: p for p in listed}
    ada, perfect, rnd = rated["person:Ada"], rated["agent:perfect"], rated["agent:random"]
    assert ada["provisional"] and ada["rating"] < 1500 and ada["display"].endswith("?")  # lost her one game
    assert not perfect["provisional"] and perfect["games"] == 21 and perfect["rating"] > rnd["rating"]
    order = [p["player"] for p in listed]
    assert order.index("person:Ada") > max(order.index("agent:perfect"), order.index("agent:random"))  # settled first
    settled = [p["rating"] for p in listed if not p["provisional"]]
    assert settled == sorted(settled, reverse=True)
    page = client.get("/api/people/Ada").json()["ratings"]["tictactoe"]
    assert {k: page[k] for k in ("rating", "provisional", "display", "mu", "sigma")} == \
        {k: ada[k] for k in ("rating", "provisional", "display", "mu", "sigma")}
    assert page["history"][-1]["rating"] == ada["rating"]
    assert "1500 + 42" in client.get("/api/leaderboard").json()["model"]
