"""Live Harel: its Q-table lives in the database and learns from the Yaniv matches people play."""
import random

from sqlalchemy import select

from agents.base import Episode
from agents.yaniv.harel import Harel, HarelConfig
from app.db import get_engine, session_factory
from app.models import LearnedValue
from app.services import canary
from engine import get_game
from tests.conftest import new_match

G = get_game("yaniv")


def q_table(db_url) -> dict[str, float]:
    with session_factory(get_engine(db_url))() as s:
        return dict(s.execute(select(LearnedValue.key, LearnedValue.value)
                              .where(LearnedValue.agent == "yaniv/harel-live")).all())


def test_a_finished_match_teaches_the_live_harel(client, db_url, server_seed):
    seats = [{"type": "human", "name": "Ann"}, {"type": "agent", "agent": "harel-live"}]
    server_seed(77)  # the deal must be known, and the match learned from
    match_id, tokens = new_match(client, "yaniv", seats, options={"elimination": 5})
    rng = random.Random(5)
    while True:
        view = client.get(f"/api/matches/{match_id}", headers=tokens[0]).json()
        if view["status"] != "active":
            break
        legal = [a["id"] for a in view["legal_actions"]]
        action = "yaniv" if "yaniv" in legal else rng.choice(legal)
        r = client.post(f"/api/matches/{match_id}/moves", json={"action": action, "ply": view["ply"]},
                        headers=tokens[0])
        assert r.status_code == 200, r.text
    learned = q_table(db_url)
    assert learned and all(-1.0 <= v <= 1.0 for v in learned.values())
    # the database holds exactly what Harel's own learn() computes from the match
    moves = [m["action"] for m in client.get(f"/api/matches/{match_id}/replay").json()["moves"]]
    state, episode = G.new_match(2, 77, {"elimination": 5}), Episode(seat=1)
    for action_id in moves:
        if state.to_move == 1:
            episode.steps.append((G.observe(state, 1), action_id))
        state = G.apply_id(state, action_id)
    episode.won = 1 in G.winners(state)
    expected = Harel({}, HarelConfig())
    expected.learn(episode)
    assert set(learned) == set(expected.table)
    assert all(abs(learned[k] - v) < 1e-9 for k, v in expected.table.items())
    agent = client.get("/api/agents/yaniv/harel-live").json()
    assert agent["live_state"]["games"] == 1
    # its canary: against SemiRandom, passed (one match moves little), and kept as its last good table
    report = canary.check(session_factory(get_engine(db_url)), "yaniv", "harel-live")
    assert set(report["scores"]) == {"semirandom"} and report["games"] == 400 and report["passed"] is True
    assert report["scores"]["semirandom"] >= report["floors"]["semirandom"]
