"""Queen of Spades over HTTP: while a deal runs no response, replay or event carries a card
of another seat's hand; a card that does not follow suit answers 409 with the reason and
changes nothing."""
import json
import random
import re

from engine import get_game
from engine.queen_of_spades.cards import CARD_IDS
from tests.conftest import event_payloads, new_match

SEED = 31_415_926
OPTIONS = {"deals": 1}
CARD_ID = re.compile(r"(?<![A-Za-z0-9])(?:10|[AKQJ987])[CSHD](?![A-Za-z0-9])")
G = get_game("queen_of_spades")
SEATS = [{"type": "agent", "agent": "rules"}, {"type": "human", "name": "Ann"},
         {"type": "agent", "agent": "random"}, {"type": "agent", "agent": "rules"}]


def card_ids(payload) -> set[str]:
    """Every card id in any string of a JSON payload (alone, in a list, or inside an action id)."""
    return set(CARD_ID.findall(json.dumps(payload)))


def hidden_cards(moves: list[str], viewer: int | None) -> set[str] | None:
    """The cards in the other seats' hands after ``moves``; None once the deal is over."""
    state = G.new_match(4, SEED, OPTIONS)
    for action_id in moves:
        state = G.apply_id(state, action_id)
    if G.is_over(state):
        return None
    return {CARD_IDS[c] for s, hand in enumerate(state.hands) if s != viewer for c in hand}


def test_no_response_or_event_shows_another_hand_while_the_deal_runs(client):
    match_id, tokens = new_match(client, "queen_of_spades", SEATS, seed=SEED, options=OPTIONS)
    me = tokens[1]
    rng = random.Random(5)
    turns = 0
    while True:
        mine = client.get(f"/api/matches/{match_id}", headers=me).json()
        moves = [m["action"] for m in mine["moves"]]
        from_me, from_all = hidden_cards(moves, 1), hidden_cards(moves, None)
        if from_me is None:
            break
        assert len(from_me) == sum(mine["view"]["hand_counts"]) - len(mine["view"]["hand"])
        spectator = client.get(f"/api/matches/{match_id}").json()
        replay = client.get(f"/api/matches/{match_id}/replay", headers=me).json()
        for payload, hidden in ((mine, from_me), (replay, from_me), (spectator, from_all)):
            assert not card_ids(payload) & hidden, f"{sorted(card_ids(payload) & hidden)} after {len(moves)} moves"
            assert str(SEED) not in json.dumps(payload)
        assert "hands" not in mine["view"] and spectator["view"]["hand"] is None
        if moves:
            assert not card_ids(event_payloads(client, match_id, len(moves))) & from_all
        legal = [a["id"] for a in mine["legal_actions"]]
        reply = client.post(f"/api/matches/{match_id}/moves", json={"action": rng.choice(legal), "ply": mine["ply"]},
                            headers=me)
        assert reply.status_code == 200, reply.text
        made = [m["action"] for m in reply.json()["made"]]
        after = hidden_cards(moves + made, 1)
        if after is not None:
            assert not card_ids(reply.json()) & after
        turns += 1
    assert turns == 8
    # once the deal is over every hand is shown, with the scoring rule explained
    result = client.get(f"/api/matches/{match_id}", headers=me).json()["view"]["last_deal"]
    assert [len(h) for h in result["hands"]] == [8] * 4 and result["explain"] and sum(result["points"]) == 0


def test_a_card_not_following_suit_is_refused_with_the_reason(client):
    for seed in range(1, 40):
        match_id, tokens = new_match(client, "queen_of_spades", SEATS, seed=seed, options=OPTIONS)
        view = client.get(f"/api/matches/{match_id}", headers=tokens[1]).json()
        legal = {a["id"][5:] for a in view["legal_actions"]}
        wrong = [c for c in view["view"]["hand"] if c not in legal]
        if wrong:
            break
    else:
        raise AssertionError("no deal where the person must follow suit")
    before = client.get(f"/api/matches/{match_id}", headers=tokens[1]).json()
    r = client.post(f"/api/matches/{match_id}/moves", json={"action": f"play:{wrong[0]}", "ply": view["ply"]},
                    headers=tokens[1])
    assert r.status_code == 409 and "you must follow" in r.json()["detail"], r.text
    suit = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}[view["view"]["led"]]
    assert suit in r.json()["detail"]
    others = {c for c in CARD_IDS if c not in view["view"]["hand"] and c not in view["view"]["played"]}
    r = client.post(f"/api/matches/{match_id}/moves", json={"action": f"play:{sorted(others)[0]}", "ply": view["ply"]},
                    headers=tokens[1])
    assert r.status_code == 409 and "you do not hold" in r.json()["detail"]
    for bad in ("play:ZZ", "play:", "draw", "play:QS:uno"):  # no action of the game: 422 (issue 26)
        r = client.post(f"/api/matches/{match_id}/moves", json={"action": bad, "ply": view["ply"]}, headers=tokens[1])
        assert r.status_code == 422, (bad, r.status_code)
    assert client.get(f"/api/matches/{match_id}", headers=tokens[1]).json() == before
