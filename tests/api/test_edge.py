"""No 500 on any database: every id, filter, name and option is checked at the edge against what
its column holds, text with a NUL is 422 on every route, and the schema says what the server
takes. On SQLite and on PostgreSQL (PARLOUR_TEST_POSTGRES_URL; skipped when unset)."""
import os
import random

import pytest
from fastapi.testclient import TestClient

from app.bench import probes
from app.main import create_app
from app.services.people import NAME_PATTERN, clean_name
from tests.api.servers import Server
from tests.api.test_postgres import empty_postgres
from tests.api.test_security import is_problem

POSTGRES = os.environ.get("PARLOUR_TEST_POSTGRES_URL")
DATABASES = ["sqlite", pytest.param("postgres", marks=pytest.mark.skipif(
    not POSTGRES, reason="set PARLOUR_TEST_POSTGRES_URL to test on PostgreSQL"))]
ADMIN_TOKEN = "edge-admin-token"
HUMAN, AI = {"type": "human"}, {"type": "agent", "level": 1}


def database(kind: str, tmp_path_factory) -> str:
    if kind == "postgres":
        return empty_postgres(POSTGRES)
    return f"sqlite:///{tmp_path_factory.mktemp('edge') / 'edge.db'}"


@pytest.fixture(scope="module", params=DATABASES)
def edge(request, tmp_path_factory):
    with TestClient(create_app(database(request.param, tmp_path_factory), preload=False)) as client:
        yield client


@pytest.mark.parametrize("probe", probes.EDGE_PROBES, ids=lambda p: p.name)
def test_each_bad_request_of_the_issue_gets_its_4xx(edge, probe, monkeypatch):
    """The 13 requests PostgreSQL answered with 500 (a NUL in a match id or a filter, ids past
    32 bits), the 5 options of 2**64 that broke the JSON encoder, and their neighbours."""
    monkeypatch.setenv("PARLOUR_ADMIN_TOKEN", ADMIN_TOKEN)
    headers = {"Authorization": f"Bearer {ADMIN_TOKEN}"} if probe.admin else {}
    r = edge.request(probe.method, probe.path, json=probe.body, headers=headers)
    assert r.status_code == probe.expected, (r.status_code, r.text[:300])


def test_the_largest_options_are_taken_and_one_more_is_not(edge):
    for game, option, largest in (("uno", "target_score", 10_000), ("uno", "max_turns", 20_000),
                                  ("racko", "target_score", 10_000), ("racko", "max_turns", 20_000),
                                  ("yaniv", "elimination", 1_000)):
        body = {"game": game, "seats": [HUMAN, AI], "options": {option: largest}}
        assert edge.post("/api/matches", json=body).status_code == 201, (game, option)
        body["options"][option] = largest + 1
        is_problem(edge.post("/api/matches", json=body), 422, option, f"at most {largest}")


def test_a_nul_anywhere_in_a_body_is_refused_and_named(edge):
    def create(**body):
        return edge.post("/api/matches", json={"game": "tictactoe", "seats": [HUMAN, AI], **body})

    assert is_problem(create(options={"x\x00": 1}), 422, "NUL")["field"] == "body.options"
    assert is_problem(create(seats=[HUMAN, {**AI, "agent\x00": "x"}]), 422, "NUL")["field"] == "body.seats.1"
    assert is_problem(create(game="tic\x00tac"), 422, "NUL")["field"] == "body.game"
    # a backslash before u0000 is text, not a NUL: this name is printable and taken
    assert create(seats=[{"type": "human", "name": "a\\u0000b"}, AI]).status_code == 201
    raw = edge.post("/api/matches", content=b'{"game": "tic\x00tac", "seats": []}',
                    headers={"Content-Type": "application/json"})
    is_problem(raw, 400, "JSON")  # a raw NUL byte is no JSON at all


def test_pages_answer_a_nul_with_a_page(edge):
    r = edge.get("/play/ab%00cd")
    assert r.status_code == 422 and r.headers["content-type"].startswith("text/html") and "NUL" in r.text


def test_match_ids_of_another_form_name_no_match(edge):
    for match_id in ("nope", "0" * 31, "0" * 33, "A" * 32, "x" * 5000):
        is_problem(edge.get(f"/api/matches/{match_id}"), 404, "no match")
    is_problem(edge.get(f"/api/matches/{'0' * 32}"), 404, "no match")


def test_ids_stop_at_32_bits(edge, monkeypatch):
    monkeypatch.setenv("PARLOUR_ADMIN_TOKEN", ADMIN_TOKEN)
    assert edge.get(f"/api/tournaments/{2 ** 31 - 1}").status_code == 404
    rollback = "/api/agents/tictactoe/menace-live/rollback"
    r = edge.post(rollback, json={"snapshot": 2 ** 31 - 1}, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    is_problem(r, 404, "no snapshot")




def test_instants_are_rfc_3339_date_times(edge):
    for good in ("2024-05-01T12:00:00Z", "2024-05-01t12:00:00.123456+02:00", "2024-05-01T12:00:00-23:59"):
        assert edge.get("/api/matches", params={"since": good, "until": good}).status_code == 200, good
        assert edge.get("/api/results", params={"since": good}).status_code == 200, good
    for bad in ("0.5", "1714564800", "2024-05-01", "2024-05-01T12:00:00", "2024-05-01 12:00:00Z",
                "٢٠٢٤-05-01T12:00:00Z"):
        is_problem(edge.get("/api/matches", params={"since": bad}), 422, "query.since", "RFC 3339")
        is_problem(edge.get("/api/results", params={"since": bad}), 422, "query.since", "RFC 3339")
    for impossible in ("2024-13-01T12:00:00Z", "2024-05-01T12:99:00Z", "2023-02-29T12:00:00Z"):
        is_problem(edge.get("/api/matches", params={"until": impossible}), 422, "query.until")


def test_bodies_take_json_types_and_only_their_fields(edge):
    def create(*seats, **extra):
        return edge.post("/api/matches", json={"game": "tictactoe", "seats": list(seats), **extra})

    is_problem(create(HUMAN, {"type": "agent", "level": "1"}), 422, "body.seats.1.level")
    is_problem(create(HUMAN, AI, hints=0), 422, "body.hints")
    is_problem(create(HUMAN, AI, seed="7"), 422, "body.seed")
    is_problem(create(HUMAN, AI, colour="red"), 422, "body.colour")
    is_problem(create(HUMAN, {**AI, "colour": "red"}), 422, "body.seats.1.colour")
    assert create(HUMAN, {"type": "agent", "level": 1.0}, seed=7.0, delay_ms=500.0).status_code == 201  # 1.0 is 1
    is_problem(create(HUMAN, {"type": "agent", "level": 1.5}), 422, "body.seats.1.level")
    body = {"game": "uno", "seats": [HUMAN, AI], "options": {"target_score": 200.0}}
    assert edge.post("/api/matches", json=body).status_code == 201


def test_seat_numbers_to_start_with_are_digits(edge):
    r = edge.post("/api/matches", json={"game": "tictactoe", "seats": [HUMAN, {"type": "friend"}]})
    match_id, token = r.json()["id"], {"Authorization": f"Bearer {r.json()['tokens']['0']}"}
    for key in ("x", "01", "+1", " 1", "10"):
        is_problem(edge.post(f"/api/matches/{match_id}/start", json={"levels": {key: 1}}, headers=token), 422,
                   "body.levels")
    r = edge.post(f"/api/matches/{match_id}/start", json={"levels": {"1": 1}}, headers=token)
    assert r.status_code == 200 and r.json()["status"] in ("active", "finished")


def test_a_405_lists_every_method_of_its_path(edge):
    for method, path, allowed in (("OPTIONS", "/api/matches", "GET, POST"), ("DELETE", "/api/matches", "GET, POST"),
                                  ("PUT", f"/api/matches/{'0' * 32}", "GET")):
        r = edge.request(method, path)
        assert r.status_code == 405 and r.headers["allow"] == allowed, (method, path, r.headers.get("allow"))
        is_problem(r, 405, method, allowed)


def test_the_name_pattern_is_what_the_server_takes():
    """The schema's name pattern (judged as schemathesis judges it, by jsonschema_rs) and
    clean_name agree on names near the rules' edges: lengths 0 to 40, spaces around, every
    character class the rule names."""
    jsonschema_rs = pytest.importorskip("jsonschema_rs")
    schema = jsonschema_rs.validator_for({"type": "string", "maxLength": 256, "pattern": NAME_PATTERN})
    rng = random.Random(23)
    letters = [chr(c) for c in range(0x3000) if not 0xD800 <= c <= 0xDFFF] + ["\U0001F600", "\U000E0001"]
    spaces = [c for c in map(chr, range(0x3001)) if c.isspace()]
    for _ in range(20_000):
        name = "".join(rng.choice(spaces if rng.random() < 0.3 else letters) for _ in range(rng.randrange(41)))
        try:
            clean_name(name)
            taken = True
        except ValueError:
            taken = False
        assert schema.is_valid(name) == taken, repr(name)


@pytest.mark.parametrize("kind", DATABASES)
def test_the_probe_command_finds_no_server_error(kind, tmp_path_factory, capsys):
    """What CI runs: ``parlour bench probes`` against a real server on each database."""
    server = Server(database(kind, tmp_path_factory), PARLOUR_ADMIN_TOKEN=ADMIN_TOKEN)
    try:
        code = probes.main(["--url", server.base, "--admin-token", ADMIN_TOKEN])
    finally:
        server.stop()
    out = capsys.readouterr().out
    assert "server errors (5xx): 0 of" in out and code == 0, out
    assert "UNEXPECTED" not in out, out  # every probe of the edge got the answer it should
