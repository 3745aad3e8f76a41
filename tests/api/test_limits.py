"""The per-client limits: a quota of GET requests (each process its share), the creation limit
and the budget of running AI-only matches counted in the database (the same limit for every
process on one database), and the shortest pause between an AI-only match's moves."""
import time
from datetime import timedelta

from fastapi.testclient import TestClient
from sqlalchemy import select, update

from app.db import get_engine, session_factory
from app.main import create_app
from app.models import Match, Move, now
from app.services import match_events
from tests.api.test_security import is_problem
from tests.conftest import new_match

HUMAN = {"type": "human", "name": "Ann"}
AI_ONLY = {"game": "tictactoe", "delay_ms": 0, "seats": [{"type": "agent", "level": 1}] * 2}


def test_gets_have_a_quota_per_client_and_each_process_its_share(db_url, monkeypatch):
    monkeypatch.setenv("PARLOUR_GET_LIMIT", "5")
    with TestClient(create_app(db_url, preload=False)) as c:
        match_id, tokens = new_match(c, "tictactoe", [HUMAN, HUMAN])
        for _ in range(3):  # neither a move nor a static file counts
            assert c.get("/static/js/api.js").status_code == 200
        assert c.post(f"/api/matches/{match_id}/moves", json={"action": "cell:4"}, headers=tokens[0]).status_code == 200
        assert [c.get(path).status_code for path in ("/api/games", f"/api/matches/{match_id}", "/", "/results",
                                                     "/api/results")] == [200] * 5
        r = c.get("/api/games")
        is_problem(r, 429, "too many requests", "5 reads a minute")
        assert 1 <= int(r.headers["retry-after"]) <= 60
        page = c.get("/results")
        assert page.status_code == 429 and page.headers["content-type"].startswith("text/html")
        assert "too many requests" in page.text and page.headers["x-frame-options"] == "DENY"
        assert c.post("/api/matches", json={"game": "tictactoe", "seats": [HUMAN, HUMAN]}).status_code == 201
    monkeypatch.setenv("PARLOUR_WORKERS", "2")  # two processes: each allows half
    with TestClient(create_app(db_url, preload=False)) as c:
        assert [c.get("/api/games").status_code for _ in range(3)] == [200, 200, 429]
    spec = c.app.openapi()  # every operation documents its 429
    assert all("429" in op["responses"] for ops in spec["paths"].values() for m, op in ops.items()
               if m in ("get", "post", "put", "patch", "delete"))


def test_writes_have_a_quota_per_client_of_their_own(db_url, monkeypatch):
    """A probe's one client made 3,535 moves in 30 s (its match grew the database by 2 GB an hour):
    requests that write have a quota of their own, and reads do not count against it."""
    monkeypatch.setenv("PARLOUR_POST_LIMIT", "4")
    with TestClient(create_app(db_url, preload=False)) as c:
        match_id, tokens = new_match(c, "tictactoe", [HUMAN, HUMAN])  # 1
        assert [c.get(f"/api/matches/{match_id}").status_code for _ in range(6)] == [200] * 6
        moves = [c.post(f"/api/matches/{match_id}/moves", json={"action": f"cell:{k}"}, headers=tokens[k % 2])
                 for k in range(4)]
        assert [r.status_code for r in moves] == [200, 200, 200, 429]
        is_problem(moves[-1], 429, "too many requests", "4 writes a minute")
        assert 1 <= int(moves[-1].headers["retry-after"]) <= 60
        assert c.get(f"/api/matches/{match_id}").json()["ply"] == 3  # the refused move was not made


def test_the_creation_limit_is_counted_in_the_database_for_every_process(db_url, monkeypatch):
    monkeypatch.setenv("PARLOUR_CREATE_LIMIT", "3")
    body = {"game": "tictactoe", "seats": [HUMAN, HUMAN]}
    with TestClient(create_app(db_url, preload=False)) as a, TestClient(create_app(db_url, preload=False)) as b:
        assert [(a, b)[k % 2].post("/api/matches", json=body).status_code for k in range(3)] == [201] * 3
        for c in (a, b):
            r = c.post("/api/matches", json=body)
            is_problem(r, 429, "at most 3 new matches a minute")
            assert 1 <= int(r.headers["retry-after"]) <= 60
        with session_factory(get_engine(db_url))() as session:  # a minute later
            session.execute(update(Match).values(created_at=now() - timedelta(seconds=61)))
            session.commit()
        assert b.post("/api/matches", json=body).status_code == 201


def test_an_ai_only_match_pauses_at_least_the_shortest_delay(client, db_url, monkeypatch):
    monkeypatch.setenv("PARLOUR_AI_ONLY_MIN_DELAY_MS", "150")
    created = client.post("/api/matches", json=AI_ONLY).json()
    match_id, control = created["id"], {"Authorization": f"Bearer {created['control_token']}"}
    assert client.get(f"/api/matches/{match_id}").json()["delay_ms"] == 150
    assert client.post(f"/api/matches/{match_id}/control", json={"action": "speed", "delay_ms": 0},
                       headers=control).json()["delay_ms"] == 150
    with client.stream("GET", f"/api/matches/{match_id}/events") as stream:
        for line in stream.iter_lines():
            if line.startswith("event: end"):
                break
    with session_factory(get_engine(db_url))() as session:
        stamps = [m.created_at for m in session.scalars(select(Move).where(Move.match_id == match_id).order_by(Move.ply))]
    assert len(stamps) >= 5
    gaps = [(b - a).total_seconds() for a, b in zip(stamps, stamps[1:])]
    assert min(gaps) >= 0.15, gaps
    human = new_match(client, "tictactoe", [HUMAN, {"type": "agent", "level": 1}], delay_ms=0)[0]
    assert client.get(f"/api/matches/{human}").json()["delay_ms"] == 0  # people's matches: the AI replies at once


def test_a_step_while_paused_waits_the_shortest_delay_too(client, monkeypatch):
    from app.services.match_store import read
    from app.services.match_turns import due_in

    monkeypatch.setenv("PARLOUR_AI_ONLY_MIN_DELAY_MS", "10000")
    created = client.post("/api/matches", json=AI_ONLY).json()
    control = {"Authorization": f"Bearer {created['control_token']}"}
    for action in ("pause", "step"):
        assert client.post(f"/api/matches/{created['id']}/control", json={"action": action}, headers=control).status_code == 200
    with client.app.state.sessions() as session:
        wait = due_in(read(session, created["id"]))
    assert 9 < wait <= 10  # a burst of steps cannot outrun the shortest delay


def start(client, created: dict) -> int:
    """Get an AI-only match moving: pause it, step it once (watching its stream for the move),
    resume it. The status of the resume."""
    match_id, control = created["id"], {"Authorization": f"Bearer {created['control_token']}"}
    for action in ("pause", "step"):
        assert client.post(f"/api/matches/{match_id}/control", json={"action": action}, headers=control).status_code == 200
    with client.stream("GET", f"/api/matches/{match_id}/events") as stream:
        for line in stream.iter_lines():
            if line.startswith("event: move"):
                break
    return client.post(f"/api/matches/{match_id}/control", json={"action": "resume"}, headers=control).status_code


def test_a_client_runs_a_budget_of_ai_only_matches_at_once(client, db_url, monkeypatch):
    monkeypatch.setenv("PARLOUR_AI_ONLY_RUNNING", "2")
    monkeypatch.setattr(match_events, "FALLBACK_POLL_S", (0.2, 0.2))  # a stream we leave ends soon after
    slow = {**AI_ONLY, "delay_ms": 60_000}  # running for a minute after each move, watched or not
    a, b, c = (client.post("/api/matches", json=slow).json() for _ in range(3))  # not running before they move
    assert start(client, a) == 200 and start(client, b) == 200
    r = client.post("/api/matches", json=slow)
    is_problem(r, 429, "at most 2 AI-only matches may run at once")
    assert int(r.headers["retry-after"]) >= 1
    assert client.post(f"/api/matches/{a['id']}/rematch", json={}).status_code == 429
    new_match(client, "tictactoe", [HUMAN, {"type": "agent", "level": 1}])  # a person's match is not in the budget
    control_a = {"Authorization": f"Bearer {a['control_token']}"}
    assert client.post(f"/api/matches/{a['id']}/control", json={"action": "pause"}, headers=control_a).status_code == 200
    assert start(client, c) == 200  # a paused match does not run
    is_problem(client.post(f"/api/matches/{a['id']}/control", json={"action": "resume"}, headers=control_a),
               429, "AI-only matches")
    with session_factory(get_engine(db_url))() as session:  # nobody watched b for two minutes
        session.execute(update(Match).where(Match.id == b["id"]).values(last_move_at=time.time() - 120))
        session.commit()
    assert client.post(f"/api/matches/{a['id']}/control", json={"action": "resume"}, headers=control_a).status_code == 200
    events = []
    with client.stream("GET", f"/api/matches/{b['id']}/events") as stream:  # b may not move again now
        for line in stream.iter_lines():
            if line.startswith("event: "):
                events.append(line[7:])
            if line.startswith("data: ") and events[-1] == "held":
                assert "at most 2 AI-only matches" in line
                break
    assert events == ["held"]
    assert client.get(f"/api/matches/{b['id']}").json()["ply"] == 1
