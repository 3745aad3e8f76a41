"""A person plays a Rack-O deal against each level by clicking the deck and rack slots (5 slots,
a match to 1 point, so it ends with the first deal), and watches two AIs with every rack shown."""
import re

import pytest
from playwright.sync_api import expect

from agents.catalog import levels
from tests.browser.pages import lobby

LEVELS = levels("racko")


def start_racko(page, level: int, options: dict):
    lobby(page, "racko")
    form = page.locator('form[data-game="racko"]')
    form.locator('select[name="opponents"]').select_option("1")
    form.locator('select[name="level0"]').select_option(str(level))
    form.locator("details.options summary").click()
    for name, value in options.items():
        form.locator(f'input[name="{name}"]').fill(str(value))
    form.get_by_role("button", name=re.compile("Play")).click()
    page.wait_for_url(re.compile(r"/play/[0-9a-f]{32}"))


def take_a_turn(page, rack_size: int, max_card: int) -> None:
    """Draw from the deck; put the card in the slot its value points to (card / max_card of
    the way up the rack)."""
    page.locator("button.rk-deck").click()
    drawn = page.locator(".rk-card.drawn")
    expect(drawn).to_have_count(1, timeout=20_000)
    card = int(drawn.get_attribute("data-card"))
    slot = min(rack_size, max(1, -(-card * rack_size // max_card)))  # ceil(card * r / N)
    page.locator(f'.rk-me button.rk-card.target[data-slot="{slot}"]').click()


@pytest.mark.parametrize("level", range(1, len(LEVELS) + 1), ids=LEVELS)
def test_play_a_deal_against_each_level(page, level):
    start_racko(page, level, {"rack_size": 5, "target_score": 1, "max_turns": 40})
    status = page.locator("#status")
    expect(page.locator(".rk-me .rk-slot")).to_have_count(5, timeout=20_000)
    for _ in range(25):
        expect(status).to_have_text(re.compile(r"Your move|win"), timeout=20_000)
        if "win" in status.inner_text():
            break
        take_a_turn(page, 5, 20)
        expect(status).not_to_have_text("…", timeout=20_000)
    else:
        raise AssertionError("the deal did not end")
    result = page.locator(".rk-result")
    expect(result.locator("summary")).to_contain_text(re.compile(r"Rack-O!|no Rack-O"))
    expect(result.locator(".rk-result-seat")).to_have_count(2)
    # every rack shown at the end: the opponent's cards are faces, not backs
    expect(page.locator(".rk-seat .rk-chip")).to_have_count(5)
    expect(page.locator(".rk-seat .rk-chip.back")).to_have_count(0)
    assert page.locator("#log li").count() >= 2


def test_the_rack_takes_a_discard_and_shows_it_known_to_the_others(page):
    start_racko(page, 1, {"rack_size": 5, "target_score": 1, "max_turns": 40})
    expect(page.locator("#status")).to_have_text(re.compile("Your move"), timeout=20_000)
    top = page.locator("button.rk-discard").get_attribute("data-card")
    page.locator("button.rk-discard").click()
    expect(page.locator(".rk-message")).to_contain_text("must be placed")
    assert page.locator("button.rk-discard-drawn").count() == 0  # no Discard button for a discard-pile card
    page.locator('.rk-me button.rk-card.target[data-slot="3"]').click()
    expect(page.locator('.rk-me .rk-slot .rk-card[data-slot="3"]')).to_have_attribute("data-card", top, timeout=20_000)
    expect(page.locator('.rk-me .rk-card[data-slot="3"]')).to_have_class(re.compile("known"))


def test_watch_two_ais_play_racko(page):
    page.goto("/watch")
    page.locator("#watch-game").select_option("racko")
    seats = page.locator("#watch-seats select")
    seats.nth(0).select_option("kyle")
    seats.nth(1).select_option("max")
    # one deal: AI-only matches move at most every 100 ms, and a match to 500 is thousands of moves
    page.locator("#watch-length").select_option("deal")
    page.locator("#speed").fill("0")
    page.locator('input[name="games"]').fill("1")
    page.get_by_role("button", name="Start").click()
    expect(page.locator("#status")).to_have_text("Done: 1 deal.", timeout=180_000)
    expect(page.locator(".rk-result")).to_be_visible()
    assert page.locator(".rk-seat .rk-chip").count() == 20  # AI-only: every rack shown
    assert page.locator(".rk-seat .rk-chip.back").count() == 0
