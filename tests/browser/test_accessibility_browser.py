"""Every page at a phone's size (390x844, also as a phone: touch, the mobile viewport) and a laptop's
(1280x800): no sideways scroll (the page no wider than the window's content area, clientWidth, which
unlike innerWidth does not grow with the page on a phone), no serious or critical axe-core violation,
a level-one heading and no heading level skipped, and on the phone every button, list box, summary and
check box at least 44 px square.

The pages: the lobby, every rules page, watch, results, leaderboard, an agent's page, a person's page,
the API documents (/docs, /redoc: no request leaves the site either), a page that is not there, and each game's
table as the seated person, as a spectator of an AI-only match (every hand shown), and once resigned;
and states met in play: the resign question, the moves stepped back, a paused watch run, a friends'
waiting room (the creator's and the invited friend's page). The deal-end dialogs are scanned in
test_deal_end_browser.py.
"""
import json
import re
import time
import urllib.request
from itertools import pairwise

import pytest
from axe_playwright_python.sync_playwright import Axe

from agents.catalog import playable_games
from tests.browser.conftest import NAMED
from tests.browser.pages import tab_to

SIZES = {"phone": (390, 844), "mobile": (390, 844), "laptop": (1280, 800)}  # mobile: a phone's browser, emulated
PAGES = ["/", *[f"/rules/{game}" for game in playable_games()], "/watch", "/results", "/leaderboard",
         "/agents/tictactoe/menace-live", "/people/Ann", "/docs", "/redoc", "/no-such-page"]
TABLES = [(game, view) for game in playable_games() for view in ("player", "spectator", "resigned")]
SEATS = {"queen_of_spades": 4, "yaniv": 3}  # the rest: two players
AXE = Axe()


def post(server: str, path: str, body: dict, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    request = urllib.request.Request(server + path, json.dumps(body).encode(), headers)
    with urllib.request.urlopen(request) as reply:
        return json.load(reply)


@pytest.fixture(scope="module")
def tables(server):
    """Per game: a match with a person in seat 0, an AI-only match played slowly, and a match the
    person resigned at once (the finished table: result, replay, rematch)."""
    made = {}
    for game in playable_games():
        agents = [{"type": "agent", "level": 1}] * (SEATS.get(game, 2) - 1)
        mine = post(server, "/api/matches", {"game": game, "seats": [{"type": "human", "name": "Ann"}, *agents]})
        made[game, "player"] = (mine["id"], mine["tokens"]["0"])
        watched = post(server, "/api/matches", {"game": game, "seats": [{"type": "agent", "level": 1}, *agents],
                                                "delay_ms": 60_000})
        made[game, "spectator"] = (watched["id"], None)
        over = post(server, "/api/matches", {"game": game, "seats": [{"type": "human", "name": "Ann"}, *agents]})
        post(server, f"/api/matches/{over['id']}/resign", {}, over["tokens"]["0"])
        made[game, "resigned"] = (over["id"], over["tokens"]["0"])
    return made


@pytest.fixture(params=list(SIZES), ids=list(SIZES))
def sized(request, page, browser, server):
    width, height = SIZES[request.param]
    if request.param != "mobile":
        page.set_viewport_size({"width": width, "height": height})
        yield page
        return
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=True, has_touch=True,
                                  device_scale_factor=3, base_url=server)
    context.add_init_script(NAMED)
    phone = context.new_page()
    errors: list[str] = []
    phone.on("pageerror", lambda e: errors.append(str(e)))
    yield phone
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


HEADINGS = """() => [...document.querySelectorAll('h1, h2, h3, h4, h5, h6, [role=heading]')]
    .map((h) => Number(h.getAttribute('aria-level') ?? h.tagName.slice(1)))"""


def check(page) -> None:
    width = page.evaluate("document.documentElement.clientWidth")
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"{page.url} is {scroll} px wide on a {width} px screen"
    levels = page.evaluate(HEADINGS)
    assert levels and levels[0] == 1, f"{page.url} does not start with a level-one heading: {levels}"
    skipped = [(a, b) for a, b in pairwise(levels) if b > a + 1]
    assert not skipped, f"{page.url} skips heading levels: {skipped} in {levels}"
    violations = [v for v in AXE.run(page).response["violations"] if v["impact"] in ("serious", "critical")]
    assert not violations, "\n".join(f"{v['id']} ({v['impact']}): {v['help']} at "
                                     f"{[n['target'] for n in v['nodes'][:5]]}" for v in violations)
    if width < 500:  # a check box's target is its label (which toggles it too)
        small = page.evaluate("""() => [...document.querySelectorAll('button, select, .button, summary, input[type=checkbox]')]
            .filter((e) => e.offsetParent !== null)
            .map((e) => [e.outerHTML.slice(0, 80), (e.type === 'checkbox' ? e.closest('label') ?? e.labels[0] ?? e : e).getBoundingClientRect()])
            .filter(([, r]) => r.width < 43.5 || r.height < 43.5)
            .map(([html, r]) => `${html} ${Math.round(r.width)}x${Math.round(r.height)}`)""")
        assert not small, f"touch targets under 44 px on {page.url}: {small}"


@pytest.mark.parametrize("path", PAGES)
def test_pages_fit_the_screen_and_pass_axe(sized, tables, server, path):  # tables: finished matches to list
    outside = []
    sized.on("request", lambda r: outside.append(r.url) if not r.url.startswith((server, "data:", "blob:")) else None)
    sized.goto(path)
    sized.wait_for_load_state("networkidle")
    if path in ("/docs", "/redoc"):
        sized.locator(".opblock-tag, main h2").first.wait_for()  # drawn from the API's description
    check(sized)
    assert not outside, f"{path} asked outside the site for {outside}"


@pytest.mark.parametrize("game,view", TABLES, ids=[f"{g}-{v}" for g, v in TABLES])
def test_tables_fit_the_screen_and_pass_axe(sized, tables, game, view):
    match, token = tables[game, view]
    if token:
        sized.goto("/")
        sized.evaluate("([k, v]) => localStorage.setItem(k, v)",
                       [f"parlour:seat:{match}", json.dumps({"seat": 0, "token": token})])
    sized.goto(f"/play/{match}")
    sized.locator("#board > *").first.wait_for()
    if view == "player":
        sized.get_by_text("Your move.").wait_for()
        if sized.viewport_size["width"] < 500 and game in ("uno", "yaniv", "queen_of_spades"):  # the hand pinned to the bottom hides what scrolls under it
            pinned = sized.evaluate("""() => { const s = getComputedStyle(document.querySelector('.uno-me, .yv-me, .qs-mine'));
                return [s.position, s.backgroundColor]; }""")
            assert pinned[0] == "sticky" and pinned[1].startswith("rgb("), f"the hand is not pinned, opaque: {pinned}"
    elif view == "resigned":
        sized.get_by_role("button", name="Rematch").wait_for()
    check(sized)


STATES = ["resign-question", "stepped-back", "watch-paused", "waiting-creator", "waiting-friend"]


@pytest.mark.parametrize("state", STATES)
def test_states_in_play_fit_the_screen_and_pass_axe(sized, server, state):
    status = sized.locator("#status")
    if state == "resign-question":
        start_as_person(sized, server, "uno", 3)
        status.get_by_text("Your move.").wait_for(timeout=30_000)
        sized.get_by_role("button", name="Resign…").click()
        sized.get_by_role("button", name="Yes, resign").wait_for()
    elif state == "stepped-back":
        # a dealt seed: on a random one the first turn ends the 5-slot deal about once in 150 (a Rack-O),
        # and the deal's end, not "Your move.", follows
        start_as_person(sized, server, "racko", 2, options={"rack_size": 5}, seed=1)
        status.get_by_text("Your move.").wait_for(timeout=30_000)
        sized.locator("button.rk-deck").click()
        sized.locator(".rk-me button.rk-card.target").first.click()
        status.get_by_text("Your move.").wait_for(timeout=30_000)
        sized.get_by_role("button", name="Step through the moves").click()
        sized.get_by_role("button", name="previous move").click()
        status.get_by_text(re.compile(r"^Replay \d+/")).wait_for()
    elif state == "watch-paused":
        sized.goto("/watch")
        sized.locator("#watch-game").select_option("yaniv")
        sized.locator("#watch-length").select_option("deal")
        sized.get_by_role("button", name="Start").click()
        status.get_by_text(re.compile(r"move \d+")).wait_for(timeout=30_000)
        sized.get_by_role("button", name="Pause").click()
        sized.get_by_role("button", name="Resume").wait_for()
    else:
        made = post(server, "/api/matches", {"game": "yaniv", "seats": [{"type": "human", "name": "Kim"}, {"type": "friend"},
                                                                         {"type": "agent", "level": 1}]})
        sized.goto("/")
        if state == "waiting-creator":
            sized.evaluate("([k, v]) => localStorage.setItem(k, v)",
                           [f"parlour:seat:{made['id']}", json.dumps({"seat": 0, "token": made["tokens"]["0"]})])
            sized.goto(f"/play/{made['id']}")
            sized.get_by_role("button", name="Start now with AIs in the empty seats").wait_for()
        else:
            sized.goto(made["invites"]["1"])
            sized.get_by_role("button", name="Take the seat").wait_for()
        status.get_by_text("Waiting for friends: 0 of 1 joined.").wait_for()
    check(sized)


def test_the_menu_collapses_on_a_phone(page):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/")
    nav = page.get_by_role("navigation", name="main")
    toggle = page.get_by_role("button", name="Menu")
    assert not nav.is_visible()
    toggle.click()
    assert nav.is_visible() and toggle.get_attribute("aria-expanded") == "true"
    nav.get_by_role("link", name="Results").click()
    page.wait_for_url("**/results")
    page.set_viewport_size({"width": 1280, "height": 800})
    assert page.get_by_role("navigation", name="main").is_visible()
    assert not page.get_by_role("button", name="Menu").is_visible()


def start_as_person(page, server, game: str, seats: int, level: int = 1, options: dict | None = None,
                    seed: int | None = None) -> str:
    agents = [{"type": "agent", "level": level}] * (seats - 1)
    made = post(server, "/api/matches", {"game": game, "seats": [{"type": "human", "name": "Kim"}, *agents],
                                         "options": options or {}, **({} if seed is None else {"seed": seed})})
    page.goto("/")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)",
                  [f"parlour:seat:{made['id']}", json.dumps({"seat": 0, "token": made["tokens"]["0"]})])
    page.goto(f"/play/{made['id']}")
    return made["id"]


def test_a_game_played_by_keyboard_alone_keeps_focus_on_the_table(page, server):
    """Skip link, Tab to the board, Enter to move: after each move and the AI's reply the focus is
    back on one of the board's cells, and the AI's move was read out in the live region. Two moves
    against Perfect (level 4), too few to end the game, so no finished match lands on the
    leaderboard that another test reads."""
    start_as_person(page, server, "tictactoe", 2, level=4)
    status = page.locator("#status")
    status.get_by_text("Your move.").wait_for()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Skip to the content"
    page.keyboard.press("Enter")
    for _ in range(12):  # Tab from the top of the content to the first free cell
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('ttt-cell')"):
            break
    for move in range(2):
        logged = page.locator("#log li").count()
        page.keyboard.press("Enter")
        deadline = time.monotonic() + 30
        while page.locator("#log li").count() < logged + 2:
            assert time.monotonic() < deadline, "the move and the reply never showed"
            page.wait_for_timeout(100)
        status.get_by_text("Your move.").wait_for(timeout=15_000)
        assert page.evaluate("document.activeElement.classList.contains('ttt-cell')"), f"focus left the board after move {move + 1}"
        ring = page.evaluate("(() => { const s = getComputedStyle(document.activeElement); return [s.outlineStyle, parseFloat(s.outlineWidth)]; })()")
        assert ring[0] == "solid" and ring[1] >= 3, f"no visible focus ring: {ring}"
        assert page.locator("#announce").inner_text().startswith("Perfect plays in the ")


def test_yaniv_by_keyboard_select_a_card_throw_it_and_draw(page, server):
    """A Yaniv turn with Tab and Enter: Enter selects a card and focus stays on it; Tab reaches
    'Draw from the stock'; after the move and the reply focus is still on the table."""
    start_as_person(page, server, "yaniv", 2)
    status = page.locator("#status")
    status.get_by_text("Your move.").wait_for()
    tab_to(page, ".yv-hand button.yv-card")
    card = page.evaluate("document.activeElement.dataset.card")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.dataset.card") == card
    assert page.evaluate("document.activeElement.getAttribute('aria-pressed')") == "true"
    tab_to(page, 'button.yv-take[data-take="stock"]')
    logged = page.locator("#log li").count()
    page.keyboard.press("Enter")
    deadline = time.monotonic() + 30
    while page.locator("#log li").count() < logged + 2:
        assert time.monotonic() < deadline, "the move and the reply never showed"
        page.wait_for_timeout(100)
    status.get_by_text("Your move.").wait_for(timeout=15_000)
    assert page.evaluate("document.querySelector('.felt').contains(document.activeElement)"), "focus left the table"
