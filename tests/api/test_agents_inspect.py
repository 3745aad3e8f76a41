"""The inspect capability: an agent whose spec declares an ``Inspector`` shows what it holds at
GET /api/agents/{game}/{agent}/inspect (MENACE: its matchboxes; /boxes is the same under its
first name; Harel: its Q-table); any other agent answers 404 with a reason."""
import pytest

from agents.catalog import agent_specs
from agents.tictactoe import trained_table
from agents.tictactoe.menace import Menace, box_positions
from agents.tictactoe.symmetry import canonical, render
from agents.yaniv import trained_packed
from agents.yaniv.qtable import decode_key

BASE = "/api/agents/tictactoe"


def test_inspect_and_boxes_answer_the_same(client):
    for query in ("", "?mark=O", "?position=....X....", "?position=X.......O&mark=O"):
        inspected = client.get(f"{BASE}/menace-live/inspect{query}")
        assert inspected.status_code == 200, inspected.text
        boxes = client.get(f"{BASE}/menace-live/boxes{query}").json()
        # /boxes keeps its first answer's fields (no "game"; a single box names no agent)
        assert {k: v for k, v in inspected.json().items() if k not in ("agent", "game")} == \
            {k: v for k, v in boxes.items() if k != "agent"}
        assert ("agent" in boxes) == ("position" not in query)
    everything = client.get(f"{BASE}/menace-live/inspect?mark=O").json()
    assert everything["agent"] == "menace-live" and everything["mark"] == "O"
    assert everything["count"] == len(everything["boxes"]) == len(box_positions(2))


def test_a_box_shows_the_beads_of_the_position_as_given(client):
    menace = Menace(trained_table())
    position = "X.......O"  # not canonical: its box is a rotation or reflection of it
    box = client.get(f"{BASE}/menace-trained/inspect", params={"position": position}).json()
    canon, perm = canonical(tuple(".XO".index(c) for c in position))
    assert box["box"] == render(canon) != position and box["position"] == position
    assert box["beads"][0] is None and box["beads"][8] is None  # taken cells
    colours = menace.box(canon)[2]
    for group, key, count in colours:
        for cell in group:
            assert box["beads"][perm[cell]] == count == trained_table().get(key, count)
    assert box["total"] == sum(count for _, _, count in colours) and box["colours"] == len(colours)


@pytest.mark.parametrize("query, status, words", [
    ({"position": "OOO......"}, 404, "no box"),
    ({"position": "abc"}, 422, "nine characters"),
    ({"mark": "Z"}, 422, "X or O"),
    ({"colour": "red"}, 422, "reads position, mark"),
])
def test_queries_it_cannot_answer_get_a_reason(client, query, status, words):
    r = client.get(f"{BASE}/menace-live/inspect", params=query)
    assert r.status_code == status and words in r.json()["detail"], r.text


def test_an_agent_without_an_inspector_answers_404(client):
    for path in (f"{BASE}/perfect/inspect", f"{BASE}/perfect/boxes", "/api/agents/uno/random/inspect"):
        r = client.get(path)
        assert r.status_code == 404 and "offers nothing to inspect" in r.json()["detail"], r.text
    assert client.get(f"{BASE}/nobody/inspect").status_code == 404
    assert client.get("/api/agents/chess/menace-live/inspect").status_code == 404


def test_the_agent_description_says_what_it_can_inspect(client):
    for game in ("tictactoe", "uno"):
        described = {a["id"]: a["inspect"] for a in client.get("/api/agents", params={"game": game}).json()}
        for s in agent_specs(game):
            expected = None if s.inspect is None else {"params": list(s.inspect.params), "about": s.inspect.about}
            assert described[s.id] == expected
    inspectable = {a["id"] for a in client.get("/api/agents", params={"game": "tictactoe"}).json() if a["inspect"]}
    assert inspectable == {"menace-beginner", "menace-live", "menace-trained"}


def test_harel_shows_its_values_for_a_state_as_it_reads_them(client):
    table = trained_packed()
    key = decode_key(int(table.keys[len(table.keys) // 2]), table.slots)
    state, code = key.split(":")
    shown = client.get("/api/agents/yaniv/harel/inspect", params={"state": state}).json()
    assert shown["agent"] == "harel" and shown["state"] == state
    assert shown["values"][code] == pytest.approx(table.get(key))
    assert shown["learned"] == sum(v is not None for v in shown["values"].values()) >= 1
    assert set(shown["values"]) >= {"Y", "p" + state[-2], "s" + state[-2]}
    assert client.get("/api/agents/yaniv/harel/inspect").json()["values"] == len(table)
    live = client.get("/api/agents/yaniv/harel-live/inspect", params={"state": state}).json()
    assert live["learned"] == 0 and set(live["values"].values()) == {None}  # it starts knowing nothing
    for bad in ("K0003", "00035", "0003X5", "5"):
        r = client.get("/api/agents/yaniv/harel/inspect", params={"state": bad})
        assert (r.status_code == 422) == (bad != "00035"), (bad, r.text)
