"""Uno's rule options over HTTP: the write-up's preset is offered, accepted and stored as its options."""
from tests.conftest import new_match

HUMAN = {"type": "human", "name": "Ann"}


def test_the_writeup_preset_is_described_accepted_and_stored_in_full(client):
    uno = client.get("/api/games/uno").json()
    assert uno["presets"]["writeup"] == {"play_drawn": False, "reverse_skips_two": False, "rotate_dealer": False,
                                         "first_card_acts": False, "wd4_when": "no_other_card",
                                         "wd4_challenge": False}
    match_id, tokens = new_match(client, "uno", [HUMAN, {"type": "agent", "level": 2}],
                                 options={"preset": "writeup", "target_score": 200})
    view = client.get(f"/api/matches/{match_id}", headers=tokens[0]).json()
    assert {k: view["options"][k] for k in ("play_drawn", "reverse_skips_two", "wd4_when", "target_score")} == {
        "play_drawn": False, "reverse_skips_two": False, "wd4_when": "no_other_card", "target_score": 200}
    r = client.post("/api/matches", json={"game": "uno", "seats": [HUMAN, {"type": "agent", "level": 2}],
                                          "options": {"preset": "house"}})
    assert r.status_code == 422 and "preset" in r.json()["detail"]


def test_the_lobby_offers_the_preset(client):
    page = client.get("/").text
    assert 'class="preset"' in page and '<option value="writeup">writeup</option>' in page
