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


def test_the_record_counts_every_ai_at_the_table(client):
    """Ann resigns at a table of levels 1, 3 and 3: a loss against level 1 and one against level
    3 (seated twice, counted once), not only against the highest level seated."""
    seats = [{"type": "human", "name": "Ann"}, {"type": "agent", "level": 1}, {"type": "agent", "level": 3},
             {"type": "agent", "level": 3}]
    match_id, tokens = new_match(client, "uno", seats, options={"target_score": 50})
    assert client.post(f"/api/matches/{match_id}/resign", headers=tokens[0]).status_code == 200
    record = {r["level"]: r for r in client.get("/api/people/Ann").json()["record"]}
    assert {level: (r["win"], r["draw"], r["loss"]) for level, r in record.items()} == {1: (0, 0, 1), 3: (0, 0, 1)}
    assert client.get("/api/people-vs-levels", params={"game": "uno"}).json() == list(record.values())


def test_the_record_ranks_each_level_as_the_ratings_do():
    """Won beats did not win; both won or neither: a draw (a third seat won)."""
    from types import SimpleNamespace as Row

    from app.services.people import record

    def seat(kind, won, level=None, name=None):
        return Row(kind=kind, won=won, level=level, agent=f"a{level}" if level else None, name=name)

    rated = {"hints": False, "seed_chosen": False}  # what a stored match says besides (app.services.ratings)
    matches = [Row(game="uno", ending=None, **rated, seats=[seat("human", True, name="Ann"), seat("agent", False, 1),
                                                            seat("agent", False, 2)]),
               Row(game="uno", ending=None, **rated, seats=[seat("human", False, name="Ann"), seat("agent", True, 1),
                                                            seat("agent", False, 2)]),
               Row(game="uno", ending={"kind": "abandoned"}, **rated, seats=[seat("human", False, name="Ann"),
                                                                             seat("agent", False, 2)])]
    got = {r["level"]: (r["win"], r["draw"], r["loss"]) for r in record(matches, "Ann")}
    assert got == {1: (1, 0, 1), 2: (1, 1, 0)}
