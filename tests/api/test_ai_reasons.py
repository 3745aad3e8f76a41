"""An AI that gives no values for its moves still says why it moved: its rule in one line (the
explanation's ``reason``, the agent's description), which the table's thinking panel shows after
"Why:". Random, SemiRandom and GreedyRandom once left the panel at "The AI has not moved yet."."""
import pytest

from agents.catalog import spec
from tests.conftest import new_match

NO_VALUES = [("tictactoe", "random", 2), ("yaniv", "semirandom", 2), ("yaniv", "greedyrandom", 3),
             ("racko", "random", 2), ("queen_of_spades", "random", 4)]


@pytest.mark.parametrize("game,agent,seats", NO_VALUES, ids=[f"{g}-{a}" for g, a, _ in NO_VALUES])
def test_an_ai_without_values_gives_its_rule_as_the_reason(client, game, agent, seats):
    levels = next(g["levels"] for g in client.get("/api/games").json() if g["name"] == game)
    level = next(lv["level"] for lv in levels if lv["id"] == agent)
    match, headers = new_match(client, game, [{"type": "human"}, *[{"type": "agent", "level": level}] * (seats - 1)])
    view = client.get(f"/api/matches/{match}", headers=headers[0]).json()
    while view["last_explanation"] is None:  # the person moves until an AI has replied
        r = client.post(f"/api/matches/{match}/moves", json={"action": view["legal_actions"][0]["id"]}, headers=headers[0])
        assert r.status_code == 200, r.text
        view = r.json()
    why = view["last_explanation"]
    assert why["seat"] != 0 and why["values"] == {}
    assert why["reason"] == spec(game, agent).description and len(why["reason"]) > 20
