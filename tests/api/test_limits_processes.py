"""The per-client limits hold across two server processes on one database (SQLite here;
PostgreSQL too when PARLOUR_TEST_POSTGRES_URL names an empty database): the creation limit
and the budget of running AI-only matches are counted in the database, and each process allows
its share of the GET quota (the limit divided by PARLOUR_WORKERS)."""
import urllib.request

from tests.api.servers import Server
from tests.api.test_processes import database_url  # noqa: F401 (the fixture)

HUMAN = {"type": "human", "name": "Ann"}
AI_ONLY = {"game": "tictactoe", "delay_ms": 60_000, "seats": [{"type": "agent", "level": 1}] * 2}


def start(server: Server, created: dict) -> int:
    """Get an AI-only match moving on ``server``: pause, step (its stream shows the move), resume."""
    match_id, control = created["id"], created["control_token"]
    for action in ("pause", "step"):
        assert server.call("POST", f"/api/matches/{match_id}/control", {"action": action}, control)[0] == 200
    with urllib.request.urlopen(f"{server.base}/api/matches/{match_id}/events", timeout=60) as stream:
        for line in stream:
            if line.startswith(b"event: move"):
                break
    return server.call("POST", f"/api/matches/{match_id}/control", {"action": "resume"}, control)[0]


def test_the_limits_hold_across_two_processes(database_url):  # noqa: F811
    env = {"PARLOUR_CREATE_LIMIT": "5", "PARLOUR_AI_ONLY_RUNNING": "2", "PARLOUR_GET_LIMIT": "8",
           "PARLOUR_WORKERS": "2"}
    a = Server(database_url, **env)
    try:
        b = Server(database_url, **env)
    except Exception:
        a.stop()
        raise
    try:
        # the budget of running AI-only matches: two, wherever they were created and run
        made = [server.call("POST", "/api/matches", AI_ONLY) for server in (a, b)]
        assert [status for status, _ in made] == [201, 201]
        assert start(b, made[0][1]) == 200 and start(a, made[1][1]) == 200
        for server in (a, b):
            status, answer = server.call("POST", "/api/matches", AI_ONLY)
            assert status == 429 and "at most 2 AI-only matches" in answer["detail"]
        # the creation limit: five a minute in all (four made so far, two of them refused)
        assert [(a, b)[k % 2].call("POST", "/api/matches", {"game": "tictactoe", "seats": [HUMAN, HUMAN]})[0]
                for k in range(4)] == [201, 201, 201, 429]
        # the GET quota: eight a minute, four in each process (the readiness check and a stream took
        # one each of each process's)
        reads = [server.call("GET", "/api/games")[0] for server in (a, b) for _ in range(3)]
        assert reads == [200, 200, 429] * 2
    finally:
        a.stop()
        b.stop()
