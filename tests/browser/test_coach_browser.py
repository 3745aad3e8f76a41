"""The coach in the browser: after a noughts-and-crosses game the person blundered, the review
beside the replay flags that move (and only it), in the list and in the log, with the summary."""
import json
import re
import urllib.request

from playwright.sync_api import expect

from tests.agents.test_coach import BLUNDER_GAME


def post(url: str, body: dict, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers)
    return json.loads(urllib.request.urlopen(request, timeout=30).read())


def test_the_review_flags_the_blunder_next_to_the_move(page, server):
    created = post(f"{server}/api/matches", {"game": "tictactoe", "seats": [
        {"type": "human", "name": "Cleo"}, {"type": "human", "name": "Dan"}]})
    tokens = created["tokens"]
    for ply, action in enumerate(BLUNDER_GAME):  # Cleo (X) fails to block Dan's top row on move 5
        post(f"{server}/api/matches/{created['id']}/moves", {"action": action, "ply": ply}, tokens[str(ply % 2)])
    page.goto("/")
    page.evaluate("([id, token]) => localStorage.setItem(`parlour:seat:${id}`, JSON.stringify({ seat: 0, token }))",
                  [created["id"], tokens["0"]])
    page.goto(f"/play/{created['id']}")
    expect(page.locator("#status")).to_contain_text("Dan wins")
    page.get_by_role("button", name="Replay and review").click()
    panel = page.locator("#coach-panel")
    expect(panel.locator(".coach-summary")).to_have_text("1 mistake; the worst on move 5 cost 1 in game value",
                                                         timeout=30_000)
    expect(panel.locator("li.mistake")).to_have_count(1)
    blunder = panel.locator("li.mistake")
    expect(blunder).to_have_attribute("data-ply", "4")
    expect(blunder).to_contain_text("Move 5 bottom left: mistake: cost 1 (-1 against 0 for top centre)")
    expect(panel.locator(".coach-moves li")).to_have_count(3)
    expect(page.locator('#log [data-ply="4"] .flag')).to_contain_text("mistake")
    expect(page.locator("#log .flag")).to_have_count(1)
    blunder.get_by_role("button").click()  # the replay steps to that move
    expect(page.locator("#status")).to_contain_text("Replay 5/6")
    expect(blunder).to_have_class(re.compile("current"))


def test_in_a_match_with_hints_the_coach_answers_on_your_turn(page, server):
    created = post(f"{server}/api/matches", {"game": "tictactoe", "hints": True, "seats": [
        {"type": "human", "name": "Cleo"}, {"type": "human", "name": "Dan"}]})
    tokens = created["tokens"]
    for ply, action in enumerate(BLUNDER_GAME[:4]):  # Dan threatens the top row; Cleo to move
        post(f"{server}/api/matches/{created['id']}/moves", {"action": action, "ply": ply}, tokens[str(ply % 2)])
    page.goto("/")
    page.evaluate("([id, token]) => localStorage.setItem(`parlour:seat:${id}`, JSON.stringify({ seat: 0, token }))",
                  [created["id"], tokens["0"]])
    page.goto(f"/play/{created['id']}")
    expect(page.locator("#status")).to_have_text("Your move.")
    page.get_by_role("button", name="Hint").click()
    panel = page.locator("#coach-panel")
    expect(panel).to_contain_text("prefers top centre", timeout=30_000)
    expect(panel.locator(".coach-moves li").first).to_have_text("top centre: 0")


def test_at_a_five_seat_uno_table_the_hint_is_the_top_levels_networks_in_points(page, server):
    ais = [{"type": "agent", "agent": a} for a in ("perceptron", "betteroffensive", "offensive", "defensive")]
    created = post(f"{server}/api/matches", {"game": "uno", "hints": True, "seed": 11, "options": {"target_score": 1},
                                             "seats": [{"type": "human", "name": "Cleo"}, *ais]})
    page.goto("/")
    page.evaluate("([id, token]) => localStorage.setItem(`parlour:seat:${id}`, JSON.stringify({ seat: 0, token }))",
                  [created["id"], created["tokens"]["0"]])
    page.goto(f"/play/{created['id']}")
    page.get_by_role("button", name="Hint").click()
    panel = page.locator("#coach-panel")
    expect(panel).to_contain_text("The coach (Search + networks) prefers", timeout=30_000)
    expect(panel).to_contain_text("Values in expected points from the deal")
    expect(panel.locator(".coach-moves li").first).to_be_visible()
