"""Uno, Rack-O and Queen of Spades played to the end of a deal by keyboard alone: Tab to a move,
Enter to make it; after each move and the AIs' replies the focus is still on the table, and the
deal-end panel's button has the focus and takes Enter. (Noughts and crosses and Yaniv by keyboard:
test_accessibility_browser.py.)"""
import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.pages import tab_to
from tests.browser.test_accessibility_browser import start_as_person

# game: (seats, options that end the match with one deal, what Tab may stop at to make a move, the
# first kind on the page preferred: an Uno player who always drew would never go out)
GAMES = {
    "uno": (2, {"target_score": 1}, [".uno-picker:not([hidden]) button.swatch", ".uno-hand button.uno-card.playable",
                                     ".uno-actions button", "button.uno-pile"]),
    "racko": (2, {"rack_size": 5, "target_score": 1, "max_turns": 60},
              ["button.rk-deck, button.rk-discard, .rk-me button.rk-card.target, button.rk-discard-drawn"]),
    "queen_of_spades": (4, {"deals": 1}, [".qs-hand button.qs-card.legal"]),
}
MOVE = re.compile(r"Your move|\bwins?\b|You win|draw")


def tab_to_a_move(page, selectors: list[str]) -> None:
    """Tab to a control of the first kind in ``selectors`` that is on the page."""
    tab_to(page, next((s for s in selectors if page.locator(s).count()), selectors[-1]))


@pytest.mark.parametrize("game", list(GAMES))
def test_a_deal_played_by_keyboard_alone(page, server, game):
    seats, options, moves = GAMES[game]
    presses = 0
    for _ in range(5):  # a short Rack-O deal can end after one turn: play deals until three key presses
        presses += play_a_deal(page, server, game, seats, options, moves)
        if presses >= 3:
            break
    assert presses >= 3, presses


def play_a_deal(page, server, game: str, seats: int, options: dict, moves: list[str]) -> int:
    """Start a match against level-1 AIs and play its only deal by keyboard; the number of key presses."""
    start_as_person(page, server, game, seats, options=options)
    status = page.locator("#status")
    presses = 0
    deadline = time.monotonic() + 240
    while True:
        assert time.monotonic() < deadline, f"the deal did not end by keyboard: {status.inner_text()}"
        expect(status).to_have_text(MOVE, timeout=30_000)
        if not status.inner_text().startswith("Your move"):
            break
        tab_to_a_move(page, moves)
        logged = page.locator("#log li").count()
        page.keyboard.press("Enter")
        presses += 1
        moved = time.monotonic() + 30  # the move reached the table (or a choice opened: colour, slot)
        while (page.locator("#log li").count() == logged and not page.locator(".uno-picker:not([hidden])").count()
               and not page.locator(".rk-card.drawn").count()):
            assert time.monotonic() < moved, "the key press made no move"
            page.wait_for_timeout(50)
        expect(status).not_to_have_text("…", timeout=30_000)
        assert page.evaluate("document.querySelector('.felt').contains(document.activeElement)"), \
            f"focus left the table after key press {presses}"
    end = page.locator('[data-action="next-deal"]')
    if end.count() and end.is_visible():  # the deal-end dialog: its button has the focus
        assert page.evaluate("document.activeElement.dataset.action") == "next-deal"
        page.keyboard.press("Enter")
    expect(status).to_have_text(re.compile(r"\bwins?\b|You win|draw"), timeout=30_000)
    return presses
