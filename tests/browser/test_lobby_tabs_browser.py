"""The lobby fits a phone: one game at a time behind a tab with its picture, the game's Play button in
the first screen, each level's strength in a few words with the measured figures a tap away; and a
fair game in one click (the server's choice of levels, with why), hidden where the server has none."""
import json
import re
import urllib.request

import pytest
from playwright.sync_api import expect

from agents.catalog import playable_games


@pytest.mark.parametrize("game", playable_games())
def test_each_game_plays_from_the_first_screen_of_a_phone(phone, game):
    phone.goto(f"/#{game}")
    panel = phone.locator(f"#game-{game}")
    expect(panel).to_be_visible()
    expect(phone.locator(".game-card:visible")).to_have_count(1)  # one game at a time
    assert phone.evaluate("scrollY") == 0
    play = panel.locator("form button[type=submit]")
    box = play.bounding_box()
    assert box["y"] + box["height"] <= 844, f"Play is {box['y'] + box['height']:.0f} px down a 844 px screen"
    assert phone.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    expect(phone.locator(f"#tab-{game} img")).to_be_visible()


def test_tabs_by_click_and_keyboard_and_the_last_one_is_remembered(page):
    page.goto("/")
    page.locator("#tab-yaniv").click()
    expect(page.locator("#tab-yaniv")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#game-yaniv")).to_be_visible()
    expect(page.locator("#game-uno")).to_be_hidden()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#tab-racko")).to_be_focused()
    expect(page.locator("#game-racko")).to_be_visible()
    page.reload()
    expect(page.locator("#game-racko")).to_be_visible()  # the game shown last
    page.goto("/rules/queen_of_spades")
    page.get_by_role("link", name="Play Queen of Spades").click()
    expect(page.locator("#game-queen_of_spades")).to_be_visible()


def test_strength_in_words_with_the_figures_a_tap_away(page):
    page.goto("/#tictactoe")
    rows = page.locator("#game-tictactoe table.levels tbody tr")  # levels 1 to 4: Random ... Perfect
    expect(rows.nth(3).locator("td.strength")).to_have_text("Wins most games against Random, never losing.")
    expect(rows.nth(0).locator("td.strength")).to_have_text("Loses most games to Perfect.")
    figures = page.locator("#game-tictactoe details.figures")
    expect(figures.locator("table")).to_be_hidden()
    figures.locator("summary").click()
    expect(figures.locator("tbody tr").nth(3)).to_contain_text(re.compile(r"wins \d+, draws \d+, in 100 against Random"))


FAIR = {"seats": [{"type": "human"}, {"type": "agent", "level": 3}], "why": "You start in the middle of the ladder."}


def test_a_fair_game_in_one_click(page, server):
    """Against the contract GET /api/games/{game}/fair?player=NAME -> {"seats", "why"} (answered
    here by the test): the why is shown, one click seats those levels with the person's name."""
    asked = []

    def fair(route):
        asked.append(route.request.url)
        route.fulfill(status=200, content_type="application/json", body=json.dumps(FAIR))

    page.route(re.compile(r".*/api/games/uno/fair.*"), fair)
    page.goto("/#uno")
    box = page.locator("#game-uno .fair")
    expect(box).to_be_visible()
    expect(box.locator(".fair-why")).to_have_text(FAIR["why"])
    assert asked and asked[-1].endswith("?player=Tess")
    box.get_by_role("button", name="Play a fair game").click()
    page.wait_for_url(re.compile(r"/play/[0-9a-f]{32}"))
    match = page.url.rsplit("/", 1)[1]
    seats = json.loads(urllib.request.urlopen(f"{server}/api/matches/{match}").read())["seats"]
    assert [(s["type"], s["name"] if s["type"] == "human" else s["level"]) for s in seats] == [("human", "Tess"), ("agent", 3)]
    expect(page.locator("#status")).to_have_text("Your move.")


def test_no_fair_game_button_where_the_server_has_none(page):
    page.route(re.compile(r".*/api/games/\w+/fair.*"), lambda route: route.fulfill(
        status=404, content_type="application/problem+json", body=json.dumps({"detail": "Not Found"})))
    page.goto("/#yaniv")
    expect(page.locator("#game-yaniv form button[type=submit]")).to_be_visible()
    page.wait_for_load_state("networkidle")
    expect(page.locator("#game-yaniv .fair")).to_be_hidden()
