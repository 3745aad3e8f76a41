"""The leaderboard shows a person's rating, and it moves after a game."""
import re

from playwright.sync_api import expect

from tests.browser.pages import lobby
from tests.browser.test_tictactoe_browser import click_until_over


def rating_of(page, name: str) -> str:
    page.goto("/leaderboard?game=tictactoe")
    row = page.locator("#ratings tbody tr", has_text=name)
    expect(row).to_have_count(1)
    return row.locator("td.rating").inner_text()


def play_one(page, name: str) -> None:
    lobby(page, "tictactoe")
    page.locator("#player-name").fill(name)
    form = page.locator('form[data-game="tictactoe"]')
    form.locator('select[name="level0"]').select_option("4")  # Perfect: nobody beats it
    form.get_by_role("button", name=re.compile("Play")).click()
    page.wait_for_url(re.compile(r"/play/[0-9a-f]{32}"))
    click_until_over(page)


def test_the_leaderboard_rating_moves_after_a_game(page):
    page.goto("/leaderboard?game=tictactoe")
    expect(page.locator("#ratings tbody")).to_be_visible()
    expect(page.locator("#ratings tbody tr", has_text="Rating Tester")).to_have_count(0)
    play_one(page, "Rating Tester")
    first = rating_of(page, "Rating Tester")
    # the chart opens on the first person listed (other tests may have rated someone else): pick ours
    page.locator("#ratings tbody tr", has_text="Rating Tester").locator("td.rating").click()
    expect(page.locator("#chart-title")).to_have_text("Rating Tester")
    play_one(page, "Rating Tester")
    second = rating_of(page, "Rating Tester")
    assert second != first  # a second result (against Perfect, a loss or a draw) moves it
    page.locator("#ratings th", has_text="Games").click()
    expect(page.locator("#ratings th", has_text="Games")).to_have_attribute("aria-sort", "descending")


def test_a_persons_page_shows_their_matches_record_and_rating(page):
    play_one(page, "Page Tester")
    rating_of(page, "Page Tester")
    page.locator("#ratings tbody a", has_text="Page Tester").click()
    page.wait_for_url(re.compile(r"/people/Page(%20| )Tester"))
    expect(page.locator("h1")).to_have_text("Page Tester")
    expect(page.locator("#person-matches tbody tr")).to_have_count(1)
    expect(page.locator("#person-record tbody tr")).to_contain_text(re.compile(r"Noughts.*4"))
    expect(page.locator("#person-rating")).to_contain_text("after 1 rated match")
