"""Moves are made on the event loop unless an AI seat searches: a search thinks in a worker
thread, so the other tables are served while it thinks (on a real server process)."""
import threading
import time

from tests.api.servers import Server


def test_other_tables_are_served_while_a_search_thinks(tmp_path):
    server = Server(f"sqlite:///{tmp_path}/search.db")
    try:
        status, searching = server.call("POST", "/api/matches", {"game": "queen_of_spades", "seed": 5, "seats": [
            {"type": "human"}, *[{"type": "agent", "agent": "search"}] * 3]})
        assert status == 201
        status, other = server.call("POST", "/api/matches", {"game": "tictactoe", "seats": [
            {"type": "human"}, {"type": "agent", "agent": "random"}]})
        assert status == 201
        token = searching["tokens"]["0"]
        _, view = server.call("GET", f"/api/matches/{searching['id']}", token=token)
        assert view["legal_actions"], "the person moves first in this deal (seed 5)"
        move: dict = {}

        def play() -> None:
            move["status"], move["answer"] = server.call(
                "POST", f"/api/matches/{searching['id']}/moves",
                {"action": view["legal_actions"][0]["id"], "ply": view["ply"]}, token)
            move["done"] = time.perf_counter()

        thinking = threading.Thread(target=play)
        started = time.perf_counter()
        thinking.start()
        views = []
        while thinking.is_alive():
            status, _ = server.call("GET", f"/api/matches/{other['id']}", token=other["tokens"]["0"])
            assert status == 200
            views.append(time.perf_counter())
        thinking.join()
        assert move["status"] == 200 and len(move["answer"]["made"]) == 4  # the person's card, three searched replies
        # a search on the event loop would hold every other request until it ended
        during = [t for t in views if t < move["done"]]
        assert move["done"] - started > 0.1, "the searches were too quick to tell"
        assert len(during) >= 5, f"{len(during)} views answered in the {move['done'] - started:.2f} s of searching"
    finally:
        server.stop()


def test_a_move_setting_off_many_ai_replies_makes_them_in_a_thread_the_same_as_on_the_loop(client, monkeypatch):
    """A person knocked out of Yaniv leaves the AIs to play the match out in one request: about
    1,500 moves, 8 s in which the event loop answered nobody. Past ``ON_LOOP_AI_MOVES`` replies the
    move is made again in a worker thread, nothing stored twice. Here the bound is 2, and the
    person's card in Queen of Spades sets off three replies."""
    from anyio import to_thread

    from app.services import match_turns

    hops: list[object] = []

    class Spy:
        @staticmethod
        async def run_sync(fn, *args, **kw):
            hops.append(fn)
            return await to_thread.run_sync(fn, *args, **kw)

    monkeypatch.setattr(match_turns, "to_thread", Spy)
    answers = []
    for bound in (match_turns.ON_LOOP_AI_MOVES, 2):
        monkeypatch.setattr(match_turns, "ON_LOOP_AI_MOVES", bound)
        made = client.post("/api/matches", json={"game": "queen_of_spades", "seed": 5, "seats": [
            {"type": "human"}, *[{"type": "agent", "agent": "rules"}] * 3]}).json()
        token = {"Authorization": f"Bearer {made['tokens']['0']}"}
        view = client.get(f"/api/matches/{made['id']}", headers=token).json()
        r = client.post(f"/api/matches/{made['id']}/moves", json={"action": view["legal_actions"][0]["id"],
                                                                   "ply": view["ply"]}, headers=token)
        assert r.status_code == 200, r.text
        answers.append([(m["seat"], m["action"]) for m in r.json()["moves"]])
        stored = client.get(f"/api/matches/{made['id']}", headers=token).json()
        assert stored["ply"] == 4 and [(m["seat"], m["action"]) for m in stored["moves"]] == answers[-1]
        assert len(hops) == (0 if bound > 3 else 1)
    assert answers[0] == answers[1] and len(answers[0]) == 4
