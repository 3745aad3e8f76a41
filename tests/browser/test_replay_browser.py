"""Stepping through a replay shows, at each step, exactly the table of that moment: for every game a
match played to its end (one deal), opened by a spectator (every hand shown once it is over), stepped
through move by move and back again, and compared at each step with the API's replay: the board and
MENACE's beads (noughts and crosses), the hands, the racks, the piles and the trick; the status names
the step and the thinking panel shows the last AI move up to it (none before the first)."""
import json
import urllib.request

import pytest
from playwright.sync_api import expect

MAX_STEPS = 90  # stepped one by one from the start (then the last ones, from the end backwards)
SEATS = {"queen_of_spades": 4, "yaniv": 3}

# What each game's board shows, read from the page: {"cells": ..., "hands": {seat: [cards]}, ...}
READ = {
    "tictactoe": """() => ({
        cells: [...document.querySelectorAll('#board .ttt-cell')].map((c) => c.querySelector('.mark').textContent),
        beads: [...document.querySelectorAll('#board .ttt-cell')].filter((c) => c.querySelector('.beads')).map((c) => Number(c.dataset.cell)),
        ring: [...document.querySelectorAll('#board .ttt-cell.last')].map((c) => Number(c.dataset.cell)) })""",
    "uno": """() => ({
        hands: Object.fromEntries([...document.querySelectorAll('#board .uno-seat')].map((s) => [s.dataset.seat,
            [...s.querySelectorAll('.fan [data-card]')].map((c) => c.dataset.card)])),
        top: document.querySelector('#board .uno-discard [data-card]').dataset.card })""",
    "racko": """() => ({
        hands: Object.fromEntries([...document.querySelectorAll('#board .rk-others .rk-seat')].map((s) => [s.dataset.seat,
            [...s.querySelectorAll('.rk-chip')].map((c) => Number(c.dataset.card))])),
        top: document.querySelector('#board .rk-discard')?.dataset.card ?? null })""",
    "yaniv": """() => ({
        hands: Object.fromEntries([...document.querySelectorAll('#board .yv-seat:not(.out)')].map((s) => [s.dataset.seat,
            [...s.querySelectorAll('.yv-row [data-card]')].map((c) => c.dataset.card)])),
        top: [...document.querySelectorAll('#board .yv-discard [data-card]')].map((c) => c.dataset.card) })""",
    "queen_of_spades": """() => ({
        hands: Object.fromEntries([...document.querySelectorAll('#board .qs-seat')].map((s) => [s.dataset.seat,
            [...s.querySelectorAll('.qs-row [data-card]')].map((c) => c.dataset.card)])),
        top: [...document.querySelectorAll('#board .qs-trick [data-card]')].map((c) => c.dataset.card).sort() })""",
}


def expected(game: str, view: dict, move: dict | None) -> dict:
    """What the board must show for ``view``, the table after ``move`` (None: the deal)."""
    if game == "tictactoe":
        e = move and move.get("explanation")
        beads = e is not None and e.get("label") == "beads"
        return {"cells": view["cells"],
                "beads": sorted(int(a.split(":")[1]) for a in e["values"]) if beads else [],
                "ring": [int(move["action"].split(":")[1])] if e else []}  # the AI's chosen cell
    players = range(view["players"])
    if game == "uno":
        return {"hands": {str(s): view["hands"][s] for s in players}, "top": view["top"]}
    if game == "racko":
        return {"hands": {str(s): view["racks"][s] for s in players}, "top": view["discard_top"] and str(view["discard_top"])}
    if game == "yaniv":
        return {"hands": {str(s): view["hands"][s] for s in players if s not in view["eliminated"]},
                "top": view["discard"]["cards"]}
    trick = view["trick"] or (view["tricks_done"][-1]["plays"] if view["tricks_done"] else [])
    return {"hands": {str(s): view["hands"][s] for s in players}, "top": sorted(p["card"] for p in trick)}


def call(server: str, path: str, body: dict | None = None) -> dict:
    request = urllib.request.Request(server + path, None if body is None else json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    return json.loads(urllib.request.urlopen(request, timeout=30).read())


def watched_to_the_end(page, server: str, game: str) -> str:
    """An AI-only match of one deal (MENACE in noughts and crosses), watched on its page (which
    moves it on) to its end."""
    first = {"type": "agent", "agent": "menace-live"} if game == "tictactoe" else {"type": "agent", "level": 2}
    others = [{"type": "agent", "level": 1}] * (SEATS.get(game, 2) - 1)
    options = (call(server, f"/api/games/{game}").get("lengths") or {}).get("one deal", {})
    if game == "racko":
        options = {**options, "rack_size": 5}
    made = call(server, "/api/matches", {"game": game, "seats": [first, *others], "options": options,
                                         "delay_ms": 0, "seed": 11})
    page.goto(f"/play/{made['id']}")
    expect(page.get_by_role("button", name="Replay")).to_be_visible(timeout=120_000)
    return made["id"]


@pytest.mark.parametrize("game", list(READ))
def test_each_replay_step_shows_that_moment(page, server, game):
    match = watched_to_the_end(page, server, game)
    replay = call(server, f"/api/matches/{match}/replay")
    moves = replay["moves"]
    names = [s["display_name"] for s in replay["seats"]]
    page.get_by_role("button", name="Replay").click()
    status = page.locator("#status")
    expect(status).to_have_text("Replay: the deal")
    forward = list(range(min(len(moves), MAX_STEPS) + 1))
    steps = forward + list(range(forward[-1] - 1, max(-1, forward[-1] - 6), -1))  # a few back too
    shown = 0
    for k in steps:
        if k != shown:
            page.get_by_role("button", name="next move" if k > shown else "previous move").click()
            shown = k
        view, move = (replay["start"], None) if k == 0 else (moves[k - 1]["view"], moves[k - 1])
        if k:
            expect(status).to_contain_text(f"Replay {k}/{len(moves)}: {names[move['seat']]} ")
        else:
            expect(status).to_have_text("Replay: the deal")
        assert page.evaluate(READ[game]) == expected(game, view, move), f"step {k} of {len(moves)}"
        # the thinking panel: the last AI move up to this step
        last = next((m for m in reversed(moves[:k]) if m.get("explanation")), None)
        head = page.locator("#thinking").inner_text()
        assert (f"{names[last['seat']]}'s move" in head) if last else ("No AI has moved yet" in head), f"step {k}: {head}"
    if len(moves) > MAX_STEPS:  # the end, from the slider
        page.get_by_role("slider", name="move").fill(str(len(moves)))
        assert page.evaluate(READ[game]) == expected(game, moves[-1]["view"], moves[-1])


def test_a_person_against_menace_sees_its_beads_only_after_its_moves(page, server):
    """The case that went wrong: the person's own moves and the deal show no beads, and MENACE's
    ring is on the cell it chose at that step, not the last one of the game."""
    made = call(server, "/api/matches", {"game": "tictactoe", "seed": 3,
                                         "seats": [{"type": "human", "name": "Ann"}, {"type": "agent", "agent": "menace-live"}]})
    token = made["tokens"]["0"]
    def mine(path, body=None):
        request = urllib.request.Request(server + path, None if body is None else json.dumps(body).encode(),
                                         {"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
        return json.loads(urllib.request.urlopen(request, timeout=30).read())
    view = mine(f"/api/matches/{made['id']}")
    while view["status"] != "finished":
        view = mine(f"/api/matches/{made['id']}/moves", {"action": view["legal_actions"][0]["id"], "ply": view["ply"]})
    replay = call(server, f"/api/matches/{made['id']}/replay")
    page.goto(f"/play/{made['id']}")
    page.get_by_role("button", name="Replay").click()
    status = page.locator("#status")
    for k in range(len(replay["moves"]) + 1):
        if k:
            page.get_by_role("button", name="next move").click()
        move = replay["moves"][k - 1] if k else None
        # wait for the step to be drawn before reading the board
        expect(status).to_contain_text(f"Replay {k}/" if k else "Replay: the deal")
        board = page.evaluate(READ["tictactoe"])
        assert board == expected("tictactoe", move["view"] if move else replay["start"], move), f"step {k}"
        assert bool(board["beads"]) == bool(board["ring"]) == bool(move and move["seat"] == 1), f"step {k}: {board}"
