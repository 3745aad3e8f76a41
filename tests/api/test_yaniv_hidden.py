"""Yaniv over HTTP: no response and no event shows another player's hand or the stock
before the hands are shown at a call."""
import json
import random
import re

from engine import get_game
from engine.yaniv.cards import CARD_IDS
from tests.conftest import new_match, event_payloads

SEED = 42_424_243
CARD_ID = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9AJQK])[cdhs](?![A-Za-z0-9])|jk[12]")
G = get_game("yaniv")


def card_ids(payload) -> set[str]:
    """Every card id in any string of a JSON payload (alone, in a list, or inside an action id)."""
    return set(CARD_ID.findall(json.dumps(payload)))


def hidden_cards(moves: list[str], viewer: int | None) -> set[str] | None:
    """The cards in the others' hands or the stock after ``moves`` that ``viewer`` has never
    seen (in its own hand, thrown, or turned up); None once a call has shown the hands."""
    state = G.new_match(3, SEED)
    seen = set(state.top) | (set(state.hands[viewer]) if viewer is not None else set())
    for action_id in moves:
        if action_id == "yaniv":
            return None
        action = G.parse_action(action_id)
        seen |= set(action.indices)
        state = G.apply(state, action)
        if viewer is not None:
            seen |= set(state.hands[viewer])
    others = {c for s, hand in enumerate(state.hands) if s != viewer for c in hand if c not in state.known[s]}
    return {CARD_IDS[c] for c in (others | set(state.stock)) - seen}




def test_no_response_or_event_shows_hidden_cards_before_the_call(client):
    seats = [{"type": "human", "name": "Ann"}, {"type": "agent", "agent": "harel"},
             {"type": "agent", "agent": "sage"}]
    match_id, tokens = new_match(client, "yaniv", seats, seed=SEED)
    rng = random.Random(9)
    turns = 0
    while True:
        mine = client.get(f"/api/matches/{match_id}", headers=tokens[0]).json()
        moves = [m["action"] for m in mine["moves"]]
        from_me, from_all = hidden_cards(moves, 0), hidden_cards(moves, None)
        if from_me is None:
            break
        assert len(from_me) > 10
        spectator = client.get(f"/api/matches/{match_id}").json()
        replay = client.get(f"/api/matches/{match_id}/replay", headers=tokens[0]).json()
        for payload, hidden in ((mine, from_me), (replay, from_me), (spectator, from_all)):
            assert not card_ids(payload) & hidden, f"{sorted(card_ids(payload) & hidden)} after {len(moves)} moves"
            assert str(SEED) not in json.dumps(payload)
        if moves:
            assert not card_ids(event_payloads(client, match_id, len(moves))) & from_all
        legal = [a["id"] for a in mine["legal_actions"] if a["id"] != "yaniv"]
        reply = client.post(f"/api/matches/{match_id}/moves", json={"action": rng.choice(legal), "ply": mine["ply"]},
                            headers=tokens[0])
        assert reply.status_code == 200, reply.text
        made = [m["action"] for m in reply.json()["made"]]
        if "yaniv" not in made:
            assert not card_ids(reply.json()) & hidden_cards(moves + made, 0)
        turns += 1
    assert turns >= 2
    # at the call every hand is shown, with the scoring explained
    result = client.get(f"/api/matches/{match_id}", headers=tokens[0]).json()["view"]["last_result"]
    assert len(result["hands"]) == 3 and all(result["hands"]) and result["explain"]
