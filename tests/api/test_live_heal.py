"""Learners that heal (issue 23): the attack of ten perfect centre openings, and of 400, from one
client and from many, leaves live MENACE's centre box holding beads and its strength above the
canary's floor; an attack that does push it below is rolled back by the canary, its games
quarantined and listed for the administrator."""
import random

import pytest

from agents.tictactoe.menace import beginner_table
from app.bench.heal import CENTRE_KEYS, blunder_thrower, learn_in_service, perfect_centre, play
from app.commands.live import main as live_cli
from app.db import get_engine, session_factory
from app.services import canary, live
from tests.api.test_live_menace import HUMAN, LIVE, beads
from tests.conftest import new_match, play_randomly


def centre_box(db_url) -> dict[str, float]:
    with session_factory(get_engine(db_url))() as s:
        table = live.table(s, "tictactoe", "menace-live")
        return {k: table[k] for k in CENTRE_KEYS}


def attack(sessions, client: str, choose, rng, menace_seat: int = 1, match_id: str | None = None):
    """One game of the attacker against live MENACE, played in process and learned through the
    service layer as a finished match is (400 games over HTTP would take minutes here). Returns
    (what became of it, the final state), or None for a game the attacker left unfinished."""
    with sessions() as session:
        menace = live.make_live_agent(session, "tictactoe", "menace-live")
    episode, state = play(menace, choose, menace_seat, rng)
    return None if episode is None else (learn_in_service(sessions, client, episode, match_id), state)


def strength(db_url) -> dict:
    """The canary run now on live MENACE (its report; a pass keeps a snapshot)."""
    return canary.check(session_factory(get_engine(db_url)), "tictactoe", "menace-live")


@pytest.fixture
def sessions(client, db_url):
    return session_factory(get_engine(db_url))


def test_ten_perfect_centre_openings_over_http_leave_the_box_and_the_strength(client, db_url, monkeypatch):
    monkeypatch.setenv("PARLOUR_CANARY_EVERY", "0")
    rng, lowest = random.Random(23), []
    choose = perfect_centre(rng)
    for _ in range(10):
        match_id, tokens = new_match(client, "tictactoe", [HUMAN, LIVE])
        while True:
            view = client.get(f"/api/matches/{match_id}", headers=tokens[0]).json()
            if view["status"] != "active":
                break
            cell = choose(tuple({"": 0, "X": 1, "O": 2}[c] for c in view["view"]["cells"]), None)
            assert client.post(f"/api/matches/{match_id}/moves", json={"action": f"cell:{cell}", "ply": view["ply"]},
                               headers=tokens[0]).status_code == 200
        assert view["learning"]["1"]["learned"] is True
        replies = [m for m in client.get(f"/api/matches/{match_id}/replay").json()["moves"] if m["seat"] == 1]
        assert replies[0]["action"] != "resign"  # it answers the centre opening
        lowest.append(sum(centre_box(db_url).values()))
    # The attack bit (8 beads at the start; before the healing the box held 0 after these ten
    # games), but the box kept a bead, and MENACE is as strong as its origin allows.
    assert 1 <= min(lowest) < 8
    report = strength(db_url)
    assert report["passed"] is True, report


@pytest.mark.parametrize("many", [False, True], ids=["one client", "many addresses"])
def test_four_hundred_perfect_centre_openings_leave_menace_above_its_floor(sessions, db_url, monkeypatch, many):
    monkeypatch.setenv("PARLOUR_LEARN_LIMIT", "0")  # the limits off: only the healing holds
    monkeypatch.setenv("PARLOUR_CANARY_EVERY", "0")
    rng = random.Random(400)
    choose = perfect_centre(rng)
    notes = []
    for i in range(400):
        learned, final = attack(sessions, f"addr-{i}" if many else "one-client", choose, rng)
        assert final.resigned is None  # it answers the centre opening, every time
        assert sum(centre_box(db_url).values()) > 0  # never empty, after any game
        notes.append(learned)
    assert all(n.learned and not n.held_back for n in notes[:10])
    if many:
        assert all(n.learned and not n.held_back for n in notes)
    else:  # one client: ten games in a box, then its games teach only the boxes they have not filled
        assert all(n.held_back and "PARLOUR_LEARN_BOX_LIMIT" in n.reason for n in notes[10:])
    report = strength(db_url)
    assert report["passed"] is True, report
    assert all(report["scores"][ref] >= report["floors"][ref] for ref in ("random", "perfect"))


def test_an_attack_that_does_weaken_menace_is_rolled_back_and_quarantined(client, sessions, db_url, admin,
                                                                          monkeypatch, capsys):
    monkeypatch.setenv("PARLOUR_LEARN_LIMIT", "0")  # and a new address for every game
    monkeypatch.setenv("PARLOUR_CANARY_EVERY", "50")
    rng = random.Random(5)
    learned = []
    for i in range(400):
        played = attack(sessions, f"addr-{i}", blunder_thrower(rng), rng, menace_seat=i % 2, match_id=f"attack-{i}")
        if played is not None:
            assert played[0].learned
            learned.append(f"attack-{i}")
        canary.wait()
        snaps = client.get("/api/agents/tictactoe/menace-live/snapshots", headers=admin).json()["snapshots"]
        if any(s["passed"] is False for s in snaps):
            break
    failed = next(s for s in snaps if s["passed"] is False)  # the attack pushed it below its floor
    scores, floors = failed["canary"]["scores"], failed["canary"]["floors"]
    assert any(scores[ref] < floors[ref] for ref in floors), failed["canary"]
    assert failed["games"] == len(learned) and len(learned) % 50 == 0
    # Back to the last good table: the newest that passed the canary (the origin if none did yet).
    good = next((s for s in snaps if s["passed"] is True and s["id"] < failed["id"]), None)
    good_games = good["games"] if good else 0
    assert client.get("/api/agents/tictactoe/menace-live").json()["live_state"]["games"] == good_games
    with sessions() as s:
        overlay = _snapshot_overlay(s, good["id"]) if good else {}
    assert beads(db_url) == dict(live.LayeredTable(live.origin_table("tictactoe", "menace-live", "beginner"), overlay))
    # The games learned after it are quarantined: kept, listed for the administrator.
    listed = client.get("/api/agents/tictactoe/menace-live/quarantine?limit=1000", headers=admin).json()["games"]
    assert [g["match"] for g in listed] == learned[good_games:][::-1]
    assert all("canary after" in g["why"] and "< floor" in g["why"] for g in listed)
    assert client.get("/api/agents/tictactoe/menace-live/quarantine").status_code == 401
    assert client.get("/api/agents/tictactoe/perfect/quarantine", headers=admin).status_code == 404
    assert live_cli(["quarantined", "tictactoe", "menace-live", "--database-url", db_url]) == 0
    out = capsys.readouterr().out
    assert f"{len(listed)} quarantined games" in out and learned[-1] in out
    # Healed: it measures above its floor again.
    assert strength(db_url)["passed"] is True


def _snapshot_overlay(session, snapshot_id: int) -> dict[str, float]:
    import json
    import zlib

    from app.models import LiveSnapshot

    return json.loads(zlib.decompress(session.get(LiveSnapshot, snapshot_id).overlay))


def test_one_clients_weight_in_a_box_is_bounded_until_a_reset(client, db_url, admin, monkeypatch):
    monkeypatch.setenv("PARLOUR_LEARN_BOX_LIMIT", "1")
    monkeypatch.setenv("PARLOUR_CANARY_EVERY", "0")
    first_box = [k for k in beginner_table() if k.startswith(".........:")]

    def game(seed: int) -> tuple[dict, float]:
        match_id, tokens = new_match(client, "tictactoe", [LIVE, HUMAN])  # MENACE opens: its first box
        view = play_randomly(client, match_id, tokens[1], random.Random(seed))
        return view["learning"]["0"], sum(beads(db_url)[k] for k in first_box)

    note, after_first = game(1)
    assert note == {"agent": "menace-live", "learned": True}
    notes = [game(seed) for seed in range(2, 6)]
    # the first box learned from this client's first game only (the later ones taught other boxes)
    assert all(beads == after_first for _, beads in notes)
    assert all("PARLOUR_LEARN_BOX_LIMIT" in (n.get("held_back") or n.get("reason")) for n, _ in notes)
    assert client.post("/api/agents/tictactoe/menace-live/reset", json={"to": "beginner"},
                       headers=admin).status_code == 200
    note, _ = game(6)  # a reset gives every client its weight back
    assert note == {"agent": "menace-live", "learned": True}


def test_a_game_that_straddles_a_reset_to_an_unbuilt_table_is_not_learned(client, monkeypatch):
    real = live.make_live_agent

    def at_the_end(session, game, agent, own_copy=False):  # the table to learn into is not built here
        if own_copy:
            raise live.Loading()
        return real(session, game, agent, own_copy)

    monkeypatch.setattr(live, "make_live_agent", at_the_end)
    match_id, tokens = new_match(client, "tictactoe", [HUMAN, LIVE])
    view = play_randomly(client, match_id, tokens[0], random.Random(3))
    assert view["learning"]["1"] == {"agent": "menace-live", "learned": False,
                                     "reason": "not learned from: the learner was reset while this game was played"}


def test_pruning_keeps_the_last_good_snapshot(client, db_url, admin, monkeypatch):
    monkeypatch.setenv("PARLOUR_SNAPSHOT_KEEP", "2")
    assert strength(db_url)["passed"] is True
    for _ in range(3):
        assert live_cli(["snapshot", "tictactoe", "menace-live", "--database-url", db_url]) == 0
    snaps = client.get("/api/agents/tictactoe/menace-live/snapshots", headers=admin).json()["snapshots"]
    assert [s["passed"] for s in snaps] == [None, None, True]  # the newest two, and the last good one
