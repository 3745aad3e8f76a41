"""The watch page: Start again stops the run under way and clears the tally and the chart;
card games can be watched one deal at a time, with a progress line; Pause is off when done."""
import re

from playwright.sync_api import expect


def test_start_again_cancels_the_run_and_resets_the_tally(page):
    page.goto("/watch")
    page.locator("#watch-game").select_option("tictactoe")
    page.locator("#speed").fill("0")
    page.locator('input[name="games"]').fill("200")
    page.get_by_role("button", name="Start").click()
    expect(page.locator("#tally")).to_contain_text(re.compile(r"· [2-9] games"), timeout=60_000)
    # a new run of another game: one Yaniv deal
    page.locator("#watch-game").select_option("yaniv")
    page.locator("#watch-length").select_option("deal")
    page.locator('input[name="games"]').fill("1")
    page.locator("#speed").fill("0")
    page.get_by_role("button", name="Start").click()
    expect(page.locator("#tally")).not_to_contain_text("games")
    expect(page.locator("#status")).to_have_text(re.compile(r"Deal 1 of 1 · move \d+|Done: 1 deal\."), timeout=30_000)
    expect(page.locator("#status")).to_have_text("Done: 1 deal.", timeout=120_000)
    expect(page.locator("#tally")).to_contain_text("1 deal")
    page.wait_for_timeout(1500)  # the old run would have drawn a noughts-and-crosses board by now
    expect(page.locator("#board .ttt-grid")).to_have_count(0)
    expect(page.locator("#board .yaniv")).to_have_count(1)
    expect(page.locator("#pause")).to_be_disabled()
    expect(page.locator("#step")).to_be_disabled()


def test_the_length_choice_is_for_games_with_deals(page):
    page.goto("/watch")
    page.locator("#watch-game").select_option("tictactoe")
    expect(page.locator("#watch-length")).to_be_hidden()
    page.locator("#watch-game").select_option("uno")
    expect(page.locator("#watch-length")).to_be_visible()


def test_levels_with_long_titles_can_be_watched(page):
    """A seat's name may be 32 characters: the watch page cuts longer level titles short (with
    the letter that tells two seats of one level apart) instead of having the run refused."""
    page.goto("/watch")
    page.locator("#watch-game").select_option("racko")
    page.locator("#watch-length").select_option("deal")
    seats = page.locator("#watch-seats select")
    seats.nth(0).select_option("ensemble-code")  # "Ensemble (write-up's code: Kyle, Max, Baltar)", 45
    seats.nth(1).select_option("ensemble-code")
    page.locator("#speed").fill("0")
    page.locator('input[name="games"]').fill("1")
    page.get_by_role("button", name="Start").click()
    expect(page.locator("#status")).to_have_text(re.compile(r"Deal 1 of 1 · move \d+|Done: 1 deal\."), timeout=30_000)
    expect(page.locator("#watch-form .error")).to_have_text("")
    expect(page.locator("#status")).to_have_text("Done: 1 deal.", timeout=120_000)
    expect(page.locator("#tally")).to_contain_text("Ensemble (write-up's code: Ky… A")
