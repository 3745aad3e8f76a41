"""Uno over HTTP: while a match is on, no response, event or page shows a person another
seat's cards or the draw pile's order (the engine's views are proven independent of them
by the invariant sweep; this checks that the server adds nothing)."""
import json
import random

from engine import get_game
from engine.uno.cards import CARD_IDS
from tests.conftest import new_match, event_payloads

G = get_game("uno")
OPTIONS = {"target_score": 120}
SECRET_KEYS = {"pile", "seed", "state", "wd4_bad", "token_hash", "invite_hash"}


def walk(node, path=()):
    """Every (path, key, value) of a JSON payload."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield path, key, value
            yield from walk(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from walk(value, (*path, i))


def secrets_of(state, viewer):
    """Text that must not appear: other hands of 3+ cards as sorted id lists, and the draw
    pile's next cards in order (either way round)."""
    out = []
    for seat, hand in enumerate(state.hands):
        if seat != viewer and len(hand) >= 3:
            out.append(json.dumps(sorted(CARD_IDS[c] for c in hand)))
            out.append(json.dumps([CARD_IDS[c] for c in sorted(hand)]))
    pile = [CARD_IDS[c] for c in state.pile]
    if len(pile) >= 4:
        out += [json.dumps(pile[-4:]), json.dumps(pile[-4:][::-1]), json.dumps(pile), json.dumps(pile[::-1])]
    return out


def assert_private(payload, state, viewer, seed, moves_by_ply, deal_of_ply):
    text = json.dumps(payload)
    assert str(seed) not in text
    for secret in secrets_of(state, viewer):
        assert secret not in text, f"{secret} visible to seat {viewer}"
    for path, key, value in walk(payload):
        assert key not in SECRET_KEYS, f"{'/'.join(map(str, path))}/{key} sent to seat {viewer}"
        if key == "hands" and "last_deal" not in path:
            assert isinstance(value, list) and payload_over(payload, path), f"hands at {path} for seat {viewer}"
        if key in ("explanation", "last_explanation") and value:
            ply = value.get("ply", path_ply(payload, path))
            if moves_by_ply[ply] != viewer and deal_of_ply[ply] == state.deal:  # an AI's, in this deal
                assert value["values"] == {} and list(value["labels"]) == [path_action(payload, path, key)], (
                    f"an AI's values or options shown to seat {viewer} during the deal: {value}")


def payload_over(payload, path):
    """Whether the view holding ``path`` shows a finished deal (hands may then be shown)."""
    node = payload
    for step in path:
        node = node[step]
    return bool(node.get("over"))


def path_ply(payload, path):
    node = payload
    for step in path:
        node = node[step]
    return node.get("ply") if isinstance(node, dict) else None


def path_action(payload, path, key):
    """The action of the move whose explanation is at ``path``/``key``."""
    node = payload
    for step in path:
        node = node[step]
    return node[key]["action"] if key == "last_explanation" else node["action"]




def play_match(client, seed, agents):
    seats = [{"type": "human", "name": "Ann"}] + [{"type": "agent", "agent": a} for a in agents]
    match_id, tokens = new_match(client, "uno", seats, seed=seed, options=OPTIONS)
    state = G.new_match(len(seats), seed, OPTIONS)
    rng = random.Random(seed)
    mine = client.get(f"/api/matches/{match_id}", headers=tokens[0]).json()
    seat_of_ply, deal_of_ply = {}, {}
    for m in mine["moves"]:
        deal_of_ply[m["ply"]] = state.deal
        state = G.apply_id(state, m["action"])
        seat_of_ply[m["ply"]] = m["seat"]
    deals, turns = {state.deal}, 0
    while mine["status"] == "active":
        assert mine["view"] == G.observe(state, 0)  # exactly the engine's view, nothing added
        assert G.observe(G.resample_hidden(state, 0, rng), 0) == mine["view"]
        assert_private(mine, state, 0, seed, seat_of_ply, deal_of_ply)
        assert_private(client.get(f"/api/matches/{match_id}").json(), state, None, seed, seat_of_ply, deal_of_ply)
        if turns % 15 == 0:
            assert_private(client.get(f"/api/matches/{match_id}/replay", headers=tokens[0]).json(),
                           state, 0, seed, seat_of_ply, deal_of_ply)
            if seat_of_ply:  # the stream replays the moves made so far, then waits for more
                events = event_payloads(client, match_id, len(seat_of_ply))
                assert_private(events, state, None, seed, seat_of_ply, deal_of_ply)
        legal = [a["id"] for a in mine["legal_actions"]]
        plays = [a for a in legal if a.startswith("play:")]
        reply = client.post(f"/api/matches/{match_id}/moves", headers=tokens[0],
                            json={"action": rng.choice(plays or legal), "ply": mine["ply"]})
        assert reply.status_code == 200, reply.text
        mine = reply.json()
        for m in mine["made"]:
            deal_of_ply[m["ply"]] = state.deal
            state = G.apply_id(state, m["action"])
            seat_of_ply[m["ply"]] = m["seat"]
        deals.add(state.deal)
        if mine["status"] == "active":
            assert_private(mine, state, 0, seed, seat_of_ply, deal_of_ply)
        turns += 1
    return len(deals), turns


def test_no_response_event_or_page_shows_other_hands_or_the_pile(client):
    deals = turns = 0
    for seed, agents in ((424_242_421, ["offensive", "betteroffensive"]), (424_242_422, ["perceptron"]),
                         (424_242_423, ["defensive", "random", "perceptron-hidden"]), (424_242_424, ["dmc", "tactician"])):
        d, t = play_match(client, seed, agents)
        deals, turns = deals + d, turns + t
    assert deals >= 5 and turns >= 60


def test_the_table_page_holds_no_cards(client):
    match_id, tokens = new_match(client, "uno", [{"type": "human", "name": "Ann"},
                                                 {"type": "agent", "agent": "offensive"}], seed=5)
    page = client.get(f"/play/{match_id}")
    assert page.status_code == 200 and match_id in page.text
    assert not [card for card in CARD_IDS if f'"{card}"' in page.text]  # the page fetches views; it holds none
