"""A person plays noughts and crosses by clicking, against every level; and watches AIs play."""
import re

import pytest
from playwright.sync_api import expect

from tests.browser.pages import lobby, watch


def start_game(page, level: int, position: str = "0"):
    lobby(page, "tictactoe")
    form = page.locator('form[data-game="tictactoe"]')
    form.locator('select[name="level0"]').select_option(str(level))
    form.locator('select[name="position"]').select_option(position)
    form.get_by_role("button", name=re.compile("Play")).click()
    page.wait_for_url(re.compile(r"/play/[0-9a-f]{32}"))


def click_until_over(page):
    status = page.locator("#status")
    for _ in range(9):
        expect(status).to_have_text(re.compile(r"Your move|win|draw"), timeout=15_000)
        if not re.search("Your move", status.inner_text()):
            break
        page.locator("button.ttt-cell").first.click()
    expect(status).to_have_text(re.compile(r"win|draw"), timeout=15_000)
    return status.inner_text()


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_play_a_whole_game_against_each_level(page, level):
    start_game(page, level)
    result = click_until_over(page)
    assert page.locator("#log li").count() >= 5
    if level == 4:
        assert "You win" not in result  # Perfect never loses
    expect(page.get_by_role("button", name="Rematch")).to_be_visible()
    if level == 1:
        page.get_by_role("button", name="Replay").click()
        expect(page.locator("#status")).to_have_text("Replay: the deal")
        assert page.locator(".ttt-cell.mark-X").count() == 0
        page.get_by_role("button", name="next move").click()
        expect(page.locator("#status")).to_contain_text("Replay 1/")
        assert page.locator(".ttt-cell.mark-X").count() == 1


def test_menace_beads_are_drawn_on_the_board_and_swap_sides(page):
    start_game(page, 2, position="1")  # MENACE (live) opens as X
    expect(page.locator(".ttt-cell .beads").first).to_be_visible()
    expect(page.locator("#thinking")).to_contain_text("beads")
    click_until_over(page)
    page.get_by_role("button", name="Swap sides").click()
    page.wait_for_url(re.compile(r"/play/"))
    expect(page.locator("#status")).to_have_text("Your move.")
    expect(page.locator(".ttt-caption")).to_contain_text("You play X")


def test_watch_two_ais(page):
    watch(page, "tictactoe", games=3)
    expect(page.locator("#status")).to_have_text("Done: 3 games.", timeout=60_000)
    expect(page.locator("#tally")).to_contain_text("· 3 games")
    assert page.locator(".ttt-cell.mark-X").count() >= 3


def test_results_and_menace_pages(page):
    page.goto("/results")
    expect(page.locator("#people")).to_be_visible()
    page.goto("/agents/tictactoe/menace-live")
    expect(page.locator("#box-count")).to_contain_text("of 304 boxes")
    page.locator("#box-move").select_option("2")
    expect(page.locator("#box-count")).to_have_text("12 of 304 boxes")
