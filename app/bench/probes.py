"""``parlour bench probes --url URL``: the hardening issues' probes against a running server,
one line each: what it answered (status, size, time), then the count of server errors (5xx),
which is also the exit status (0: none). For before/after comparisons and for CI, on SQLite and
on PostgreSQL; it changes the server's data (it resets the live learners and creates matches),
so point it at a throwaway one.
"""
from __future__ import annotations

import argparse
import http.client
import json
import time
import urllib.error
import urllib.request
from typing import NamedTuple


class Probe(NamedTuple):
    """A bad request and the answer it gets: ``expected`` is the status since issue 23."""

    name: str
    method: str
    path: str
    body: dict | None
    expected: int
    admin: bool = False


def _big_option(game: str, option: str) -> Probe:
    return Probe(f"{game} {option} of 2**64", "POST", "/api/matches",
                 {"game": game, "seats": [{"type": "human"}, {"type": "agent", "level": 1}],
                  "options": {option: 2 ** 64}}, 422)


NUL_ID = "/api/matches/ab%00cd"
EDGE_PROBES = [
    # a NUL in a match id, and in a filter (PostgreSQL answered 500 to these, SQLite 404 or 200)
    Probe("NUL in a match id", "GET", NUL_ID, None, 422),
    Probe("NUL in a match id: replay", "GET", f"{NUL_ID}/replay", None, 422),
    Probe("NUL in a match id: events", "GET", f"{NUL_ID}/events", None, 422),
    Probe("NUL in a match id: moves", "POST", f"{NUL_ID}/moves", {"action": "cell:4"}, 422),
    Probe("NUL in a match id: its page", "GET", "/play/ab%00cd", None, 422),
    Probe("NUL in the game filter of matches", "GET", "/api/matches?game=%00", None, 422),
    Probe("NUL in the agent filter of matches", "GET", "/api/matches?agent=%00", None, 422),
    Probe("NUL in the game filter of results", "GET", "/api/results?game=%00", None, 422),
    Probe("NUL in the game filter of tournaments", "GET", "/api/tournaments?game=%00", None, 422),
    Probe("NUL in the game filter of people vs levels", "GET", "/api/people-vs-levels?game=%00", None, 422),
    Probe("NUL in the player of a rating history", "GET", "/api/leaderboard/history?game=tictactoe&player=%00",
          None, 422),
    # ids beyond the 32-bit columns they are looked up in
    Probe("tournament id 2**31", "GET", "/api/tournaments/2147483648", None, 422),
    Probe("rollback to snapshot 2**31", "POST", "/api/agents/tictactoe/menace-live/rollback",
          {"snapshot": 2 ** 31}, 422, admin=True),
    # whole-number options without a maximum (500 from the JSON encoder at commit)
    _big_option("uno", "target_score"), _big_option("uno", "max_turns"), _big_option("racko", "target_score"),
    _big_option("racko", "max_turns"), _big_option("yaniv", "elimination"),
    # the same edge, elsewhere: a NUL in a body, a name, a well-formed id of no match
    Probe("NUL in a seat's name", "POST", "/api/matches",
          {"game": "tictactoe", "seats": [{"type": "human", "name": "A\u0000"}, {"type": "agent", "level": 1}]}, 422),
    Probe("NUL in a person's name", "GET", "/api/people/%00", None, 422),
    Probe("NUL in an agent's page", "GET", "/agents/tictactoe/%00", None, 422),
    Probe("a match id of the wrong form", "GET", "/api/matches/nope", None, 404),
    Probe("since=0.5", "GET", "/api/results?since=0.5", None, 422),
]


def call(base: str, method: str, path: str, body=None, headers: dict | None = None, raw: bytes | None = None):
    data = raw if raw is not None else None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": "application/json", **(headers or {})})
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            try:
                body = r.read()
            except http.client.IncompleteRead as err:  # the server broke off mid-answer
                body = err.partial + b" [answer broken off]"
            return r.status, body, dict(r.headers), time.perf_counter() - start
    except urllib.error.HTTPError as err:
        return err.code, err.read(), dict(err.headers), time.perf_counter() - start


def main(argv: list[str], prog: str = "parlour bench probes") -> int:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__)
    parser.add_argument("--url", required=True)
    parser.add_argument("--admin-token", default=None, help="sent with the resets when given")
    args = parser.parse_args(argv)
    base = args.url.rstrip("/")
    admin = {"Authorization": f"Bearer {args.admin_token}"} if args.admin_token else {}

    statuses = []

    def line(name, status, body, seconds, note=""):
        statuses.append(status)
        print(f"{name:<58} {status:>4} {len(body):>9} B {1000 * seconds:>8.1f} ms  {note}")

    print(f"{'probe':<58} {'code':>4} {'size':>11} {'time':>11}")
    for to in ("trained", "beginner"):
        for agent in ("yaniv/harel-live", "tictactoe/menace-live"):
            s, b, _, t = call(base, "POST", f"/api/agents/{agent}/reset", {"to": to})
            line(f"reset {agent} to {to}, no credentials", s, b, t)
            if admin:
                s, b, _, t = call(base, "POST", f"/api/agents/{agent}/reset", {"to": to}, admin)
                line(f"reset {agent} to {to}, admin token", s, b, t)
    for path in ("/api/matches?level=18446744073709551616", "/api/matches?page=100000000000000000000",
                 "/api/tournaments?limit=18446744073709551616", "/api/tournaments/9223372036854775808"):
        s, b, _, t = call(base, "GET", path)
        line(f"GET {path[:52]}", s, b, t)
    human = {"type": "human", "name": "Probe"}
    s, b, _, t = call(base, "POST", "/api/matches", {"game": "tictactoe", "seats": [human, {"type": "agent", "level": 1}]})
    created = json.loads(b)
    match_id, token = created["id"], created["tokens"]["0"]
    s, b, _, t = call(base, "GET", f"/api/matches/{match_id}/events?after=18446744073709551616")
    line("GET /events?after=2**64", s, b, t, "broken off" if b.endswith(b"off]") else "")
    s, b, _, t = call(base, "POST", f"/api/matches/{match_id}/moves", {"action": "cell:\u0664"},
                      {"Authorization": f"Bearer {token}"})
    line("move cell:\u0664 (Arabic-Indic four)", s, b, t, b.decode()[:60])
    for size in (2_000_000, 50_000):
        s, b, _, t = call(base, "POST", "/api/matches", {"game": "yaniv", "seats": [human, human],
                                                         "options": {"elimination": "x" * size}})
        line(f"create with a {size:,}-character option value", s, b, t)
    s, b, _, t = call(base, "POST", "/api/matches", raw=b'{"game": "tictactoe", "seats": [}')
    line("invalid JSON body", s, b, t, b.decode()[:70])
    s, b, _, t = call(base, "POST", "/api/matches", {"game": "tictactoe", "seats": [human, {"type": "agent"}]})
    line("agent seat with neither level nor agent", s, b, t, b.decode()[:60])
    s, b, _, t = call(base, "POST", "/api/matches", {"game": "tictactoe", "seats": [
        {"type": "human", "name": '=HYPERLINK("http://x","y")'}, human]})
    if s == 201:
        c = json.loads(b)
        call(base, "POST", f"/api/matches/{c['id']}/moves", {"action": "resign"},
             {"Authorization": f"Bearer {c['tokens']['0']}"})
    s, b, _, t = call(base, "GET", "/api/results?format=csv")
    cells = [row.split(",")[5] for row in b.decode().splitlines() if "HYPERLINK" in row]
    line("CSV export of a =HYPERLINK name", s, b, t, f"cell starts with {cells[-1][:2]!r}" if cells else "")
    s, b, _, t = call(base, "POST", "/api/matches", {"game": "tictactoe", "seats": [{"type": "agent", "level": 1}] * 2})
    ai = json.loads(b)
    s, b, _, t = call(base, "POST", f"/api/matches/{ai['id']}/control", {"action": "pause"})
    line("pause an AI-only match without a token", s, b, t)
    s, b, h, t = call(base, "GET", "/")
    present = [k for k in ("Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy")
               if k.lower() in {x.lower() for x in h}]
    line("security headers on /", s, b, t, ", ".join(present) or "none")
    s, b, _, t = call(base, "GET", "/docs")
    line("/docs", s, b, t, "loads from a CDN" if b"cdn" in b.lower() else "vendored")
    s, b, h, t = call(base, "GET", "/play/0123456789abcdef")
    line("/play/<unknown id>", s, b, t, h.get("content-type", h.get("Content-Type", "")))
    for probe in EDGE_PROBES:
        s, b, _, t = call(base, probe.method, probe.path, probe.body, admin if probe.admin else None)
        line(probe.name, s, b, t, f"UNEXPECTED: should be {probe.expected}" if s != probe.expected else "")
    errors = sum(s >= 500 for s in statuses)
    print(f"server errors (5xx): {errors} of {len(statuses)} probes")
    return 1 if errors else 0
