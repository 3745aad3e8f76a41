"""Friends at one table: invite links, a table that waits for them, the creator starting with an
AI in an empty seat, and hidden information between people exactly as between a person and an AI,
the creator included: an invite's token is good only for joining (the joiner gets the seat's own)."""
import json
import random
import re
import threading
import time
from dataclasses import replace

import pytest

from app.db import get_engine, session_factory
from app.services import match_store
from app.services.errors import Conflict
from app.services.match_tokens import hash_token, new_token
from engine import get_game
from tests.api.test_uno_hidden import assert_private
from tests.conftest import event_payloads

UNO = get_game("uno")
OPTIONS = {"target_score": 30}  # a short match: a deal or two


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def invite_token(link):
    """The token an invite link carries in its fragment (``/play/ID#join=SEAT.TOKEN``)."""
    return re.fullmatch(r"/play/[0-9a-f]{32}#join=\d+\.([\w-]+)", link).group(1)


def create(client, game, seats, **extra):
    """The creation's answer, and by seat the headers of each person's token and each friend's
    invite token (which ``join`` trades for the seat's own)."""
    r = client.post("/api/matches", json={"game": game, "seats": seats, **extra})
    assert r.status_code == 201, r.text
    data = r.json()
    assert not set(data["tokens"]) & set(data.get("invites", {}))  # a friend's seat has only its link
    secrets = {**data["tokens"], **{k: invite_token(v) for k, v in data.get("invites", {}).items()}}
    return data, {int(k): bearer(v) for k, v in secrets.items()}


def join(client, match_id, invite, name):
    """A friend joins with the invite's headers; the answer and the headers of the seat's new token."""
    r = client.post(f"/api/matches/{match_id}/join", json={"name": name}, headers=invite)
    assert r.status_code == 200, r.text
    assert r.json()["token"] != invite["Authorization"][7:]
    return r.json(), bearer(r.json()["token"])


def test_a_friend_joins_by_the_invite_link_and_the_table_waits_until_then(client):
    data, tokens = create(client, "tictactoe", [{"type": "human", "name": "Ann"}, {"type": "friend"}])
    match_id = data["id"]
    assert data["status"] == "waiting"
    assert list(data["tokens"]) == ["0"]  # the friend's seat: only its link, the token in the fragment
    assert data["invites"]["1"] == f"/play/{match_id}#join=1.{tokens[1]['Authorization'][7:]}"
    view = client.get(f"/api/matches/{match_id}", headers=tokens[0]).json()
    assert view["status"] == "waiting" and view["legal_actions"] == []
    assert [(s["display_name"], s["invite"]) for s in view["seats"]] == [("Ann", None), ("Friend", "open")]
    r = client.post(f"/api/matches/{match_id}/moves", json={"action": "cell:4"}, headers=tokens[0])
    assert r.status_code == 409 and "waits for the invited players" in r.json()["detail"]
    assert client.post(f"/api/matches/{match_id}/join", json={"name": "Bo"}, headers=tokens[0]).status_code == 409
    assert client.post(f"/api/matches/{match_id}/join", json={"name": "Bo"}).status_code == 401
    assert client.post(f"/api/matches/{match_id}/join", json={"name": "x" * 33}, headers=tokens[1]).status_code == 422
    assert client.post(f"/api/matches/{match_id}/join", json={"name": "\x07"}, headers=tokens[1]).status_code == 422
    seats_event = []
    joined = client.post(f"/api/matches/{match_id}/join", json={"name": "Bo"}, headers=tokens[1])
    assert joined.status_code == 200, joined.text
    assert joined.json()["status"] == "active" and joined.json()["seat"] == 1
    assert [s["display_name"] for s in joined.json()["seats"]] == ["Ann", "Bo"]
    bo = bearer(joined.json()["token"])
    for holder in (tokens[1], bo):  # the invite's token, dead but for this, and the seat's own
        again = client.post(f"/api/matches/{match_id}/join", json={"name": "Cy"}, headers=holder)
        assert again.status_code == 409 and "taken" in again.json()["detail"]
    assert client.post(f"/api/matches/{match_id}/moves", json={"action": "cell:4", "ply": 0},
                       headers=tokens[0]).status_code == 200
    seats_event = event_payloads(client, match_id, 1, headers=bo)
    assert seats_event[0]["move"]["action"] == "cell:4" and seats_event[0]["match"]["legal_actions"]


def test_a_waiting_stream_hears_the_friend_join(client):
    data, tokens = create(client, "tictactoe", [{"type": "friend"}, {"type": "human", "name": "Ann"}])
    heard = []

    def listen():
        with client.stream("GET", f"/api/matches/{data['id']}/events", headers=tokens[1]) as stream:
            for line in stream.iter_lines():
                if line.startswith("data: "):
                    heard.append(json.loads(line[6:]))
                    if heard[-1]["match"]["status"] == "active":
                        return

    reader = threading.Thread(target=listen, daemon=True)
    reader.start()
    time.sleep(0.5)
    assert client.post(f"/api/matches/{data['id']}/join", json={"name": "Bo"}, headers=tokens[0]).status_code == 200
    reader.join(20)
    assert not reader.is_alive(), "the join did not reach the waiting stream"
    assert heard[0]["match"]["status"] == "waiting"  # a waiting table's stream first tells who is there
    assert heard[-1]["match"]["seats"][0]["display_name"] == "Bo"


def test_the_creator_starts_with_an_ai_in_the_empty_seat(client):
    seats = [{"type": "human", "name": "Ann"}, {"type": "friend"}, {"type": "friend", "name": "Cy"}]
    data, tokens = create(client, "yaniv", seats, seed=3)
    match_id = data["id"]
    assert set(data["invites"]) == {"1", "2"}
    joined, bo = join(client, match_id, tokens[1], "Bo")
    assert joined["status"] == "waiting"
    r = client.post(f"/api/matches/{match_id}/start", json={"levels": {"2": 2}}, headers=bo)
    assert r.status_code == 403  # only the creator
    r = client.post(f"/api/matches/{match_id}/start", json={"levels": {}}, headers=tokens[0])
    assert r.status_code == 422 and "each empty seat" in r.json()["detail"]
    r = client.post(f"/api/matches/{match_id}/start", json={"levels": {"2": 2}}, headers=tokens[0])
    assert r.status_code == 200, r.text
    view = r.json()
    assert view["status"] == "active"
    assert [(s["type"], s["level"], s["invite"]) for s in view["seats"]][2] == ("agent", 2, None)
    assert client.get(f"/api/matches/{match_id}", headers=tokens[2]).status_code == 403  # the old link is dead
    assert client.post(f"/api/matches/{match_id}/start", json={"levels": {}}, headers=tokens[0]).status_code == 409


def test_friends_seats_need_a_creator_and_no_level(client):
    r = client.post("/api/matches", json={"game": "tictactoe", "seats": [{"type": "friend"}, {"type": "agent", "level": 1}]})
    assert r.status_code == 422 and "creator" in r.json()["detail"]
    r = client.post("/api/matches", json={"game": "tictactoe", "seats": [{"type": "friend", "level": 1}, {"type": "human"}]})
    assert r.status_code == 422


def test_two_people_and_an_ai_play_uno_to_the_end_and_never_see_each_others_hand(client):
    seed = 515_151
    seats = [{"type": "human", "name": "Ann"}, {"type": "agent", "agent": "offensive"}, {"type": "friend"}]
    data, tokens = create(client, "uno", seats, seed=seed, options=OPTIONS)
    match_id = data["id"]
    view, tokens[2] = join(client, match_id, tokens[2], "Bo")
    view.pop("token")
    state, applied, seat_of_ply, deal_of_ply = UNO.new_match(3, seed, OPTIONS), 0, {}, {}
    rng = random.Random(seed)

    def catch_up(payload):
        nonlocal state, applied
        for m in payload["moves"]:
            if m["ply"] == applied:
                deal_of_ply[m["ply"]] = state.deal
                state = UNO.apply_id(state, m["action"])
                seat_of_ply[m["ply"]] = m["seat"]
                applied += 1

    catch_up(view)
    turns = {0: 0, 2: 0}
    while view["status"] == "active":
        for person in (0, 2):
            mine = client.get(f"/api/matches/{match_id}", headers=tokens[person]).json()
            catch_up(mine)
            assert mine["view"] == UNO.observe(state, person)  # the engine's view of that seat, nothing more
            assert_private(mine, state, person, seed, seat_of_ply, deal_of_ply)
        mover = view["to_move"]
        assert mover in (0, 2)
        legal = [a["id"] for a in client.get(f"/api/matches/{match_id}", headers=tokens[mover]).json()["legal_actions"]]
        plays = [a for a in legal if a.startswith("play:")]
        r = client.post(f"/api/matches/{match_id}/moves", headers=tokens[mover],
                        json={"action": rng.choice(plays or legal), "ply": view["ply"]})
        assert r.status_code == 200, r.text
        view = r.json()
        catch_up(view)
        if view["status"] == "active":
            assert_private(view, state, mover, seed, seat_of_ply, deal_of_ply)
        turns[mover] += 1
    assert turns[0] >= 10 and turns[2] >= 10
    assert view["result"] is not None and len(state.hands) == 3
    for person in (0, 2):  # the stream each person followed carries only their own view
        events = event_payloads(client, match_id, 12, headers=tokens[person])
        assert all(e["match"]["seat"] == person for e in events if "match" in e)


def test_a_rematch_invites_the_other_people_again(client):
    data, tokens = create(client, "tictactoe", [{"type": "human", "name": "Ann"}, {"type": "friend"}])
    _, bo = join(client, data["id"], tokens[1], "Bo")
    assert client.post(f"/api/matches/{data['id']}/resign", headers=bo).status_code == 200
    r = client.post(f"/api/matches/{data['id']}/rematch", json={"swap": True}, headers=tokens[0])
    assert r.status_code == 201, r.text
    again = r.json()
    assert again["status"] == "waiting" and set(again["invites"]) == {"0"}  # Bo now plays X
    seats = client.get(f"/api/matches/{again['id']}").json()["seats"]
    assert [(s["display_name"], s["invite"]) for s in seats] == [("Bo", "open"), ("Ann", None)]


def assert_refused(client, match_id, headers):
    """Every route that takes a seat's token answers ``headers`` as it answers an unknown token."""
    url = f"/api/matches/{match_id}"
    assert client.get(url, headers=headers).status_code == 403
    assert client.post(f"{url}/moves", json={"action": "cell:0"}, headers=headers).status_code == 403
    assert client.post(f"{url}/resign", headers=headers).status_code == 403
    assert client.get(f"{url}/events", headers=headers).status_code == 403
    assert client.get(f"{url}/replay", headers=headers).status_code == 403
    assert client.get(f"{url}/hint", headers=headers).status_code == 403
    assert client.post(f"{url}/rematch", json={}, headers=headers).status_code == 403


def test_an_invite_token_only_joins_and_the_joiner_alone_holds_the_seat(client):
    data, tokens = create(client, "tictactoe", [{"type": "human", "name": "Ann"}, {"type": "friend"}], hints=True)
    match_id, url = data["id"], f"/api/matches/{data['id']}"
    assert client.get(url, headers=tokens[1]).json()["seat"] == 1  # the link opens the seat's page to join
    joined, bo = join(client, match_id, tokens[1], "Bo")
    assert joined["seat"] == 1 and joined["status"] == "active"
    assert_refused(client, match_id, tokens[1])  # the creator's copy of the link sees and plays nothing
    assert client.get(url, headers=bo).json()["seat"] == 1
    assert client.post(f"{url}/moves", json={"action": "cell:4", "ply": 0}, headers=tokens[0]).status_code == 200
    assert client.get(f"{url}/hint", headers=bo).status_code == 200
    assert client.post(f"{url}/moves", json={"action": "cell:0", "ply": 1}, headers=bo).status_code == 200
    heard = event_payloads(client, match_id, 2, headers=bo)
    assert [e["match"]["seat"] for e in heard if "match" in e] == [1]
    assert client.post(f"{url}/resign", headers=bo).status_code == 200
    assert client.get(f"{url}/replay", headers=bo).status_code == 200
    assert client.get(f"{url}/analysis", headers=bo).status_code in (200, 202)
    assert_refused(client, match_id, tokens[1])  # finished too
    assert client.get(f"{url}/analysis", headers=tokens[1]).status_code == 403


def test_uno_the_creator_cannot_see_or_play_the_friends_hand_after_the_join(client):
    seats = [{"type": "human", "name": "Ann"}, {"type": "friend"}, {"type": "agent", "level": 1}]
    data, tokens = create(client, "uno", seats, seed=7, options=OPTIONS)
    url = f"/api/matches/{data['id']}"
    _, bo = join(client, data["id"], tokens[1], "Bo")
    assert client.get(url, headers=bo).json()["seat"] == 1
    r = client.get(url, headers=tokens[1])
    assert r.status_code == 403 and "hand" not in r.text
    for _ in range(20):  # Ann (and the AI) play until it is Bo's turn
        ann = client.get(url, headers=tokens[0]).json()
        if ann["to_move"] != 0:
            break
        client.post(f"{url}/moves", json={"action": ann["legal_actions"][0]["id"], "ply": ann["ply"]}, headers=tokens[0])
    bos = client.get(url, headers=bo).json()
    assert bos["to_move"] == 1 and bos["legal_actions"]
    r = client.post(f"{url}/moves", json={"action": bos["legal_actions"][0]["id"], "ply": bos["ply"]}, headers=tokens[1])
    assert r.status_code == 403
    assert client.post(f"{url}/resign", headers=tokens[1]).status_code == 403
    assert client.post(f"{url}/moves", json={"action": bos["legal_actions"][0]["id"], "ply": bos["ply"]},
                       headers=bo).status_code == 200


def test_a_stream_opened_with_the_invite_token_closes_when_the_friend_joins(client):
    data, tokens = create(client, "tictactoe", [{"type": "human", "name": "Ann"}, {"type": "friend"}])
    heard, closed = [], threading.Event()

    def listen():
        with client.stream("GET", f"/api/matches/{data['id']}/events", headers=tokens[1]) as stream:
            for line in stream.iter_lines():
                if line.startswith("data: "):
                    heard.append(json.loads(line[6:]))
        closed.set()

    reader = threading.Thread(target=listen, daemon=True)
    reader.start()
    time.sleep(0.5)
    _, bo = join(client, data["id"], tokens[1], "Bo")
    assert closed.wait(20), "the invite's stream went on after the join"
    assert [h["match"]["status"] for h in heard] == ["waiting"]  # nothing of the seat once joined


def test_a_rematchs_invites_give_the_caller_nothing_once_joined(client):
    data, tokens = create(client, "tictactoe", [{"type": "human", "name": "Ann"}, {"type": "friend"}])
    _, bo = join(client, data["id"], tokens[1], "Bo")
    assert client.post(f"/api/matches/{data['id']}/resign", headers=bo).status_code == 200
    r = client.post(f"/api/matches/{data['id']}/rematch", json={}, headers=bo)  # the friend asks this time
    assert r.status_code == 201, r.text
    again = r.json()
    assert list(again["tokens"]) == ["1"] and list(again["invites"]) == ["0"]
    ann_invite = bearer(invite_token(again["invites"]["0"]))
    joined, ann = join(client, again["id"], ann_invite, "Ann")
    assert joined["seat"] == 0 and joined["status"] == "active"
    assert_refused(client, again["id"], ann_invite)  # Bo's copy of Ann's link
    url = f"/api/matches/{again['id']}"
    assert client.post(f"{url}/moves", json={"action": "cell:4", "ply": 0}, headers=ann).status_code == 200
    assert client.get(url, headers=bearer(again["tokens"]["1"])).json()["seat"] == 1


def test_two_joins_racing_for_one_seat_cannot_both_take_it(client, db_url):
    """The second of two joins that both read the seat open stores nothing (409): the first
    joiner's token stays the seat's."""
    data, tokens = create(client, "tictactoe", [{"type": "human", "name": "Ann"}, {"type": "friend"}])
    with session_factory(get_engine(db_url))() as session:
        before = match_store.read(session, data["id"])  # as the slower join read it
        _, bo = join(client, data["id"], tokens[1], "Bo")
        cy = replace(before.seats[1], name="Cy", invite="taken", token_hash=hash_token(new_token()))
        with pytest.raises(Conflict):
            match_store.fill_seats(session, before, [cy])
    view = client.get(f"/api/matches/{data['id']}", headers=bo).json()
    assert view["seat"] == 1 and view["seats"][1]["display_name"] == "Bo"
