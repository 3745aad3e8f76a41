"""Two server processes sharing one database (SQLite here; PostgreSQL too when
PARLOUR_TEST_POSTGRES_URL names an empty database): moves from both land, and the live
learner's updates from both count."""
import os
import random

import pytest
from sqlalchemy import text

from app.db import make_engine
from tests.api.servers import Server

HUMAN = {"type": "human", "name": "Ann"}
LIVE = {"type": "agent", "agent": "menace-live"}
PG = os.environ.get("PARLOUR_TEST_POSTGRES_URL")


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'shared.db'}"
    if not PG:
        pytest.skip("set PARLOUR_TEST_POSTGRES_URL to test on PostgreSQL")
    engine = make_engine(PG)
    with engine.begin() as c:
        c.execute(text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
    engine.dispose()
    return PG


def test_two_processes_share_matches_and_learning(database_url):
    a = Server(database_url)
    try:
        b = Server(database_url)
    except Exception:
        a.stop()
        raise
    try:
        rng = random.Random(8)
        games = 6
        for g in range(games):
            status, created = (a, b)[g % 2].call("POST", "/api/matches", {"game": "tictactoe", "seats": [HUMAN, LIVE]})
            assert status == 201, created
            match_id, token = created["id"], created["tokens"]["0"]
            turn = 0
            while True:  # the moves alternate between the two processes
                server = (a, b)[turn % 2]
                turn += 1
                status, view = server.call("GET", f"/api/matches/{match_id}", token=token)
                assert status == 200
                if view["status"] != "active":
                    break
                status, answer = server.call("POST", f"/api/matches/{match_id}/moves",
                                             {"action": rng.choice(view["legal_actions"])["id"], "ply": view["ply"]},
                                             token)
                assert status == 200, answer
            _, replay = a.call("GET", f"/api/matches/{match_id}/replay")
            assert [m["ply"] for m in replay["moves"]] == list(range(view["ply"]))
        for server in (a, b):
            _, menace = server.call("GET", "/api/agents/tictactoe/menace-live")
            assert menace["live_state"]["games"] == games  # every game counted, whichever process ended it
        boxes = [s.call("GET", "/api/agents/tictactoe/menace-live/boxes")[1] for s in (a, b)]
        assert boxes[0] == boxes[1]  # both see every update
    finally:
        a.stop()
        b.stop()
