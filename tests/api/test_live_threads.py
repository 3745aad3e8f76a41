"""A live learner's heavy work never holds the event loop: building its table (Harel's trained one
has 593,240 values: seconds of CPU) and its canary run in threads, and a real server process
answers other requests meanwhile."""
import asyncio
import threading
import time

import pytest

from app.services import live
from tests.api.servers import Server

HUMAN = {"type": "human"}


def served_meanwhile(server: Server, other: dict, busy: threading.Thread) -> list[float]:
    """Times at which another table's view was answered while ``busy`` ran."""
    answered = []
    while busy.is_alive():
        status, _ = server.call("GET", f"/api/matches/{other['id']}", token=other["tokens"]["0"])
        assert status == 200
        answered.append(time.perf_counter())
    return answered


def longest_wait(started: float, answered: list[float], done: float) -> float:
    marks = [started] + [t for t in answered if t < done] + [done]
    return max(b - a for a, b in zip(marks, marks[1:]))


def test_other_tables_are_served_while_harel_lives_trained_table_is_built(tmp_path):
    server = Server(f"sqlite:///{tmp_path}/load.db", PARLOUR_ADMIN_TOKEN="t")
    try:
        status, other = server.call("POST", "/api/matches", {"game": "tictactoe", "seats": [
            HUMAN, {"type": "agent", "agent": "random"}]})
        assert status == 201
        assert server.call("POST", "/api/agents/yaniv/harel-live/reset", {"to": "trained"}, "t")[0] == 200
        first: dict = {}

        def create() -> None:  # the first Harel (live) match after the reset waits for its table
            first["status"], _ = server.call("POST", "/api/matches", {"game": "yaniv", "seats": [
                HUMAN, {"type": "agent", "agent": "harel-live"}]})
            first["done"] = time.perf_counter()

        creating = threading.Thread(target=create)
        started = time.perf_counter()
        creating.start()
        answered = served_meanwhile(server, other, creating)
        creating.join()
        assert first["status"] == 201
        took = first["done"] - started
        assert took > 0.5, "the table was built too quickly to tell"
        # built on the event loop it would have held every other request for the whole build
        assert len([t for t in answered if t < first["done"]]) >= 5
        assert longest_wait(started, answered, first["done"]) < took / 2
    finally:
        server.stop()


def test_other_tables_are_served_while_the_canary_measures(tmp_path):
    server = Server(f"sqlite:///{tmp_path}/canary.db", PARLOUR_ADMIN_TOKEN="t", PARLOUR_CANARY_EVERY="1")
    try:
        status, other = server.call("POST", "/api/matches", {"game": "tictactoe", "seats": [
            HUMAN, {"type": "agent", "agent": "random"}]})
        _, match = server.call("POST", "/api/matches", {"game": "tictactoe", "seats": [
            HUMAN, {"type": "agent", "agent": "menace-live"}]})
        token = match["tokens"]["0"]
        while True:  # the person plays the first free cell until the game ends: learned, the canary's turn
            _, view = server.call("GET", f"/api/matches/{match['id']}", token=token)
            if view["status"] != "active":
                break
            assert server.call("POST", f"/api/matches/{match['id']}/moves",
                               {"action": view["legal_actions"][0]["id"], "ply": view["ply"]}, token)[0] == 200
        assert view["learning"]["1"]["learned"] is True
        ended = time.perf_counter()
        verdict: dict = {}

        def await_verdict() -> None:
            deadline = time.time() + 300
            while time.time() < deadline:
                _, listed = server.call("GET", "/api/agents/tictactoe/menace-live/snapshots", token="t")
                checked = [s for s in listed["snapshots"] if s["passed"] is not None]
                if checked:
                    verdict.update(checked[0], done=time.perf_counter())
                    return

        waiting = threading.Thread(target=await_verdict)
        waiting.start()
        answered = served_meanwhile(server, other, waiting)
        waiting.join()
        assert verdict["passed"] is True and verdict["canary"]["learned_games"] == 1
        assert verdict["canary"]["seconds"] > 0.2, "the canary was too quick to tell"
        assert len([t for t in answered if t < verdict["done"]]) >= 5
        assert longest_wait(ended, answered, verdict["done"]) < verdict["canary"]["seconds"]
    finally:
        server.stop()


def test_on_the_event_loop_an_origin_table_is_refused_and_built_in_a_thread(monkeypatch):
    key = ("tictactoe", "menace-live", "trained")
    monkeypatch.delitem(live._origins, key, raising=False)

    async def on_the_loop():
        return live.origin_table(*key)

    with pytest.raises(live.Loading):
        asyncio.run(on_the_loop())
    for t in threading.enumerate():
        if t.name == "live-origin":
            t.join(60)
    assert key in live._origins
    assert asyncio.run(on_the_loop()) is live._origins[key]  # built: served on the loop at once
