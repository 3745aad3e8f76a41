"""Seeds belong to the server (issue 23): a match whose creator chose the seed is replayable but
neither rated nor learned from, and says so; the seed the server draws is never served."""
import csv
import io
import json
import random

from agents.tictactoe.menace import beginner_table
from app.db import get_engine, session_factory
from app.models import Match
from app.services.match_lifecycle import server_seed
from engine import get_game
from tests.api.test_live_menace import beads
from tests.conftest import event_payloads, new_match, play_randomly

ANN = {"type": "human", "name": "Ann"}
SHORT = {"uno": {"target_score": 30}, "racko": {"rack_size": 5, "target_score": 30, "max_turns": 60},
         "yaniv": {"elimination": 5}, "queen_of_spades": {"deals": 1}}
"""The four card games, with options for a short match."""


def table_for(game: str, agent: dict | None = None) -> list[dict]:
    """Ann and as many AIs (level 1 unless ``agent``) as the game needs at least."""
    n = get_game(game).min_players
    return [ANN] + [agent or {"type": "agent", "level": 1}] * (n - 1)


def stored_match(db_url, match_id) -> Match:
    with session_factory(get_engine(db_url))() as s:
        m = s.get(Match, match_id)
        s.expunge(m)
        return m


def results_of(client, match_id) -> list[dict]:
    return [r for r in client.get("/api/results").json() if r["match"] == match_id]


def test_choosing_the_seed_shows_every_hand_so_the_match_counts_for_nothing(client, db_url):
    """The attack: Ann chooses the seed, deals the same match with the engine's public code and
    knows every AI's hand. The match is played to its end and nothing is rated; its view, the
    results (JSON and CSV) and the matches' list say why. The same table with the server's seed
    is rated."""
    for game, options in SHORT.items():
        G, seats = get_game(game), table_for(game)
        chosen, tokens = new_match(client, game, seats, seed=2024, options=options)
        dealt = G.new_match(len(seats), 2024, G.resolve_options(options))
        start = client.get(f"/api/matches/{chosen}/replay", headers=tokens[0]).json()["start"]
        assert start == json.loads(json.dumps(G.observe(dealt, 0))), game  # the engine deals what the server dealt
        assert G.observe(dealt, 1) != G.observe(dealt, 0)  # ...so Ann holds the AI's view of the deal too
        view = client.get(f"/api/matches/{chosen}", headers=tokens[0]).json()
        assert view["rated"] is False and view["unrated_reason"].startswith("seed chosen by the creator"), game
        served, tokens2 = new_match(client, game, seats, options=options)
        for match_id, t in ((chosen, tokens), (served, tokens2)):
            assert play_randomly(client, match_id, t[0], random.Random(3))["status"] == "finished"
        assert client.get(f"/api/matches/{chosen}").json()["rated"] is False
        assert {r["rated"] for r in results_of(client, chosen)} == {False}
        assert {r["unrated_reason"] for r in results_of(client, chosen)} == {view["unrated_reason"]}
        assert {(r["rated"], r["unrated_reason"]) for r in results_of(client, served)} == {(True, None)}
    board = client.get("/api/leaderboard").json()["players"]
    assert {p["game"] for p in board} == set(SHORT) and all(p["games"] == 1 for p in board)  # the served ones only
    listed = {m["id"]: m["rated"] for m in client.get("/api/matches?per_page=20").json()["matches"]}
    assert sorted(listed.values()) == [False] * 4 + [True] * 4
    rows = list(csv.DictReader(io.StringIO(client.get("/api/results?format=csv").text)))
    assert {r["rated"] for r in rows} == {"true", "false"} and "unrated_reason" in rows[0]
    assert sum(p["win"] + p["draw"] + p["loss"] for p in client.get("/api/people-vs-levels").json()) == 4
    assert client.get("/api/people/Ann").json()["ratings"].keys() == set(SHORT)


def test_a_chosen_seed_teaches_no_live_learner(client, db_url):
    """Live MENACE and live Harel play out matches whose creator chose the seed: their tables do
    not move and the view's ``learning`` says why; with the server's seed they learn."""
    match_id, tokens = new_match(client, "tictactoe", [ANN, {"type": "agent", "agent": "menace-live"}], seed=7)
    view = play_randomly(client, match_id, tokens[0], random.Random(1))
    assert beads(db_url) == beginner_table()
    assert view["learning"] == {"1": {"agent": "menace-live", "learned": False,
                                      "reason": f"not learned from: {view['unrated_reason']}"}}
    harel = {"type": "agent", "agent": "harel-live"}
    match_id, tokens = new_match(client, "yaniv", table_for("yaniv", harel), seed=7, options=SHORT["yaniv"])
    view = play_randomly(client, match_id, tokens[0], random.Random(1))
    assert view["learning"]["1"]["learned"] is False and "seed chosen" in view["learning"]["1"]["reason"]
    for game in ("tictactoe", "yaniv"):
        agent = "menace-live" if game == "tictactoe" else "harel-live"
        assert client.get(f"/api/agents/{game}/{agent}").json()["live_state"]["games"] == 0
    match_id, tokens = new_match(client, "tictactoe", [ANN, {"type": "agent", "agent": "menace-live"}])
    view = play_randomly(client, match_id, tokens[0], random.Random(1))
    assert view["learning"]["1"]["learned"] is True and beads(db_url) != beginner_table()


def test_ai_only_matches_keep_their_seeds_and_replay_exactly_but_count_only_when_the_server_deals(client):
    seats = [{"type": "agent", "level": 1}, {"type": "agent", "level": 2}]
    games = []
    for seed in (99, 99, None):
        match_id, _ = new_match(client, "uno", seats, options=SHORT["uno"], delay_ms=0,
                                **({} if seed is None else {"seed": seed}))
        event_payloads(client, match_id, 10_000)  # watched to its end (the stream closes there)
        replay = client.get(f"/api/matches/{match_id}/replay").json()
        assert replay["status"] == "finished"
        games.append(([m["action"] for m in replay["moves"]], client.get(f"/api/matches/{match_id}").json()))
    assert games[0][0] == games[1][0]  # the same seed plays the same match
    assert [v["rated"] for _, v in games] == [False, False, True]


def test_a_friend_sees_the_seed_was_chosen_before_joining_and_a_rematch_is_dealt_by_the_server(client, db_url):
    r = client.post("/api/matches", json={"game": "uno", "seed": 5, "options": SHORT["uno"],
                                          "seats": [ANN, {"type": "friend"}]})
    data = r.json()
    friend = {"Authorization": f"Bearer {data['invites']['1'].rpartition('.')[2]}"}  # the link's token
    waiting = client.get(f"/api/matches/{data['id']}", headers=friend).json()
    assert waiting["status"] == "waiting" and waiting["rated"] is False
    assert "seed chosen by the creator" in waiting["unrated_reason"]

    match_id, tokens = new_match(client, "tictactoe", [ANN, {"type": "agent", "level": 1}], seed=5)
    play_randomly(client, match_id, tokens[0], random.Random(2))
    again = client.post(f"/api/matches/{match_id}/rematch", json={}, headers=tokens[0]).json()
    assert client.get(f"/api/matches/{again['id']}").json()["rated"] is True
    first, second = stored_match(db_url, match_id), stored_match(db_url, again["id"])
    assert (first.seed, first.seed_chosen) == (5, True)
    assert second.seed_chosen is False and second.seed != 5


def test_the_server_seed_has_62_random_bits():
    draws = [server_seed() for _ in range(200)]
    assert all(0 <= d < 2 ** 62 for d in draws) and max(draws) >= 2 ** 61 and len(set(draws)) == 200


def test_the_server_seed_of_a_persons_match_is_never_served(client, server_seed):
    """Every answer about a match with a person in each card game, while it runs and after, with
    the server's seed fixed to a number that could not appear by chance: the seed is in none."""
    seed = server_seed(2 ** 61 + 271_828_182_845_904)
    secret = str(seed)
    for game, options in SHORT.items():
        match_id, tokens = new_match(client, game, table_for(game), options=options)
        rng, texts = random.Random(4), []
        while True:
            view = client.get(f"/api/matches/{match_id}", headers=tokens[0])
            texts.append(view.text)
            if view.json()["status"] != "active":
                break
            if view.json()["ply"] and len(texts) == 2:  # mid-match: the stream, the replay, the lists
                texts.append(json.dumps(event_payloads(client, match_id, view.json()["ply"], tokens[0])))
                texts += [client.get(path, headers=tokens[0]).text for path in (
                    f"/api/matches/{match_id}/replay", "/api/matches", f"/play/{match_id}")]
            action = rng.choice(view.json()["legal_actions"])["id"]
            texts.append(client.post(f"/api/matches/{match_id}/moves", headers=tokens[0],
                                     json={"action": action, "ply": view.json()["ply"]}).text)
        texts.append(json.dumps(event_payloads(client, match_id, 100_000)))
        texts += [client.get(path, headers=tokens[0]).text for path in (
            f"/api/matches/{match_id}", f"/api/matches/{match_id}/replay", "/api/matches", f"/play/{match_id}",
            "/api/results", "/api/results?format=csv", "/api/people/Ann", "/api/leaderboard")]
        assert len(texts) > 10
        assert not [t for t in texts if secret in t], game
