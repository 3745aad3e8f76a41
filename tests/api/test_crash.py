"""``kill -9`` of a server mid-game, then a restart on the same database: every match resumes
with every move, and the live learners' tables are exactly as after the last finished game."""
import http.client
import random
import threading

from app.db import get_engine, session_factory
from app.services import live
from tests.api.servers import Server

HUMAN = {"type": "human", "name": "Ann"}


def tables(db_url) -> dict:
    with session_factory(get_engine(db_url))() as s:
        return {agent: dict(live.table(s, game, agent)) for game, agent in
                (("tictactoe", "menace-live"), ("yaniv", "harel-live"))}


def play(server, match_id, token, rng, moves=None):
    """Random legal moves for the token's seat: ``moves`` of them, or to the end."""
    made = 0
    while moves is None or made < moves:
        status, view = server.call("GET", f"/api/matches/{match_id}", token=token)
        assert status == 200, view
        if view["status"] != "active":
            return view
        legal = [a["id"] for a in view["legal_actions"]]
        action = "yaniv" if "yaniv" in legal else rng.choice(legal)
        status, answer = server.call("POST", f"/api/matches/{match_id}/moves", {"action": action, "ply": view["ply"]},
                                     token)
        assert status == 200, answer
        made += 1
    return view


def test_kill_9_mid_game_then_restart_loses_nothing(tmp_path):
    db_url = f"sqlite:///{tmp_path / 'crash.db'}"
    server = Server(db_url)
    rng = random.Random(3)
    try:
        matches = {}
        for game, seats, options in (("tictactoe", [HUMAN, {"type": "agent", "agent": "menace-live"}], {}),
                                     ("yaniv", [HUMAN, {"type": "agent", "agent": "harel-live"}], {"elimination": 5})):
            status, created = server.call("POST", "/api/matches", {"game": game, "seats": seats, "options": options})
            assert status == 201, created
            play(server, created["id"], created["tokens"]["0"], rng)  # a finished game: learned from
            status, created = server.call("POST", "/api/matches", {"game": game, "seats": seats, "options": options})
            play(server, created["id"], created["tokens"]["0"], rng, moves=1)  # and one under way
            matches[game] = created
        learned = tables(db_url)
        assert learned["menace-live"] and learned["harel-live"]
        # One more move in flight when the process dies: it lands whole or not at all.
        ttt = matches["tictactoe"]
        _, view = server.call("GET", f"/api/matches/{ttt['id']}", token=ttt["tokens"]["0"])
        in_flight = threading.Thread(target=lambda: _quiet(server.call, "POST", f"/api/matches/{ttt['id']}/moves",
                                                           {"action": view["legal_actions"][0]["id"]},
                                                           ttt["tokens"]["0"]))
        in_flight.start()
        server.kill()
        in_flight.join()
    finally:
        server.stop()

    assert tables(db_url) == learned  # the tables as after the last finished game
    server = Server(db_url)
    try:
        for created in matches.values():
            token = created["tokens"]["0"]
            status, view = server.call("GET", f"/api/matches/{created['id']}", token=token)
            assert status == 200 and view["status"] == "active"
            _, replay = server.call("GET", f"/api/matches/{created['id']}/replay", token=token)
            assert [m["ply"] for m in replay["moves"]] == list(range(view["ply"]))  # every move, no gap
            assert replay["moves"][-1]["view"] == view["view"]  # the stored state is the moves' state
            final = play(server, created["id"], token, rng)  # and it plays on to the end
            assert final["status"] == "finished"
        _, menace = server.call("GET", "/api/agents/tictactoe/menace-live")
        assert menace["live_state"]["games"] == 2
    finally:
        server.stop()


def _quiet(fn, *args):
    try:
        fn(*args)
    except (OSError, http.client.HTTPException):
        pass  # the server died under it (before answering, or part way through its answer)
