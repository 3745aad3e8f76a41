"""Live MENACE: learns from every finished game in the database, atomically, across restarts."""
import random
import threading

from fastapi.testclient import TestClient
from sqlalchemy import update

from agents.base import Update
from agents.tictactoe.menace import beginner_table
from agents.tictactoe.symmetry import canonical, render
from app.db import get_engine, session_factory
from app.main import create_app
from app.models import LearnedValue, LiveAgent
from app.services import live
from engine.tictactoe import TicTacToe
from tests.conftest import new_match, play_randomly

HUMAN = {"type": "human", "name": "Ann"}
LIVE = {"type": "agent", "agent": "menace-live"}


def beads(db_url) -> dict[str, float]:
    """Live MENACE's whole table: its origin overlaid with what it learned."""
    with session_factory(get_engine(db_url))() as s:
        return dict(live.table(s, "tictactoe", "menace-live"))


def test_a_finished_game_reinforces_the_beads_it_drew(client, db_url):
    match_id, tokens = new_match(client, "tictactoe", [LIVE, HUMAN])  # MENACE is X, opens at once
    view = play_randomly(client, match_id, tokens[1], random.Random(4))
    after = beads(db_url)
    fresh = beginner_table()
    changed = {k: after[k] - fresh[k] for k in fresh if after[k] != fresh[k]}
    menace_won, drawn = view["result"]["winners"] == [0], view["result"]["winners"] == []
    step = 3 if menace_won else 1 if drawn else -1
    assert changed and set(changed.values()) == {step}
    menace_moves = [m for m in client.get(f"/api/matches/{match_id}/replay").json()["moves"] if m["seat"] == 0]
    # a box is a move with beads to weigh (a forced last move uses none: it carries only the agent's reason)
    boxes_used = sum(1 for m in menace_moves if m["explanation"] and m["explanation"]["values"])
    assert len(changed) == boxes_used - last_beads_kept(client, match_id, fresh, step)  # one bead per box used
    curve = client.get("/api/agents/tictactoe/menace-live/curve").json()["live"]
    assert curve["games"] == 1


def last_beads_kept(client, match_id, fresh, step) -> int:
    """Boxes MENACE used that held a single bead: a loss would empty them, so they are refilled
    (to the same bead: nothing changes)."""
    if step > 0:
        return 0
    board, kept = [0] * 9, 0
    for m in client.get(f"/api/matches/{match_id}/replay").json()["moves"]:
        if m["seat"] == 0 and m["explanation"] and m["explanation"]["values"]:
            box = render(canonical(tuple(board))[0]) + ":"
            kept += sum(v for k, v in fresh.items() if k.startswith(box)) <= 1
        board[TicTacToe().parse_action(m["action"]).cell] = 1 + m["seat"]
    return kept


def test_concurrent_updates_lose_no_bead(db_url):
    with TestClient(create_app(db_url, preload=False)):
        pass  # migrate
    sessions = session_factory(get_engine(db_url))
    with sessions() as s:
        live.ensure(s, "tictactoe", "menace-live")
    key = ".........:4"
    start = beads(db_url)[key]

    def worker():
        with sessions() as s:
            for _ in range(25):
                live.apply_updates(s, "tictactoe", "menace-live", [Update(key, "add", 1.0, floor=0.0)])

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert beads(db_url)[key] == start + 100


def test_learning_refills_a_box_it_would_empty_and_an_empty_first_box_refuses_to_open(client, db_url, admin):
    sessions = session_factory(get_engine(db_url))
    with sessions() as s:
        live.ensure(s, "tictactoe", "menace-live")
        first = [k for k in beginner_table() if k.startswith(".........:")]
        live.apply_updates(s, "tictactoe", "menace-live", [Update(k, "add", -10.0, floor=0.0) for k in first])
    # the last bead would have gone: the box got its first beads back instead (LiveSpec.refill)
    assert {k: beads(db_url)[k] for k in first} == {k: beginner_table()[k] for k in first}
    assert client.post("/api/matches", json={"game": "tictactoe", "seats": [LIVE, HUMAN]}).status_code == 201
    # A table learned before the refill rule (an old snapshot rolled back to) can hold an empty first box.
    with sessions() as s:
        for k in first:
            s.merge(LearnedValue(agent="tictactoe/menace-live", key=k, value=0.0))
        s.execute(update(LiveAgent).values(version=LiveAgent.version + 1))
        s.commit()
    r = client.post("/api/matches", json={"game": "tictactoe", "seats": [LIVE, HUMAN]})
    assert r.status_code == 409 and "reset" in r.json()["detail"]
    # As O it still plays; reset to beginner restores the first box.
    assert client.post("/api/matches", json={"game": "tictactoe", "seats": [HUMAN, LIVE]}).status_code == 201
    assert client.post("/api/agents/tictactoe/menace-live/reset", json={"to": "beginner"},
                       headers=admin).status_code == 200
    assert beads(db_url) == beginner_table()
    assert client.post("/api/matches", json={"game": "tictactoe", "seats": [LIVE, HUMAN]}).status_code == 201


def test_copy_from_pretrained_and_errors(client, db_url, admin):
    from agents.tictactoe import LIVE_BOX_BEADS, trained_table

    r = client.post("/api/agents/tictactoe/menace-live/reset", json={"to": "trained"}, headers=admin)
    assert r.json()["origin"] == "trained"
    copied, trained = beads(db_url), trained_table()
    assert copied.keys() == trained.keys()
    first = [k for k in trained if k.startswith(".........:")]
    assert sum(copied[k] for k in first) <= LIVE_BOX_BEADS + len(first)  # rounding
    favourite = max(first, key=trained.get)
    assert max(first, key=copied.get) == favourite and copied[favourite] >= 1
    assert client.post("/api/agents/tictactoe/perfect/reset", json={"to": "beginner"},
                       headers=admin).status_code == 404
    assert client.post("/api/agents/tictactoe/menace-live/reset", json={"to": "nothing"},
                       headers=admin).status_code == 422
    box = client.get("/api/agents/tictactoe/menace-live/boxes?position=....X....").json()
    assert box["beads"][4] is None and box["box"] == "....X...."
    assert client.get("/api/agents/tictactoe/menace-live/boxes?position=OOO......").status_code == 404
    assert client.get("/api/agents/tictactoe/menace-live/boxes?position=abc").status_code == 422
    assert client.get("/api/agents/tictactoe/menace-live/boxes").json()["count"] == 304


def test_learning_survives_a_restart(db_url):
    with TestClient(create_app(db_url, preload=False)) as c:
        match_id, tokens = new_match(c, "tictactoe", [HUMAN, LIVE])
        play_randomly(c, match_id, tokens[0], random.Random(7))
        learned = beads(db_url)
    assert learned != beginner_table()
    with TestClient(create_app(db_url, preload=False)) as c:
        assert c.get("/api/agents/tictactoe/menace-live").json()["live_state"]["games"] == 1
        assert beads(db_url) == learned
