"""The coach over HTTP: GET /api/matches/{id}/analysis and /hint."""
import time

from agents.catalog import coach
from agents.coach import Coach
from app.services import coach as coach_service
from tests.agents.test_coach import BLUNDER_GAME
from tests.conftest import new_match

TWO_PEOPLE = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Ben"}]


def play(client, match_id, tokens, moves, start=0):
    for ply, action in enumerate(moves, start):
        r = client.post(f"/api/matches/{match_id}/moves", json={"action": action, "ply": ply},
                        headers=tokens[ply % 2])
        assert r.status_code == 200, r.text


def finished_analysis(client, match_id, headers, timeout=60.0):
    """Poll the analysis until it is done; returns (the answers seen while running, the final one)."""
    seen, deadline = [], time.monotonic() + timeout
    while time.monotonic() < deadline:
        r = client.get(f"/api/matches/{match_id}/analysis", headers=headers)
        if r.status_code == 200:
            return seen, r.json()
        assert r.status_code == 202, r.text
        seen.append(r.json())
        time.sleep(0.05)
    raise AssertionError("the analysis did not finish")


def test_the_analysis_of_a_blunder_flags_that_move_and_follows_the_rules_of_access(client):
    match_id, tokens = new_match(client, "tictactoe", TWO_PEOPLE)
    play(client, match_id, tokens, BLUNDER_GAME[:3])
    url = f"/api/matches/{match_id}/analysis"
    r = client.get(url, headers=tokens[0])
    assert r.status_code == 409 and "still being played" in r.json()["detail"]
    assert client.get(f"/api/matches/{match_id}/hint", headers=tokens[1]).status_code == 409
    play(client, match_id, tokens, BLUNDER_GAME[3:], start=3)
    assert client.get(url).status_code == 401
    assert client.get(url, headers={"Authorization": "Bearer not-a-seat"}).status_code == 403
    assert client.get("/api/matches/nope/analysis", headers=tokens[0]).status_code == 404
    first = client.get(url, headers=tokens[0])
    assert first.status_code == 202
    assert {k: first.json()[k] for k in ("status", "done", "total")} == {"status": "running", "done": 0, "total": 3}
    running, done = finished_analysis(client, match_id, tokens[0])
    assert all(a["status"] == "running" and a["total"] == 3 and 0 <= a["done"] <= 3 for a in running)
    assert done["status"] == "done" and done["done"] == done["total"] == 3
    assert done["unit"] == coach("tictactoe").unit and done["agent"] == "perfect"
    assert [e["ply"] for e in done["entries"]] == [0, 2, 4]
    assert [(e["ply"], e["loss"]) for e in done["entries"] if e["mistake"]] == [(4, 1.0)]
    blunder = done["entries"][2]
    assert {k: blunder[k] for k in ("action", "best", "value", "best_value")} == {
        "action": "cell:6", "best": "cell:1", "value": -1.0, "best_value": 0.0}
    assert done["summary"] == "1 mistake; the worst on move 5 cost 1 in game value"
    again = client.get(url, headers=tokens[0]).json()  # stored: the same answer, nothing recomputed
    assert again == done
    other = finished_analysis(client, match_id, tokens[1])[1]
    assert [e["ply"] for e in other["entries"]] == [1, 3, 5] and not any(e["mistake"] for e in other["entries"])


def test_a_match_with_hints_is_coached_during_play_and_left_out_of_the_ratings(client):
    match_id, tokens = new_match(client, "tictactoe", TWO_PEOPLE, hints=True)
    play(client, match_id, tokens, BLUNDER_GAME[:4])
    hint = client.get(f"/api/matches/{match_id}/hint", headers=tokens[0])
    assert hint.status_code == 200, hint.text
    assert hint.json()["best"] == "cell:1" and hint.json()["values"]["cell:6"] == -1.0
    assert client.get(f"/api/matches/{match_id}/hint", headers=tokens[1]).status_code == 409  # not Ben's turn
    running = finished_analysis(client, match_id, tokens[0])[1]  # the moves so far, while it is active
    assert [e["ply"] for e in running["entries"]] == [0, 2] and running["hints"] is True
    play(client, match_id, tokens, BLUNDER_GAME[4:], start=4)
    done = finished_analysis(client, match_id, tokens[0])[1]
    assert [e["ply"] for e in done["entries"] if e["mistake"]] == [4]
    rows = client.get("/api/results?game=tictactoe").json()
    assert rows and all(r["hints"] is True for r in rows)
    assert client.get("/api/leaderboard?game=tictactoe").json()["players"] == []
    assert client.get(f"/api/matches/{match_id}", headers=tokens[0]).json()["hints"] is True


def test_a_hint_from_a_level_that_decides_by_rule_names_no_best_move(client, monkeypatch):
    """When the coach's level gives no values (it decides by rule there), the hint says so with
    ``best`` null and no values, rather than naming a move it did not weigh."""
    real = coach("tictactoe")
    silent = Coach(real.agent, real.unit, real.threshold, lambda *_: {}, real.points)
    monkeypatch.setattr(coach_service, "game_coach", lambda game, players=None: silent)
    match_id, tokens = new_match(client, "tictactoe", TWO_PEOPLE, hints=True)
    play(client, match_id, tokens, BLUNDER_GAME[:2])
    hint = client.get(f"/api/matches/{match_id}/hint", headers=tokens[0])
    assert hint.status_code == 200, hint.text
    assert hint.json()["best"] is None and hint.json()["values"] == {}


def test_the_coach_of_a_card_game_is_handed_the_seats_observation_only(client, monkeypatch):
    """A person against an AI at Rack-O: every observation the coach gets is exactly what that seat
    saw (not the revealed table), and every move it names is one the seat could make."""
    real = coach("racko")
    seen = []

    def recording(observation, legal, chosen, rng):
        seen.append((observation, [a.id for a in legal]))
        return real.values(observation, legal, chosen, rng)

    spy = Coach(real.agent, real.unit, real.threshold, recording, real.points)
    monkeypatch.setattr(coach_service, "game_coach", lambda game, players=None: spy)
    match_id, tokens = new_match(client, "racko", [{"type": "human"}, {"type": "agent", "level": 2}],
                                 options={"rack_size": 5, "max_card": 25, "target_score": 1, "max_turns": 12}, seed=3)
    views = []
    while True:
        view = client.get(f"/api/matches/{match_id}", headers=tokens[0]).json()
        if view["status"] != "active":
            break
        views.append(view["view"])
        action = view["legal_actions"][0]["id"]
        assert client.post(f"/api/matches/{match_id}/moves", json={"action": action, "ply": view["ply"]},
                           headers=tokens[0]).status_code == 200
    done = finished_analysis(client, match_id, tokens[0])[1]
    assert done["total"] == len(views) and len(done["entries"]) == len(views)
    assert seen and all(obs["seat"] == 0 and any(obs == v for v in views) for obs, _ in seen)
    rated = [e for e in done["entries"] if e["value"] is not None]  # reviewed in order, forced moves skipped
    assert len(rated) == len(seen) >= 3
    assert all(e["action"] in ids and e["best"] in ids for e, (_, ids) in zip(rated, seen))


def test_one_process_at_a_time_reviews_a_seat_and_a_dead_ones_claim_is_taken_over(client, monkeypatch):
    """Two server processes share the database: while one holds the claim on a seat's review the
    other computes nothing; once the claim is released, or stale (its process died), it goes on."""
    from sqlalchemy import update

    from app.models import ReviewClaim
    match_id, tokens = new_match(client, "tictactoe", TWO_PEOPLE)
    play(client, match_id, tokens, BLUNDER_GAME)
    sessions = client.app.state.sessions
    calls = []
    real = coach_service.review
    monkeypatch.setattr(coach_service, "review", lambda *a, **k: calls.append(a[1]) or real(*a, **k))
    with sessions() as other_process, sessions() as this_process:
        assert coach_service.claim(other_process, match_id, 0)
        assert coach_service.review_missing(this_process, match_id, 0) == 0 and calls == []
        assert not coach_service.claim(this_process, match_id, 0)  # still held
        other_process.execute(update(ReviewClaim).values(claimed_at=time.time() - coach_service.CLAIM_TTL_S - 1))
        other_process.commit()  # the other process died long ago: its claim is stale
        assert coach_service.review_missing(this_process, match_id, 0) == 3 and calls == [0, 2, 4]
        assert coach_service.review_missing(this_process, match_id, 0) == 0 and len(calls) == 3  # stored once
        assert this_process.query(ReviewClaim).count() == 0  # released when done


def test_at_a_five_seat_uno_table_the_coach_is_the_top_levels_networks(client):
    """Five seats: the hint and the review judge in the networks' points (the top level plays by them
    there, and at four); three seats: the search's chance to win the deal."""
    ais = [{"type": "agent", "agent": a} for a in ("perceptron", "betteroffensive", "offensive", "defensive")]
    match_id, tokens = new_match(client, "uno", [{"type": "human"}, *ais], hints=True, seed=11,
                                 options={"target_score": 1})
    hint = client.get(f"/api/matches/{match_id}/hint", headers=tokens[0])
    assert hint.status_code == 200, hint.text
    assert hint.json()["agent"] == "mcts-dmc" and hint.json()["unit"] == coach("uno", 5).unit
    view = client.get(f"/api/matches/{match_id}", headers=tokens[0]).json()
    assert client.post(f"/api/matches/{match_id}/moves", json={"action": view["legal_actions"][0]["id"],
                                                               "ply": view["ply"]}, headers=tokens[0]).status_code == 200
    review = finished_analysis(client, match_id, tokens[0])[1]
    assert review["agent"] == "mcts-dmc" and review["entries"] and review["threshold"] == 5.0
    small, small_tokens = new_match(client, "uno", [{"type": "human"}, *ais[:2]], hints=True, seed=11,
                                    options={"target_score": 1})
    assert client.get(f"/api/matches/{small}/analysis", headers=small_tokens[0]).json()["agent"] == "mcts-bo"


def test_verdicts_of_another_judge_are_not_served_and_are_computed_again(client):
    """A game's coach changes (a new top level, or Uno's judge at four seats): what the old judge stored
    is not shown under the new one's unit; asking for the analysis computes it again."""
    from sqlalchemy import select, update

    from app.models import MoveReview
    match_id, tokens = new_match(client, "tictactoe", TWO_PEOPLE)
    play(client, match_id, tokens, BLUNDER_GAME)
    done = finished_analysis(client, match_id, tokens[0])[1]
    with client.app.state.sessions() as session:
        session.execute(update(MoveReview).where(MoveReview.match_id == match_id).values(judge="a-former-coach",
                                                                                          loss=0.0))
        session.commit()
    again = client.get(f"/api/matches/{match_id}/analysis", headers=tokens[0])
    assert again.status_code == 202 and again.json()["entries"] == []  # the former judge's verdicts are not served
    assert finished_analysis(client, match_id, tokens[0])[1] == done  # computed again: the blunder flagged again
    with client.app.state.sessions() as session:
        judges = set(session.scalars(select(MoveReview.judge).where(MoveReview.match_id == match_id, MoveReview.seat == 0)))
    assert judges == {"perfect"}


def test_review_jobs_take_turns_so_a_short_review_is_not_held_behind_a_long_one(monkeypatch):
    """One person's review of a long match held every other review back (a probe: 750 Rack-O
    decisions ahead of a 3-move review, about half an hour). A job reviews ``SLICE`` decisions and
    goes to the back of the queue, so the short review ends after one slice of the long one."""
    import threading

    left = {("long", 0): 5 * coach_service.SLICE, ("short", 0): 3}
    order: list[str] = []
    gate = threading.Event()

    def fake(session, match_id, seat, at_most=None):
        gate.wait(10)  # both jobs are queued before the first slice runs
        n = min(at_most or left[(match_id, seat)], left[(match_id, seat)])
        left[(match_id, seat)] -= n
        order.append(match_id)
        return n

    class Session:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(coach_service, "review_missing", fake)
    reviewer = coach_service.Reviewer(Session)
    try:
        reviewer.start("long", 0)
        reviewer.start("short", 0)
        reviewer.start("short", 0)  # asked twice: still one job
        gate.set()
        deadline = time.monotonic() + 10
        while reviewer.running and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not reviewer.running
        assert order[:2] == ["long", "short"] and order.count("short") == 1
        assert order.count("long") == 6 and left == {("long", 0): 0, ("short", 0): 0}  # 5 full slices, then an empty one
    finally:
        reviewer.close()
