"""Live Baltar: its Q-tables live in the database and learn from the Rack-O deals people play."""
import random

from sqlalchemy import select

from agents.base import Episode
from agents.racko.baltar import REWARD, BaltarLive
from app.db import get_engine, session_factory
from app.models import LearnedValue
from app.services import canary
from engine import get_game
from tests.conftest import new_match

G = get_game("racko")


def stored(db_url) -> dict[str, float]:
    with session_factory(get_engine(db_url))() as s:
        return dict(s.execute(select(LearnedValue.key, LearnedValue.value)
                              .where(LearnedValue.agent == "racko/baltar-live")).all())


def test_a_finished_deal_teaches_the_live_baltar(client, db_url, server_seed):
    options = {"rack_size": 5, "target_score": 30, "max_turns": 60}  # a match of a deal or a few
    seats = [{"type": "human", "name": "Ann"}, {"type": "agent", "agent": "baltar-live"}]
    server_seed(12)  # the deal must be known, and the match learned from
    match_id, tokens = new_match(client, "racko", seats, options=options)
    rng = random.Random(5)
    while True:
        view = client.get(f"/api/matches/{match_id}", headers=tokens[0]).json()
        if view["status"] != "active":
            break
        legal = [a["id"] for a in view["legal_actions"]]
        r = client.post(f"/api/matches/{match_id}/moves", json={"action": rng.choice(legal), "ply": view["ply"]},
                        headers=tokens[0])
        assert r.status_code == 200, r.text
    learned = stored(db_url)
    assert learned and all(abs(v) <= REWARD for v in learned.values())
    # the database holds exactly what Baltar's own learn() computes from the match
    moves = [m["action"] for m in client.get(f"/api/matches/{match_id}/replay").json()["moves"]]
    state, episode = G.new_match(2, 12, options), Episode(seat=1)
    for action_id in moves:
        if state.to_move == 1:
            episode.steps.append((G.observe(state, 1), action_id))
        state = G.apply_id(state, action_id)
    episode.won = 1 in G.winners(state)
    expected = BaltarLive({})
    expected.learn(episode)
    assert set(learned) == set(expected.values)
    assert all(abs(learned[k] - v) < 1e-6 for k, v in expected.values.items())
    # its canary: against Kyle at 5 slots, passed (one match moves little), and kept as its last good table
    report = canary.check(session_factory(get_engine(db_url)), "racko", "baltar-live")
    assert set(report["scores"]) == {"kyle"} and report["passed"] is True
    assert report["scores"]["kyle"] >= report["floors"]["kyle"]
