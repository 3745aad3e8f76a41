"""Event streams: woken by the move that concerns them, not by polling; capped per client and
per server."""
import threading
import time

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.services import match_events
from app.services import relay
from app.services.streams import ServerBusy, StreamLimits, TooManyStreams
from tests.conftest import new_match

PEOPLE = [{"type": "human", "name": "Xena"}, {"type": "human", "name": "Otto"}]


def hold_stream(client, match_id, opened: threading.Event, stop: threading.Event, lines: list):
    with client.stream("GET", f"/api/matches/{match_id}/events") as stream:
        for line in stream.iter_lines():
            lines.append((time.monotonic(), line))
            opened.set()
            if line.startswith("event: move") or stop.is_set():
                return


def test_a_move_wakes_a_waiting_stream_at_once(client, monkeypatch):
    # Without the notifier the stream would see the move only at its next database poll, or
    # when the watch for other processes' moves reads the database again: a minute.
    monkeypatch.setattr(match_events, "FALLBACK_POLL_S", (60.0, 60.0))
    monkeypatch.setattr(relay, "WATCH_S", 60.0)
    match_id, tokens = new_match(client, "tictactoe", PEOPLE)
    opened, stop, lines = threading.Event(), threading.Event(), []
    reader = threading.Thread(target=hold_stream, args=(client, match_id, opened, stop, lines), daemon=True)
    reader.start()
    assert opened.wait(20)
    time.sleep(0.5)  # the stream has read the database and is waiting
    sent = time.monotonic()
    assert client.post(f"/api/matches/{match_id}/moves", json={"action": "cell:4", "ply": 0},
                       headers=tokens[0]).status_code == 200
    reader.join(20)
    stop.set()
    assert not reader.is_alive(), "the move did not wake the stream"
    woke = next(t for t, line in lines if line.startswith("event: move"))
    assert woke - sent < 20  # well before the one-minute poll


def test_streams_over_the_per_client_cap_get_429(db_url, monkeypatch):
    monkeypatch.setenv("PARLOUR_STREAMS_PER_CLIENT", "2")
    with TestClient(create_app(db_url, preload=False)) as client:
        match_id, _ = new_match(client, "tictactoe", PEOPLE)
        stop, readers = threading.Event(), []
        for _ in range(2):
            opened = threading.Event()
            t = threading.Thread(target=hold_stream, args=(client, match_id, opened, stop, []), daemon=True)
            t.start()
            assert opened.wait(20)
            readers.append(t)
        assert client.app.state.streams.open_streams() == 2
        r = client.get(f"/api/matches/{match_id}/events")
        assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0 and "event streams" in r.json()["detail"]
        stop.set()  # the readers leave at the stream's next line (a comment after its 1 s poll)
        for t in readers:
            t.join(20)
        deadline = time.monotonic() + 20
        while client.app.state.streams.open_streams() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert client.app.state.streams.open_streams() == 0  # closed streams gave their places back


def test_stream_limits_per_client_and_in_total():
    limits = StreamLimits(per_client=2, total=3)
    a1, a2 = limits.acquire("a"), limits.acquire("a")
    with pytest.raises(TooManyStreams):
        limits.acquire("a")
    b1 = limits.acquire("b")
    with pytest.raises(ServerBusy) as busy:
        limits.acquire("c")
    assert busy.value.status == 503 and busy.value.retry_after > 0
    a1()
    a1()  # giving a place back twice gives back one
    assert limits.open_streams() == 2
    limits.acquire("c")
    for release in (a2, b1):
        release()
    assert limits.open_streams() == 1
