"""People: names (1 to 32 printable characters), display names distinct within a match, and the
page per person (matches, record against each level, rating over time)."""
import random

from tests.conftest import new_match, play_randomly


def test_every_seat_has_a_display_name_distinct_in_the_match(client):
    seats = [{"type": "human", "name": "Ann"}] + [{"type": "agent", "agent": "defensive"}] * 2 \
        + [{"type": "agent", "agent": "random"}]
    match_id, _ = new_match(client, "uno", seats, options={"target_score": 50})
    view = client.get(f"/api/matches/{match_id}").json()
    shown = [s["display_name"] for s in view["seats"]]
    assert shown == ["Ann", "Defensive A", "Defensive B", "Random"]
    listed = client.get("/api/matches", params={"game": "uno"}).json()["matches"][0]["seats"]
    assert [s["display_name"] for s in listed] == shown


def test_two_people_of_one_name_are_told_apart(client):
    match_id, _ = new_match(client, "tictactoe", [{"type": "human", "name": "Sam"}, {"type": "human", "name": "Sam"}])
    seats = client.get(f"/api/matches/{match_id}").json()["seats"]
    assert [s["display_name"] for s in seats] == ["Sam A", "Sam B"] and [s["name"] for s in seats] == ["Sam", "Sam"]


def test_a_persons_page_lists_matches_record_and_rating(client):
    rng = random.Random(3)
    for level in (1, 1, 4):
        match_id, tokens = new_match(client, "tictactoe", [{"type": "human", "name": "Zoë K"},
                                                           {"type": "agent", "level": level}])
        play_randomly(client, match_id, tokens[0], rng)
    new_match(client, "tictactoe", [{"type": "human", "name": "Zoë K"}, {"type": "agent", "level": 2}])  # unfinished
    data = client.get("/api/people/Zoë K").json()
    assert data["name"] == "Zoë K" and data["total_matches"] == 4
    assert [m["status"] for m in data["matches"]] == ["active", "finished", "finished", "finished"]
    assert all(any(s["me"] and s["display_name"] == "Zoë K" for s in m["seats"]) for m in data["matches"])
    by_level = {r["level"]: r for r in data["record"]}
    assert set(by_level) == {1, 4}
    assert sum(by_level[1][k] for k in ("win", "draw", "loss")) == 2
    assert by_level[4]["win"] == 0  # Perfect never loses
    rating = data["ratings"]["tictactoe"]
    assert rating["games"] == 3 and len(rating["history"]) == 3
    assert client.get("/api/people/Nobody").status_code == 404
    assert client.get("/api/people/" + "x" * 33).status_code == 422
    page = client.get("/people/Zoë K")
    assert page.status_code == 200 and "Zoë K" in page.text and "not identities" in page.text
