"""The lobby names every rule option in words, its game length sets the options, the opponent picker
is announced by its label, and each game has a rules page listing its options."""
import re

from playwright.sync_api import expect

from engine import get_game
from tests.browser.pages import lobby


def test_options_named_in_words_and_game_length_sets_them(page):
    lobby(page, "uno")
    form = page.locator('form[data-game="uno"]')
    form.locator("details.options summary").click()
    for option in get_game("uno").options:
        control = form.get_by_label(option.title, exact=True)
        expect(control).to_have_attribute("name", option.name)
        assert option.description in control.evaluate("(e) => document.getElementById(e.getAttribute('aria-describedby')).textContent")
    expect(form.get_by_role("combobox", name=re.compile(r"^Opponent\b"))).to_have_attribute("name", "level0")
    target = form.locator('input[name="target_score"]')
    expect(target).to_have_value("500")
    length = form.get_by_label("Game length")
    means = form.locator(".length-means")  # the select names the length; the line under it says what it sets
    expect(length.locator("option:checked")).to_have_text("full match")
    expect(means).to_have_text("points to win the match: 500")
    assert length.evaluate("(e) => document.getElementById(e.getAttribute('aria-describedby')) === null") is False
    length.select_option("one deal")
    expect(target).to_have_value("1")
    expect(means).to_have_text("points to win the match: 1")
    form.get_by_label("Rule set").select_option("writeup")  # a preset keeps the chosen length
    expect(target).to_have_value("1")
    expect(form.locator('input[name="play_drawn"]')).not_to_be_checked()
    page.locator("#tab-queen_of_spades").click()
    qs = page.locator('form[data-game="queen_of_spades"]')
    qs.get_by_label("Game length").select_option("short match")
    expect(qs.locator('input[name="deals"]')).to_have_value("4")


def test_each_game_has_a_rules_page_with_its_options(page):
    for name in ("tictactoe", "uno", "yaniv", "racko", "queen_of_spades"):
        game = get_game(name)
        lobby(page, name)
        page.locator(f"#game-{name}").get_by_role("link", name=f"How to play {game.title}").click()
        expect(page.get_by_role("heading", level=1)).to_have_text(f"How to play {game.title}")
        for option in game.options:
            expect(page.locator("table.rule-options")).to_contain_text(option.title)
