"""When an AI's reasoning is shown at a card table: while a deal is on, the others (the person,
a spectator) are given only the move made and the AI's rule in words, in the match's view, its
replay and its event stream; once the deal has ended the whole of it (every value, every option)
is shown there, as the end-of-deal screen shows the hands. An AI-only match shows every hand to
those watching, and so the whole reasoning at once."""
import random

import pytest

from agents.catalog import spec
from engine import get_game
from tests.conftest import event_payloads, new_match

ME = {"type": "human", "name": "Ann"}
# game: (its AIs, which give values; options that end the first deal soon but not the match)
GAMES = {
    "uno": (["tactician", "offensive"], {}),
    "racko": (["kyle"], {"rack_size": 5, "max_turns": 60}),
    "queen_of_spades": (["rules", "network", "network-poor"], {"deals": 2}),
    "yaniv": (["harel"], {}),
}
SEED = 31


def explanations(payload, path=()):
    """Every (ply, action, explanation) in a payload: the moves' and ``last_explanation``."""
    if isinstance(payload, dict):
        for key, value in payload.items():
            if key == "explanation" and value:
                yield payload["ply"], payload["action"], value
            elif key == "last_explanation" and value:
                yield value["ply"], value["action"], value
            else:
                yield from explanations(value)
    elif isinstance(payload, list):
        for value in payload:
            yield from explanations(value)


def deals_by_ply(game, options, seats: int, actions: list[str]) -> tuple[list[int], int]:
    """The deal each move was made in, and the deal being played after them."""
    state, deals = game.new_match(seats, SEED, game.resolve_options(options)), []
    for action in actions:
        deals.append(game.deal_of(state))
        state = game.apply_id(state, action)
    return deals, game.deal_of(state)


def check(payloads, game_name, deal_of, deal_now, seat_of) -> int:
    """Every AI reasoning in ``payloads`` is withheld if made in the deal being played, whole
    otherwise; returns how many whole ones gave values."""
    valued = 0
    for payload in payloads:
        for ply, action, e in explanations(payload):
            if seat_of[ply] == 0:
                continue
            if deal_of[ply] == deal_now:  # this deal: the move made and the rule, nothing else
                assert e["values"] == {} and list(e["labels"]) == [action] and e["withheld"], e
                agent = GAMES[game_name][0][seat_of[ply] - 1]
                assert e["reason"] == spec(game_name, agent).description and "deal ends" in e["note"]
            else:  # an ended deal: all of it
                assert "withheld" not in e and e["deal"] == deal_of[ply], e
                valued += bool(e["values"])
    return valued


@pytest.mark.parametrize("game_name", GAMES)
def test_an_ais_reasoning_is_withheld_while_its_deal_is_on_and_shown_whole_after(client, game_name):
    agents, options = GAMES[game_name]
    game = get_game(game_name)
    match_id, tokens = new_match(client, game_name, [ME] + [{"type": "agent", "agent": a} for a in agents],
                                 options=options, seed=SEED)
    rng, streamed = random.Random(3), False
    for _ in range(2_000):
        mine = client.get(f"/api/matches/{match_id}", headers=tokens[0]).json()
        assert mine["status"] == "active", "the match ended before its second deal"
        replay = client.get(f"/api/matches/{match_id}/replay", headers=tokens[0]).json()
        actions = [m["action"] for m in replay["moves"]]
        seat_of = [m["seat"] for m in replay["moves"]]
        deal_of, deal_now = deals_by_ply(game, options, len(agents) + 1, actions)
        payloads = [mine, client.get(f"/api/matches/{match_id}").json(), replay]
        if deal_now == 0 and not streamed and any(seat_of):  # the stream, once an AI has moved
            payloads.append(event_payloads(client, match_id, len(actions)))
            streamed = True
        if deal_now > 0:
            break
        check(payloads, game_name, deal_of, deal_now, seat_of)
        legal = [a["id"] for a in mine["legal_actions"]]
        action = rng.choice([a for a in legal if a.startswith("play:")] or legal)
        r = client.post(f"/api/matches/{match_id}/moves", json={"action": action, "ply": mine["ply"]},
                        headers=tokens[0])
        assert r.status_code == 200, r.text
        check([r.json()], game_name, *deals_by_ply(game, options, len(agents) + 1, actions + [
            m["action"] for m in r.json()["made"]]), seat_of + [m["seat"] for m in r.json()["made"]])
    else:
        raise AssertionError("the first deal did not end")
    assert streamed, "the event stream was never read during the first deal"
    # the deal has ended: its moves' reasoning is whole in the view, the replay and the stream
    payloads.append(event_payloads(client, match_id, len(actions)))
    assert check(payloads[2:], game_name, deal_of, deal_now, seat_of) > 0  # the replay and the stream
    recent = [p for p, _, _ in explanations(payloads[0]["moves"]) if deal_of[p] < deal_now and seat_of[p]]
    assert not recent or check(payloads[:1], game_name, deal_of, deal_now, seat_of) > 0  # the view's log tail


def test_an_ai_only_match_shows_the_whole_reasoning_during_the_deal(client):
    r = client.post("/api/matches", json={"game": "uno", "seats": [{"type": "agent", "agent": "tactician"}] * 2,
                                          "seed": SEED, "delay_ms": 0})
    assert r.status_code == 201, r.text
    match_id = r.json()["id"]
    events = event_payloads(client, match_id, 6)  # the stream plays the match as it is watched
    view = client.get(f"/api/matches/{match_id}").json()
    assert view["status"] == "active" and view["view"]["hands"]  # those watching see every hand
    shown = [e for payload in (events, view) for _, _, e in explanations(payload)]
    assert shown and not any(e.get("withheld") for e in shown)
    assert any(len(e["values"]) > 1 for e in shown)
