"""A person plays Queen of Spades by clicking cards: one deal against three AIs of each level
(only raised cards can be clicked), and watching AIs play with every hand shown."""
import re

import pytest
from playwright.sync_api import expect

from agents.catalog import levels
from tests.browser.pages import lobby, watch

LEVELS = len(levels("queen_of_spades"))


def start_match(page, level: int, deals: int = 1):
    lobby(page, "queen_of_spades")
    form = page.locator('form[data-game="queen_of_spades"]')
    for i in range(3):
        form.locator(f'select[name="level{i}"]').select_option(str(level))
    form.locator("details.options summary").click()
    form.locator('input[name="deals"]').fill(str(deals))
    form.get_by_role("button", name=re.compile("Play")).click()
    page.wait_for_url(re.compile(r"/play/[0-9a-f]{32}"))


@pytest.mark.parametrize("level", range(1, LEVELS + 1))
def test_play_a_deal_against_each_level(page, level):
    start_match(page, level)
    status = page.locator("#status")
    played = 0
    for _ in range(9):
        expect(status).to_have_text(re.compile(r"Your move|win"), timeout=30_000)
        if "win" in status.inner_text():
            break
        hand = page.locator(".qs-hand .qs-card")
        raised = page.locator(".qs-hand button.qs-card.legal")
        expect(hand).to_have_count(8 - played)
        assert raised.count() >= 1
        # every card that is not raised is not a button: it cannot be played
        assert page.locator(".qs-hand .qs-card:not(.legal)").count() == hand.count() - raised.count()
        assert page.locator(".qs-hand button.qs-card:not(.legal)").count() == 0
        raised.last.click()
        played += 1
        expect(status).not_to_have_text("…", timeout=30_000)
    else:
        raise AssertionError("the deal did not end")
    assert played == 8
    result = page.locator(".qs-result")
    expect(result.locator("summary")).to_contain_text(re.compile(r"Deal 1: .*(all 8 tricks|Q♠ trick)"))
    expect(result.locator("li")).to_have_count(4)
    points = [int(t.replace("−", "-")) for t in result.locator(".qs-points").all_inner_texts()]
    assert sum(points) == 0 and sorted(points) in ([-3, 1, 1, 1], [-1, -1, 1, 1], [-1, -1, -1, 3])
    expect(page.locator(".qs-done li")).to_have_count(8)
    expect(page.locator(".qs-done li.queen")).to_have_count(1)
    assert page.locator("#log > li[data-ply]").count() == 32  # one line per card played
    assert page.locator("#log .log-events li", has_text=re.compile(r"takes? trick \d")).count() == 8


def test_watch_four_ais_play_with_every_hand_shown(page):
    watch(page, "queen_of_spades", games=1)
    expect(page.locator(".qs-seat .qs-card:not(.back)").first).to_be_visible(timeout=30_000)
    assert page.locator(".qs-seat .qs-card.back").count() == 0  # AI-only: no card is hidden
    page.get_by_role("button", name="Pause").click()  # a match is 8 deals: no need to watch them all
    expect(page.get_by_role("button", name="Resume")).to_be_visible()
