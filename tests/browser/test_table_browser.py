"""What every table shares: resigning with a confirmation."""
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
