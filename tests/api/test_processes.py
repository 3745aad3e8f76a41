"""Several server processes sharing one database (SQLite here; PostgreSQL too when
PARLOUR_TEST_POSTGRES_URL names an empty database): workers starting together on an empty
database all start, moves from both of two processes land, a move on one wakes the event
streams on the other, and the live learner's updates from both count."""
import json
import os
import random
import statistics
import threading
import time
import urllib.request

import pytest
from sqlalchemy import text

from app.db import make_engine
from tests.api.servers import Server, answers, fork_worker, free_port

HUMAN = {"type": "human", "name": "Ann"}
LIVE = {"type": "agent", "agent": "menace-live"}
RANDOM = {"type": "agent", "agent": "random"}
PG = os.environ.get("PARLOUR_TEST_POSTGRES_URL")
DATABASES = ["sqlite", "postgresql"]
TRIES = {"sqlite": 5, "postgresql": 10}


def empty_database(kind: str, tmp_path, name: str) -> str:
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / name}.db"
    if not PG:
        pytest.skip("set PARLOUR_TEST_POSTGRES_URL to test on PostgreSQL")
    engine = make_engine(PG)
    with engine.begin() as c:
        c.execute(text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
    engine.dispose()
    return PG


@pytest.fixture(params=DATABASES)
def database_url(request, tmp_path):
    return empty_database(request.param, tmp_path, "shared")


def two_servers(database_url: str) -> tuple[Server, Server]:
    a = Server(database_url)
    try:
        return a, Server(database_url)
    except Exception:
        a.stop()
        raise


@pytest.mark.parametrize("kind", DATABASES)
def test_two_workers_starting_together_on_an_empty_database_all_start(kind, tmp_path):
    """Every worker migrates at start-up. Before migrations took a lock, two workers on an empty
    PostgreSQL database failed to start in 2 of 4 tries (a duplicate key in alembic_version)."""
    for attempt in range(TRIES[kind]):
        url = empty_database(kind, tmp_path, f"empty-{attempt}")
        ports = [free_port(), free_port()]
        workers = [fork_worker(url, port) for port in ports]
        try:
            for worker, port in zip(workers, ports):
                deadline = time.monotonic() + 60
                while not answers(port):
                    assert worker.is_alive(), f"try {attempt + 1}: a worker failed to start"
                    assert time.monotonic() < deadline, f"try {attempt + 1}: a worker did not answer in 60 s"
                    time.sleep(0.05)
        finally:
            for worker in workers:
                worker.terminate()
            for worker in workers:
                worker.join(10)
                if worker.is_alive():
                    worker.kill()


def test_two_processes_share_matches_and_learning(database_url):
    a, b = two_servers(database_url)
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


class EventLines:
    """The lines of a match's event stream on ``server``, each with the time it arrived, read
    on a thread of their own until the stream ends."""

    def __init__(self, server: Server, match_id: str):
        self.lines: list[tuple[float, str]] = []
        self._response = urllib.request.urlopen(f"{server.base}/api/matches/{match_id}/events", timeout=60)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for raw in self._response:
                self.lines.append((time.monotonic(), raw.decode().rstrip("\n")))
        except (OSError, ValueError):  # closed under the reader
            pass

    def arrival(self, wanted, timeout: float = 30) -> float:
        """When the first line for which ``wanted(line)`` holds arrived (waiting for it)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for at, line in list(self.lines):
                if wanted(line):
                    return at
            time.sleep(0.005)
        raise AssertionError(f"no such line in {timeout} s; got {[line for _, line in self.lines]}")

    def close(self) -> None:
        self._response.close()


def move_event(ply: int):
    return lambda line: line.startswith("data: ") and json.loads(line[6:]).get("move", {}).get("ply") == ply


WAKE_MEDIAN_S, WAKE_MAX_S = 0.5, 1.5
"""The test's bounds on the time from sending a move to one process until a stream on the other
has it: for the median, a wide margin over the goal of 200 ms (PostgreSQL; SQLite's watch reads
every 250 ms) on a shared, loaded machine; for every move, less than the 2 s or more the stream
would otherwise wait for its own poll."""


def test_a_move_on_one_process_wakes_the_streams_on_the_other(database_url):
    a, b = two_servers(database_url)
    latencies, replies = [], []
    try:
        rng = random.Random(3)
        for _ in range(4):
            status, created = b.call("POST", "/api/matches", {"game": "tictactoe", "seats": [HUMAN, RANDOM]})
            assert status == 201, created
            match_id, token = created["id"], created["tokens"]["0"]
            events = EventLines(a, match_id)
            try:
                # The stream has read the match, waited a second for nothing and said so: its
                # own poll now comes only after 2 s more.
                events.arrival(lambda line: line == ": waiting")
                while True:
                    _, view = b.call("GET", f"/api/matches/{match_id}", token=token)
                    if view["status"] != "active":
                        break
                    # Moves at random moments, not in step with anything the servers do on a
                    # clock (SQLite's watch reads every 250 ms).
                    time.sleep(rng.uniform(0, 0.3))
                    sent = time.monotonic()
                    status, answer = b.call("POST", f"/api/matches/{match_id}/moves",
                                            {"action": rng.choice(view["legal_actions"])["id"], "ply": view["ply"]},
                                            token)
                    assert status == 200, answer
                    replies.append(time.monotonic() - sent)
                    latencies.append(events.arrival(move_event(view["ply"])) - sent)
            finally:
                events.close()
    finally:
        a.stop()
        b.stop()
    def ms(values: list[float]) -> str:
        p95 = statistics.quantiles(values, n=20, method="inclusive")[-1]
        return f"median {statistics.median(values) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, max {max(values) * 1000:.0f} ms"

    print(f"\n{database_url.split(':')[0]}, {len(latencies)} moves: sent to B, on a stream from A in {ms(latencies)}; "
          f"B's answer (the AI's reply included) in {ms(replies)}")
    assert statistics.median(latencies) < WAKE_MEDIAN_S and max(latencies) < WAKE_MAX_S, latencies
