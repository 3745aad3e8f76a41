"""Rack-O over HTTP: while a deal runs no response, event or page carries another seat's
rack cards (except those everybody saw taken from the discard pile), the deck or its order;
an illegal move answers 409 with the reason and changes nothing.

Cards are plain numbers, so instead of searching text for card names the test replays the
moves with the engine: every view the API sends must be exactly the engine's view for that
viewer (which the invariant sweep shows does not depend on unseen cards), and every number
under a card-carrying key anywhere else in a payload must be a card the viewer has seen.
"""
import json
import random

from engine import get_game
from tests.conftest import event_payloads, new_match

SEED = 31_415_926
OPTIONS = {"rack_size": 8, "target_score": 60}
G = get_game("racko")
CARD_KEYS = {"rack", "racks", "drawn", "discard_top", "discard_pile", "known", "card", "out", "dealt", "deck",
             "cards", "hands"}


def replay(moves: list[str]):
    state = G.new_match(3, SEED, OPTIONS)
    for action_id in moves:
        state = G.apply_id(state, action_id)
    return state


def seen_by(moves: list[str], viewer: int | None) -> set[int]:
    """Every card ``viewer`` has seen so far: its racks and draws, everything that went face up."""
    state = G.new_match(3, SEED, OPTIONS)
    seen: set[int] = set()

    def look(s):
        seen.update(s.discard)
        for p in range(s.players):
            seen.update(c for c in s.known[p] if c)
        if viewer is not None:
            seen.update(s.racks[viewer])
            if s.to_move == viewer and s.drawn:
                seen.add(s.drawn)
        if s.last_result is not None:
            seen.update(c for rack in s.last_result.racks for c in rack)

    look(state)
    for action_id in moves:
        state = G.apply_id(state, action_id)
        look(state)
    return seen


def card_numbers(payload, inside: bool = False) -> set[int]:
    """Every int under a card-carrying key of a JSON payload, except inside the engine views
    (checked whole) and explanations' action ids."""
    out: set[int] = set()
    if isinstance(payload, dict):
        for key, value in payload.items():
            if key in ("view", "start"):
                continue
            out |= card_numbers(value, inside or key in CARD_KEYS)
    elif isinstance(payload, list):
        for value in payload:
            out |= card_numbers(value, inside)
    elif inside and isinstance(payload, int) and not isinstance(payload, bool):
        out.add(payload)
    return out


def keys_in(payload) -> set[str]:
    if isinstance(payload, dict):
        return set(payload).union(*(keys_in(v) for v in payload.values()))
    if isinstance(payload, list):
        return set().union(*(keys_in(v) for v in payload))
    return set()


def views_in(payload, moves: list[str]) -> list[tuple[dict, list[str]]]:
    """Every engine view in a payload with the moves it was seen after: the match's view now,
    the view after each move listed (entries with an ``action``), the replay's start."""
    found = []
    if isinstance(payload, dict):
        for key, value in payload.items():
            if key in ("view", "start") and isinstance(value, dict) and value.get("game") == "racko":
                upto = moves if key == "view" and "action" not in payload else (
                    [] if key == "start" else moves[:payload["ply"] + 1])
                found.append((value, upto))
            else:
                found += views_in(value, moves)
    elif isinstance(payload, list):
        for value in payload:
            found += views_in(value, moves)
    return found


def check(payload, moves: list[str], viewer: int | None) -> None:
    assert str(SEED) not in json.dumps(payload)
    assert not keys_in(payload) & {"deck", "racks", "seed"}
    views = views_in(payload, moves)
    for view, upto in views:
        assert view == json.loads(json.dumps(G.observe(replay(upto), viewer))), (
            f"a view after {len(upto)} moves differs from the engine's")
    leaked = card_numbers(payload) - seen_by(moves, viewer)
    assert not leaked, f"cards {sorted(leaked)} the viewer never saw, after {len(moves)} moves"


def test_no_response_or_event_shows_hidden_cards_while_the_deal_runs(client):
    seats = [{"type": "human", "name": "Ann"}, {"type": "agent", "agent": "kyle"},
             {"type": "agent", "agent": "max"}]
    match_id, tokens = new_match(client, "racko", seats, seed=SEED, options=OPTIONS)
    rng = random.Random(4)
    turns = 0
    while turns < 16:
        mine = client.get(f"/api/matches/{match_id}", headers=tokens[0]).json()
        moves = [m["action"] for m in client.get(f"/api/matches/{match_id}/replay", headers=tokens[0]).json()["moves"]]
        if mine["status"] != "active" or replay(moves).deal > 0:
            break
        check(mine, moves, 0)
        check(client.get(f"/api/matches/{match_id}").json(), moves, None)
        check(client.get(f"/api/matches/{match_id}/replay", headers=tokens[0]).json(), moves, 0)
        page = client.get(f"/play/{match_id}")
        assert page.status_code == 200 and str(SEED) not in page.text and '"racks"' not in page.text
        if moves:
            check(event_payloads(client, match_id, len(moves)), moves, None)
        for move in mine["moves"]:  # the AIs' reasons show no value and no other option in the deal
            e = move["explanation"]
            if e is not None and move["seat"] != 0:
                assert e["values"] == {} and e["labels"] == {move["action"]: move["label"]} and e["withheld"]
                assert "ranges" not in e["note"]
        legal = [a["id"] for a in mine["legal_actions"]]
        reply = client.post(f"/api/matches/{match_id}/moves", json={"action": rng.choice(legal), "ply": mine["ply"]},
                            headers=tokens[0])
        assert reply.status_code == 200, reply.text
        made = [m["action"] for m in reply.json()["made"]]
        if replay(moves + made).deal == 0:
            check(reply.json(), moves + made, 0)
        turns += 1
    assert turns >= 8


def test_illegal_moves_answer_409_with_the_reason_and_change_nothing(client):
    seats = [{"type": "human", "name": "Ann"}, {"type": "agent", "agent": "kyle"}]
    match_id, tokens = new_match(client, "racko", seats, seed=SEED, options=OPTIONS)
    before = client.get(f"/api/matches/{match_id}", headers=tokens[0]).json()
    for action, status, reason in (("place:1", 409, "take a card first"), ("discard", 409, "take a card first"),
                                   ("place:12", 409, "take a card first"),
                                   # no action of the game at all: 422, whatever the state (issue 26)
                                   ("place:0", 422, "not a Rack-O action"), ("draw:pile", 422, "not a Rack-O action"),
                                   ("x" * 100, 422, "not a Rack-O action")):
        r = client.post(f"/api/matches/{match_id}/moves", json={"action": action, "ply": before["ply"]},
                        headers=tokens[0])
        assert r.status_code == status and reason in r.text, (action, r.status_code, r.text)
    r = client.post(f"/api/matches/{match_id}/moves", json={"action": "draw:discard", "ply": before["ply"]},
                    headers=tokens[0])
    assert r.status_code == 200
    held = r.json()
    for action, reason in (("discard", "must go into your rack"), ("draw:deck", "drawn already"),
                           ("place:9", "only 8 slots")):
        r = client.post(f"/api/matches/{match_id}/moves", json={"action": action, "ply": held["ply"]},
                        headers=tokens[0])
        assert r.status_code == 409 and reason in r.text, (action, r.text)
    after = client.get(f"/api/matches/{match_id}", headers=tokens[0]).json()
    assert after["view"] == held["view"] and after["ply"] == held["ply"]
    # someone else's token, or none, cannot move for Ann
    assert client.post(f"/api/matches/{match_id}/moves", json={"action": "place:1"}).status_code in (401, 403)
