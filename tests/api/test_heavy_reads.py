"""Heavy reads are paged and bounded: a limit with a default and a maximum, a keyset cursor
that walks every item exactly once, the export streamed whole, people against levels and the
live curves counted by the database with the same answers as before."""
import csv
import io
import random
import re

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from app.bench.sample import seed
from app.db import get_engine, session_factory
from app.main import create_app
from app.models import Match, Tournament
from app.services import people
from tests.api.test_processes import database_url  # noqa: F401 (the fixture: SQLite, and PostgreSQL when set)
from tests.api.test_security import is_problem
from tests.conftest import new_match, play_randomly

MATCHES = 25
HUMAN = {"type": "human", "name": "Ann"}


@pytest.fixture
def sampled(database_url):  # noqa: F811
    """A client on a database (SQLite, and PostgreSQL when PARLOUR_TEST_POSTGRES_URL is set)
    holding MATCHES finished matches of noughts and crosses: people against every level (live
    MENACE among them), every fifth AI-only, seven names in turn."""
    seed(database_url, MATCHES, people=7)
    with TestClient(create_app(database_url, preload=False)) as c:
        yield c


def next_path(r) -> str | None:
    link = r.headers.get("link")
    if link is None:
        return None
    found = re.fullmatch(r'<(/api/[^>]+)>; rel="next"', link)
    assert found, link
    return found.group(1)


def walk_results(client, first: str) -> list[list[dict]]:
    pages, path = [], first
    while path:
        r = client.get(path)
        assert r.status_code == 200, r.text
        pages.append(r.json())
        path = next_path(r)
    return pages


def test_results_come_a_page_at_a_time_and_the_cursor_walks_every_match_once(sampled):
    everything = sampled.get("/api/results").json()  # 200 matches a page by default: all of them
    assert len({r["match"] for r in everything}) == MATCHES and next_path(sampled.get("/api/results")) is None
    pages = walk_results(sampled, "/api/results?limit=7")
    assert [len({r["match"] for r in p}) for p in pages] == [7, 7, 7, 4]
    walked = [r for p in pages for r in p]
    assert walked == everything  # the same rows in the same order: finished time, then id
    assert [r["finished_at"] for r in walked] == sorted(r["finished_at"] for r in walked)
    assert all(sum(1 for r in p if r["match"] == m) == 2 for p in pages for m in {r["match"] for r in p})  # no match split
    for bad in ("/api/results?limit=0", "/api/results?limit=1001", "/api/results?cursor=",
                "/api/results?cursor=no+sense", "/api/results?cursor=" + "x" * 201):
        is_problem(sampled.get(bad), 422)  # what the schema refuses
    for unknown in ("nonsense", "W10", "W1siYSJdXQ"):  # what the server never gave: no page there
        is_problem(sampled.get(f"/api/results?cursor={unknown}"), 404, "no page at that cursor")
    page = sampled.get("/api/results?format=csv&limit=10")
    assert page.headers["content-type"].startswith("text/csv") and next_path(page)
    assert len(list(csv.DictReader(io.StringIO(page.text)))) == 20


def test_the_export_streams_every_row_in_batches(sampled, monkeypatch):
    import app.services.results as results

    monkeypatch.setattr(results, "EXPORT_BATCH", 4)  # several batches of a small sample
    everything = sampled.get("/api/results").json()
    exported = sampled.get("/api/results/export?format=json")
    assert exported.status_code == 200 and exported.json() == everything
    assert "attachment" in exported.headers["content-disposition"]
    text = sampled.get("/api/results/export").text  # CSV by default
    rows = list(csv.DictReader(io.StringIO(text)))
    assert text.count("match,game,finished_at") == 1 and len(rows) == len(everything)
    assert [(r["match"], int(r["seat"])) for r in rows] == [(r["match"], r["seat"]) for r in everything]
    assert sampled.get("/api/results/export?format=json&game=uno").json() == []
    assert sampled.get("/api/results/export?game=uno").text.strip() == ",".join(results.COLUMNS)
    cursor = next_path(sampled.get("/api/results?limit=20")).split("cursor=")[1]
    rest = sampled.get(f"/api/results/export?format=json&cursor={cursor}").json()
    assert rest == everything[40:]
    is_problem(sampled.get("/api/results/export?cursor=nonsense"), 404, "cursor")


def test_people_against_levels_reads_columns_and_answers_as_from_whole_matches(sampled, database_url,  # noqa: F811
                                                                            monkeypatch):
    """The record is computed from the few columns it needs (never a match's state), and its
    answer is the one the same computation gives from whole stored matches."""
    rng = random.Random(4)
    for level in (4, 4, 1):
        match_id, tokens = new_match(sampled, "tictactoe", [HUMAN, {"type": "agent", "level": level}])
        play_randomly(sampled, match_id, tokens[0], rng)
    match_id, tokens = new_match(sampled, "uno", [HUMAN, {"type": "agent", "level": 2}, {"type": "agent", "level": 2}])
    assert sampled.post(f"/api/matches/{match_id}/resign", headers=tokens[0]).status_code == 200
    new_match(sampled, "tictactoe", [HUMAN, HUMAN])  # still being played: not counted
    abandoned, _ = new_match(sampled, "tictactoe", [HUMAN, {"type": "agent", "level": 1}])
    with session_factory(get_engine(database_url))() as session:  # nobody moved in it for a long time
        session.execute(update(Match).where(Match.id == abandoned).values(last_move_at=0.0))
        session.commit()
    monkeypatch.setenv("PARLOUR_ABANDON_AFTER_S", "3600")
    record = sampled.get("/api/people-vs-levels").json()
    with session_factory(get_engine(database_url))() as session:
        whole = list(session.scalars(select(Match).where(Match.status == "finished")))
        assert any(m.id == abandoned for m in whole)
        assert record == people.record(whole) and sum(e["win"] + e["draw"] + e["loss"] for e in record) >= 20
        named = [m for m in whole if any(s.kind == "human" and s.name == "Ann" for s in m.seats)]
        assert sampled.get("/api/people/Ann").json()["record"] == people.record(named, "Ann")
    assert sampled.get("/api/people-vs-levels?game=uno").json() == [e for e in record if e["game"] == "uno"]
    assert sampled.get("/api/people/Ann").json()["total_matches"] == 6


def test_a_persons_matches_come_a_page_at_a_time(sampled):
    first = sampled.get("/api/people/person 1?limit=2").json()
    assert first["total_matches"] == 4 and len(first["matches"]) == 2 and first["next"]
    second = sampled.get(f"/api/people/person 1?limit=2&cursor={first['next']}").json()
    assert second["next"] is None and len(second["matches"]) == 2
    walked = [m["created_at"] for m in first["matches"] + second["matches"]]
    assert walked == sorted(walked, reverse=True) and len({m["id"] for m in first["matches"] + second["matches"]}) == 4


def test_the_live_curve_comes_a_page_of_windows_at_a_time(sampled):
    whole = sampled.get("/api/agents/tictactoe/menace-live/curve?window=2&limit=1000").json()["live"]
    assert whole["next"] is None and whole["games"] == sum(w["games"] for w in whole["windows"]) > 3
    rows = sampled.get("/api/results?limit=1000").json()
    assert whole["games"] == sum(1 for r in rows if r["agent"] == "menace-live")
    windows, path = [], "/api/agents/tictactoe/menace-live/curve?window=2&limit=1"
    while True:
        live = sampled.get(path).json()["live"]
        assert live["games"] == whole["games"] and len(live["windows"]) == 1
        windows += live["windows"]
        if live["next"] is None:
            break
        path = f"/api/agents/tictactoe/menace-live/curve?window=2&limit=1&cursor={live['next']}"
    assert windows == whole["windows"]
    is_problem(sampled.get("/api/agents/tictactoe/menace-live/curve?limit=1001"), 422)


def test_the_match_list_and_the_leaderboard_walk_by_cursor(sampled):
    everything = sampled.get("/api/matches?per_page=200").json()
    assert everything["total"] == MATCHES and everything["next"] is None
    walked, cursor = [], None
    while True:
        page = sampled.get("/api/matches", params={"per_page": 6, **({"cursor": cursor} if cursor else {})}).json()
        walked += page["matches"]
        cursor = page["next"]
        if cursor is None:
            break
    assert walked == everything["matches"]
    assert sampled.get("/api/matches?per_page=6&page=2").json()["matches"] == everything["matches"][6:12]
    board = sampled.get("/api/leaderboard?game=tictactoe&limit=1000").json()
    assert board["next"] is None and len(board["players"]) == 7
    order = [(p["provisional"], -p["mu"]) for p in board["players"]]
    assert order == sorted(order)  # settled first, then provisional, each best first
    players, cursor = [], None
    while True:
        page = sampled.get("/api/leaderboard", params={"game": "tictactoe", "limit": 3,
                                                       **({"cursor": cursor} if cursor else {})}).json()
        players += page["players"]
        cursor = page["next"]
        if cursor is None:
            break
    assert players == board["players"]


def test_tournaments_walk_by_cursor(client, db_url):
    with session_factory(get_engine(db_url))() as session:
        for k in range(5):
            session.add(Tournament(game="tictactoe", players=["random", "perfect"], games=2, seed=k, options={},
                                   result={"stats": []}, seconds=0.1))
        session.commit()
    first = client.get("/api/tournaments?limit=2")
    assert [t["seed"] for t in first.json()] == [4, 3]
    assert [t["seed"] for p in walk_results(client, next_path(first)) for t in p] == [2, 1, 0]


def test_a_cursor_no_page_could_give_is_a_404_on_either_database(sampled):
    """Well-formed cursors this server never gave: a whole number past 64 bits (SQLite's driver
    overflowed, PostgreSQL refused the BIGINT) and text holding a NUL (PostgreSQL refuses it in
    text) answered 500 before; any cursor no page gave is a 404."""
    import base64
    import json

    def cursor(parts) -> str:
        return base64.urlsafe_b64encode(json.dumps(parts).encode()).decode().rstrip("=")

    when = {"t": "2026-11-28T00:00:00"}
    for path, parts in [("/api/tournaments", [when, 2**63]), ("/api/tournaments", [when, -2**63 - 1]),
                        ("/api/agents/tictactoe/menace-live/curve", [when, "x", 2**63]),
                        ("/api/leaderboard", ["tictactoe", 2**63, 1.0, "x"]),
                        ("/api/leaderboard", ["tic\u0000tactoe", 1, 1.0, "x"]),
                        ("/api/matches", [when, "a\u0000b"]), ("/api/results", [when, "a\u0000b"]),
                        ("/api/results?format=csv", [when, "a\u0000b"]), ("/api/people/Ann", [when, "a\u0000b"]),
                        ("/api/results/export?format=json", [when, "a\u0000b"])]:
        r = sampled.get(path, params={"cursor": cursor(parts)})
        assert r.status_code == 404, (path, parts, r.status_code, r.text[:200])
