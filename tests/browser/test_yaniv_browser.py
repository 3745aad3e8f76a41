"""A person plays Yaniv by clicking cards: a deal against every level, a whole short match,
and watching AIs play."""
import re

import pytest
from playwright.sync_api import expect

from tests.browser.pages import lobby, watch

LEVELS = 5


def start_match(page, levels: list[int], options: dict | None = None):
    lobby(page, "yaniv")
    form = page.locator('form[data-game="yaniv"]')
    form.locator('select[name="opponents"]').select_option(str(len(levels)))
    for i, level in enumerate(levels):
        form.locator(f'select[name="level{i}"]').select_option(str(level))
    if options:
        form.locator("details.options summary").click()
        for name, value in options.items():
            form.locator(f'input[name="{name}"]').fill(str(value))
    form.get_by_role("button", name=re.compile("Play")).click()
    page.wait_for_url(re.compile(r"/play/[0-9a-f]{32}"))


VALUES = {"A": 1, "J": 10, "Q": 10, "K": 10, "jk": 0}


def value(card: str) -> int:
    rank = "jk" if card.startswith("jk") else card[:-1]
    return VALUES[rank] if rank in VALUES else int(rank)


def take_a_turn(page):
    """Call Yaniv when allowed; else throw all cards of the rank worth most in the hand, and
    take a low card (up to 3) from the discard, or draw from the stock."""
    call = page.locator("button.yv-call")
    if call.count():
        call.click()
        return
    cards = page.locator(".yv-hand button.yv-card")
    hand = [cards.nth(i).get_attribute("data-card") for i in range(cards.count())]
    ranks = {}
    for card in hand:
        ranks.setdefault(card if card.startswith("jk") else card[:-1], []).append(card)
    best = max(ranks.values(), key=lambda same: (sum(map(value, same)), len(same)))
    for card in best:
        page.locator(f'.yv-hand button.yv-card[data-card="{card}"]').click()
    expect(page.locator(".yv-message")).to_contain_text("then draw")
    low = [b for b in page.locator("button.yv-take").all() if b.get_attribute("data-take") != "stock"
           and value(b.get_attribute("data-take")) <= 3]
    (low[0] if low else page.locator("button.yv-take[data-take=stock]")).click()


def play_until(page, done, turns=80):
    """Take turns until ``done()``, going on to the next deal at each deal's end."""
    status = page.locator("#status")
    for _ in range(turns):
        expect(status).to_have_text(re.compile(r"Your move|win|Deal \d+:"), timeout=20_000)
        if done():
            return
        if page.locator('[data-action="next-deal"]').is_visible():
            page.locator('[data-action="next-deal"]').click()
            continue
        take_a_turn(page)
        expect(status).not_to_have_text("…", timeout=20_000)
    raise AssertionError("the deal did not end")


@pytest.mark.parametrize("level", range(1, LEVELS + 1))
def test_play_a_deal_against_each_level(page, level):
    start_match(page, [level])
    expect(page.locator(".yv-hand button.yv-card")).to_have_count(5, timeout=20_000)
    play_until(page, lambda: page.locator(".yv-result").count() > 0)
    result = page.locator(".yv-result")
    expect(result.locator("summary")).to_contain_text(re.compile(r"Yaniv!|Assaf!"))
    expect(result.locator("li")).to_have_count(2)
    expect(page.locator(".yv-scoreboard tbody tr")).to_have_count(2)  # deal 1 and the scores
    assert page.locator("#log li").count() >= 2


def test_only_valid_groups_are_accepted_and_the_pile_can_be_taken(page):
    start_match(page, [1, 1])
    status = page.locator("#status")
    expect(status).to_have_text(re.compile("Your move"), timeout=20_000)
    hand = page.locator(".yv-hand button.yv-card")
    ids = [hand.nth(i).get_attribute("data-card") for i in range(hand.count())]
    pair = next(((a, b) for a in ids for b in ids if a < b and a[-1] != b[-1] and a[:-1] != b[:-1]
                 and "jk" not in a + b), None)
    if pair:
        for card in pair:
            page.locator(f'.yv-hand button.yv-card[data-card="{card}"]').click()
        expect(page.locator(".yv-message.yv-problem")).to_contain_text("Not a group")
        assert page.locator("button.yv-take").count() == 0
        page.get_by_role("button", name="Clear").click()
    hand.first.click()
    taken = page.locator(".yv-discard button.yv-card.takeable").first
    card = taken.get_attribute("data-card")
    taken.click()
    expect(page.locator(f'.yv-hand .yv-card[data-card="{card}"]')).to_have_count(1, timeout=20_000)


def test_a_whole_short_match_shows_eliminations_and_the_winner(page):
    start_match(page, [1], options={"elimination": 5})
    play_until(page, lambda: bool(re.search("win", page.locator("#status").inner_text())), turns=200)
    expect(page.get_by_role("button", name="Rematch")).to_be_visible()
    board = page.locator(".yv-scoreboard")
    expect(board.locator("em", has_text="out")).to_have_count(1)
    expect(board).to_contain_text("Above 5 a player is out")


def test_watch_two_ais_play_yaniv(page):
    watch(page, "yaniv", games=1)
    expect(page.locator("#status")).to_have_text("Done: 1 game.", timeout=120_000)
    expect(page.locator(".yv-scoreboard")).to_be_visible()
    # AI-only: every hand still in play is shown face up (an eliminated seat shows none, so the
    # winner's hand may be the only one left)
    assert page.locator(".yv-seat .yv-card:not(.back)").count() >= 1
    assert page.locator(".yv-seat .yv-card.back").count() == 0
