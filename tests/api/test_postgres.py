"""The same contract on PostgreSQL (for several server processes sharing the load).

Runs when PARLOUR_TEST_POSTGRES_URL names an empty database, e.g.
``postgresql+psycopg://postgres@/parlour_test?host=/tmp&port=5433``; skipped otherwise.
"""
import os
import random
import threading

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from agents.base import Update
from app.db import make_engine, session_factory
from app.main import create_app
from app.services import canary, live
from tests.api.test_live_menace import HUMAN, LIVE
from tests.conftest import new_match, play_randomly

URL = os.environ.get("PARLOUR_TEST_POSTGRES_URL")
pytestmark = pytest.mark.skipif(not URL, reason="set PARLOUR_TEST_POSTGRES_URL to test on PostgreSQL")


def empty_postgres(url: str) -> str:
    """The database at ``url`` emptied (every table dropped): the URL, for a fresh app."""
    engine = make_engine(url)
    with engine.begin() as c:
        c.execute(text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
    live._cache.clear()  # this process's copies of the learners' tables were of the database just dropped
    engine.dispose()
    return url


@pytest.fixture
def pg_client():
    with TestClient(create_app(empty_postgres(URL), preload=False)) as client:
        yield client


def test_play_learn_and_concurrent_updates_on_postgres(pg_client):
    match_id, tokens = new_match(pg_client, "tictactoe", [HUMAN, LIVE])
    final = play_randomly(pg_client, match_id, tokens[0], random.Random(1))
    assert final["status"] == "finished"
    assert pg_client.get("/api/agents/tictactoe/menace-live").json()["live_state"]["games"] == 1
    sessions = session_factory(make_engine(URL))
    key = ".........:4"

    def worker():
        with sessions() as s:
            for _ in range(20):
                live.apply_updates(s, "tictactoe", "menace-live", [Update(key, "add", -1.0, floor=0.0),
                                                                    Update("x:1", "blend", target=1.0, rate=0.5)])

    with sessions() as s:
        live.apply_updates(s, "tictactoe", "menace-live", [Update(key, "add", 100.0, floor=0.0)])
        start = live.table(s, "tictactoe", "menace-live")[key]
    threads = [threading.Thread(target=worker) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with sessions() as s:
        table = live.table(s, "tictactoe", "menace-live")
    assert table[key] == start - 60  # every one counted (the box never came near empty: no refill)
    assert abs(table["x:1"] - (1 - 0.5 ** 60)) < 1e-9
    assert pg_client.get("/api/results?format=csv").status_code == 200


def test_reset_snapshots_rollback_and_the_learning_limit_on_postgres(pg_client, admin, monkeypatch):
    monkeypatch.setenv("PARLOUR_LEARN_LIMIT", "1")
    results = []
    for seed in range(2):
        match_id, tokens = new_match(pg_client, "tictactoe", [HUMAN, LIVE])
        results.append(play_randomly(pg_client, match_id, tokens[0], random.Random(seed))["learning"]["1"]["learned"])
    assert results == [True, False]
    reset = "/api/agents/tictactoe/menace-live/reset"
    assert pg_client.post(reset, json={"to": "trained"}, headers=admin).json()["origin"] == "trained"
    snaps = pg_client.get("/api/agents/tictactoe/menace-live/snapshots", headers=admin).json()["snapshots"]
    assert snaps[0]["reason"] == "before reset" and snaps[0]["games"] == 1
    r = pg_client.post("/api/agents/tictactoe/menace-live/rollback", json={"snapshot": snaps[0]["id"]}, headers=admin)
    assert r.json() == {"agent": "menace-live", "game": "tictactoe", "origin": "beginner", "games": 1}


def test_bounded_weight_canary_verdicts_and_quarantine_on_postgres(pg_client, admin, monkeypatch):
    monkeypatch.setenv("PARLOUR_LEARN_LIMIT", "0")
    monkeypatch.setenv("PARLOUR_LEARN_BOX_LIMIT", "2")
    sessions = session_factory(make_engine(URL))
    agent, key = "tictactoe/menace-live", ".........:4"

    def learn(s, client, match_id):
        return live.apply_updates(s, "tictactoe", "menace-live", [Update(key, "add", 1.0, floor=0.0)],
                                  clients=[client], match_id=match_id)

    with sessions() as s:
        assert [learn(s, "a", f"m{i}").learned for i in range(3)] == [True, True, False]  # a's weight: 2 games
        assert learn(s, "b", "m3").learned
        assert live.table(s, "tictactoe", "menace-live")[key] == 4 + 3
        assert live.settle(s, live.read_content(s, agent), agent, True, {"scores": {}}, "") is not None
        assert learn(s, "c", "m4").learned and learn(s, "d", "m5").learned
        assert live.settle(s, live.read_content(s, agent), agent, False, {"scores": {}}, "canary after 5: test")
        assert live.table(s, "tictactoe", "menace-live")[key] == 4 + 3  # the last good table
    listed = pg_client.get("/api/agents/tictactoe/menace-live/quarantine", headers=admin).json()["games"]
    assert [g["match"] for g in listed] == ["m5", "m4"] and listed[0]["why"] == "canary after 5: test"
    snaps = pg_client.get("/api/agents/tictactoe/menace-live/snapshots", headers=admin).json()["snapshots"]
    assert [s["passed"] for s in snaps] == [False, True]
    assert canary.check(sessions, "tictactoe", "menace-live")["passed"] is True  # the real canary, on PostgreSQL


def test_a_former_judges_verdicts_are_computed_again_on_postgres(pg_client):
    from tests.api import test_coach
    test_coach.test_verdicts_of_another_judge_are_not_served_and_are_computed_again(pg_client)
