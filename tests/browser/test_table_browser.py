"""What every table shares: resigning with a confirmation; the person's seat named in words."""
import re

import pytest
from playwright.sync_api import expect

from tests.browser.pages import sit_at

AI = {"type": "agent", "level": 1}


@pytest.mark.parametrize("game, opponents", [("uno", 2), ("tictactoe", 1)])
def test_resign_asks_first_then_ends_the_match(page, server, game, opponents):
    sit_at(page, server, game, [AI] * opponents)
    page.locator('[data-action="resign"]').click()
    no = page.get_by_role("button", name="No, play on")
    expect(no).to_be_visible()
    no.click()
    expect(page.locator("#status")).not_to_contain_text("resigned")
    page.locator('[data-action="resign"]').click()
    page.get_by_role("button", name="Yes, resign").click()
    expect(page.locator("#status")).to_have_text(re.compile(r"(You resigned\. )?.+ wins?\."))
    expect(page.locator('[data-action="resign"]')).to_have_count(0)
    expect(page.get_by_role("button", name="Rematch")).to_be_visible()


def test_a_person_without_a_name_is_not_you_you(page, server):
    """A person created without a name (through the API) is "Player 1": the players' list and
    the Uno hand say "Player 1 (you)", never "You (you)"."""
    sit_at(page, server, "uno", [AI], name=None)
    expect(page.locator("#status")).to_have_text("Your move.", timeout=30_000)
    expect(page.locator("#seats li").first).to_have_text("Player 1 (you)")
    expect(page.locator(".uno-me .who strong")).to_have_text("Player 1 (you)")


def test_counts_of_games_are_in_good_english(page):
    """"1 game", not "1 games": the helper the pages share, and the live MENACE's count on its page."""
    page.goto("/agents/tictactoe/menace-live")
    assert page.evaluate("import('/static/js/api.js').then((m) => [m.plural(1, 'game'), m.plural(2, 'game'), m.plural(0, 'game')])") \
        == ["1 game", "2 games", "0 games"]
    expect(page.locator("#live-state")).to_have_text(re.compile(r"^(1 game|(?!1 )\d+ games) learned from since"))


def test_a_match_whose_creator_chose_the_seed_says_it_is_unrated(page, server):
    """At its table and in the results' recent matches; a match the server deals says nothing."""
    chosen = sit_at(page, server, "tictactoe", [AI], seed=11)
    expect(page.locator("#rated-note")).to_have_text(re.compile(r"^Unrated: seed chosen by the creator"))
    dealt = sit_at(page, server, "tictactoe", [AI])
    expect(page.locator("#status")).to_have_text("Your move.", timeout=30_000)
    expect(page.locator("#rated-note")).to_be_hidden()
    page.goto("/results")
    row = lambda match: page.locator("#recent tr", has=page.locator(f'a[href="/play/{match}"]'))
    expect(row(chosen)).to_contain_text("in play · unrated")
    expect(row(dealt)).to_contain_text("in play")
    expect(row(dealt)).not_to_contain_text("unrated")
