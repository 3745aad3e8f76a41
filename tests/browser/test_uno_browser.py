"""A person plays an Uno deal against each level by clicking cards and buttons; and watches
AIs play with every hand shown."""
import json
import re
import time
import urllib.request

import pytest
from playwright.sync_api import expect

from agents.catalog import levels
from tests.browser.pages import lobby, watch

LEVELS = levels("uno")


def start_uno(page, level: int, opponents: int = 1):
    lobby(page, "uno")
    form = page.locator('form[data-game="uno"]')
    form.locator('select[name="opponents"]').select_option(str(opponents))
    for i in range(opponents):
        form.locator(f'select[name="level{i}"]').select_option(str(level))
    form.locator("details.options summary").click()
    form.locator('input[name="target_score"]').fill("1")  # the match ends with the first deal won
    form.get_by_role("button", name=re.compile("Play")).click()
    page.wait_for_url(re.compile(r"/play/[0-9a-f]{32}"))


def take_a_turn(page) -> str:
    """One click of the person's: a playable card (naming a colour for a wild), else the
    drawn card, else draw / pass / name the opening colour. Returns what was clicked."""
    picker = page.locator(".uno-picker:not([hidden]) button.swatch")
    if picker.count():
        picker.first.click()
        return "colour"
    playable = page.locator(".uno-hand button.uno-card.playable")
    if playable.count():
        card = playable.first.get_attribute("data-card")
        playable.first.click()
        return f"card {card}"
    for selector in ('[data-action="play-drawn"]', '.uno-actions [data-action="catch"]',
                     '.uno-actions [data-action^="colour:"]', '.uno-actions [data-action="accept"]',
                     '.uno-actions [data-action="draw"]', '.uno-actions [data-action="pass"]'):
        button = page.locator(selector)
        if button.count():
            button.first.click()
            return selector
    raise AssertionError("nothing to click on the person's turn")


@pytest.mark.parametrize("level", range(1, len(LEVELS) + 1), ids=LEVELS)
def test_play_a_deal_against_each_level_by_clicking(page, server, level):
    opponents = 2 if level == 1 else 1  # one table with two AIs, the rest head to head
    start_uno(page, level=level, opponents=opponents)
    board = page.locator("#board")
    expect(board.locator(".uno-seat")).to_have_count(opponents)
    expect(board.locator(".uno-hand .uno-card").first).to_be_visible()
    # seven dealt; more if the deal opened with a Draw Two or an AI made the person draw before their turn
    assert board.locator(".uno-hand .uno-card").count() >= 7
    match = page.url.rsplit("/", 1)[-1]
    with urllib.request.urlopen(f"{server}/api/matches/{match}") as reply:
        seats = json.load(reply)["seats"]
    assert [s["agent"] for s in seats if s["type"] == "agent"] == [LEVELS[level - 1]] * opponents
    expect(board.locator(".uno-seat .count").first).to_contain_text("cards")
    expect(board.locator(".uno-colour")).to_contain_text("colour:")
    expect(board.locator(".uno-direction")).to_be_visible()
    expect(board.locator(".uno-discard .uno-card")).to_be_visible()
    status = page.locator("#status")
    clicks = []
    for _ in range(300):
        expect(status).to_have_text(re.compile(r"Your move|wins?\b|You win|^Deal \d+:"), timeout=30_000)
        if status.inner_text().startswith("Deal "):  # a deal's end: the match goes on if it scored 0
            go = page.locator('[data-action="next-deal"]')  # (the last hand held was a zero)
            expect(go).to_be_visible()
            if go.inner_text() == "Next deal":
                go.click()
                continue
        if not status.inner_text().startswith("Your move"):
            break
        logged = page.locator("#log li").count()
        clicks.append(take_a_turn(page))
        # the move reached the server (the log grew), or a wild's colour picker opened
        # (polled from here: the pages' Content-Security-Policy forbids evaluating strings in them)
        deadline = time.monotonic() + 30
        while page.locator("#log li").count() <= logged and not page.locator(".uno-picker:not([hidden])").count():
            assert time.monotonic() < deadline, "the move never reached the server"
            page.wait_for_timeout(50)
    expect(status).to_have_text(re.compile(r"wins?\b|You win"), timeout=30_000)
    assert any(c.startswith("card") for c in clicks)
    assert page.locator("#log li").count() >= len(clicks)
    expect(board.locator(".uno-last summary")).to_contain_text("went out and scored")
    seats = board.locator(".uno-seat")
    for i in range(seats.count()):  # every hand is shown at the end
        held = int(re.search(r"\d+", seats.nth(i).locator(".count").inner_text()).group())
        expect(seats.nth(i).locator(".fan .uno-card")).to_have_count(held)
    expect(page.locator("#thinking .thinking-head")).to_be_visible()  # what the AI was thinking
    expect(page.get_by_role("button", name="Rematch")).to_be_visible()


def test_draw_button_and_playable_cards_follow_the_legal_moves(page):
    start_uno(page, level=2)
    status = page.locator("#status")
    expect(status).to_have_text(re.compile(r"Your move"), timeout=30_000)
    opening = page.locator('.uno-actions [data-action^="colour:"]')
    if opening.count():  # a Wild was turned up: name its colour first
        opening.first.click()
        expect(page.locator('.uno-actions [data-action="draw"]')).to_be_visible(timeout=30_000)
    playable = page.locator(".uno-hand button.uno-card.playable")
    for card in playable.all():
        expect(card).to_have_css("transform", re.compile(r"matrix"))  # raised
    expect(page.locator('.uno-actions [data-action="draw"]')).to_be_visible()
    page.locator('.uno-actions [data-action="draw"]').click()
    expect(status).to_have_text(re.compile(r"Your move"), timeout=30_000)
    expect(page.locator('.uno-actions [data-action="pass"]')).to_be_visible()
    assert page.locator(".uno-hand .uno-card.drawn").count() == 1


def test_watch_ais_play_uno_with_every_hand_shown(page):
    watch(page, "uno", games=1)
    fans = page.locator("#board .uno-seat .fan")
    expect(fans.first).to_be_visible(timeout=30_000)
    assert fans.count() >= 2


def test_a_trained_networks_page_draws_its_curve_by_deals_trained(page):
    """Deep Monte-Carlo counts its training in deals: the chart's x axis says so and places each
    point at the deal count it was measured at (the file's windows), not at games."""
    import json

    from agents.saved_files import SAVED

    windows = json.loads((SAVED / "uno" / "dmc.json").read_text())["meta"]["curve"]["windows"]
    page.goto("/agents/uno/dmc")
    expect(page.locator("#training-panel")).to_be_visible()
    page.wait_for_function("() => window.Chart && window.Chart.getChart('training-curve')")
    axis, series = page.evaluate("""() => { const c = window.Chart.getChart('training-curve');
        return [c.options.scales.x.title.text, Object.fromEntries(c.data.datasets.map((d) => [d.label, d.data]))]; }""")
    assert axis == "deals trained"
    assert set(series) == {"win", "loss"}  # no deal is drawn: the zero line is left out
    assert [p["x"] for p in series["win"]] == [w["end"] for w in windows]
    assert [p["y"] for p in series["win"]] == [w["win"] / w["games"] for w in windows]
    expect(page.locator("#training-note")).to_contain_text("won against BetterOffensive")
