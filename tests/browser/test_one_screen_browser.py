"""Every table on one screen: on a 1280x800 laptop the person's whole hand or rack, the piles and the
opponents are in view without scrolling in every game (Rack-O also while holding a card); on a phone
(390x844, emulated: touch and the mobile viewport) nothing is wider than the window, measured against
its content area (clientWidth), and what the person acts on is in view on their turn."""
import json
import urllib.request

import pytest
from playwright.sync_api import expect

from agents.catalog import playable_games

SEATS = {"queen_of_spades": 4, "yaniv": 3, "uno": 3}
MINE = ".uno-me, .rk-me, .qs-mine, .yv-me, .ttt-grid"
OTHERS = ".uno-opponents, .rk-others, .qs-table, .yv-others"
PILES = ".uno-centre, .rk-centre, .yv-centre, .qs-trick"
PLACES = """(selectors) => selectors.flatMap((s) => [...document.querySelectorAll(s)]).map((e) => {
    const r = e.getBoundingClientRect();
    return { what: e.className, top: r.top, bottom: r.bottom, right: r.right }; })"""


def seated(page, server: str, game: str, holding: bool = False) -> None:
    """The person in seat 0 at a new table of ``game`` (Rack-O: holding the deck's top card)."""
    def call(path, body=None, token=None):
        headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
        request = urllib.request.Request(server + path, None if body is None else json.dumps(body).encode(), headers)
        return json.loads(urllib.request.urlopen(request, timeout=30).read())
    made = call("/api/matches", {"game": game, "seed": 2, "seats": [{"type": "human", "name": "Ann"},
                                                                     *[{"type": "agent", "level": 1}] * (SEATS.get(game, 2) - 1)]})
    token = made["tokens"]["0"]
    if holding:
        view = call(f"/api/matches/{made['id']}", token=token)
        call(f"/api/matches/{made['id']}/moves", {"action": "draw:deck", "ply": view["ply"]}, token)
    page.goto("/")
    page.evaluate("([id, token]) => localStorage.setItem(`parlour:seat:${id}`, JSON.stringify({ seat: 0, token }))",
                  [made["id"], token])
    page.goto(f"/play/{made['id']}")
    expect(page.locator("#status")).to_have_text("Your move.", timeout=30_000)
    page.wait_for_timeout(400)  # the cards' slide-in


CASES = [(game, False) for game in playable_games()] + [("racko", True)]


@pytest.mark.parametrize("game, holding", CASES, ids=[f"{g}{'-holding' if h else ''}" for g, h in CASES])
def test_a_laptop_shows_the_whole_table_without_scrolling(page, server, game, holding):
    page.set_viewport_size({"width": 1280, "height": 800})
    seated(page, server, game, holding)
    places = page.evaluate(PLACES, [MINE, OTHERS, PILES] if game != "tictactoe" else [MINE])
    assert len(places) == (1 if game == "tictactoe" else 3), places
    assert page.evaluate("scrollY") == 0
    for p in places:
        assert p["bottom"] <= 800 and p["right"] <= 1280, f"{p['what']} ends at {p['bottom']:.0f} px on an 800 px screen"


# What the person acts on, on their turn: it must be in view (scrolled there at most by the page itself).
ACT = {"uno": ".uno-hand", "yaniv": ".yv-hand", "queen_of_spades": ".qs-hand", "tictactoe": ".ttt-grid", "racko": ".rk-centre"}


@pytest.mark.parametrize("game, holding", CASES, ids=[f"{g}{'-holding' if h else ''}" for g, h in CASES])
def test_a_phone_fits_the_width_and_shows_what_you_act_on(phone, server, game, holding):
    seated(phone, server, game, holding)
    sizes = phone.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert sizes[0] <= sizes[1], f"{game} is {sizes[0]} px wide in a {sizes[1]} px window"
    targets = [ACT[game]] + ([".rk-me .rk-rack", ".rk-hand"] if holding else [])
    for target in targets:
        box = phone.evaluate("(s) => { const r = document.querySelector(s).getBoundingClientRect(); return [r.top, r.bottom, r.right]; }", target)
        assert box[0] >= 0 and box[1] <= 844 and box[2] <= 390, f"{target} is at {box} in a 390x844 window"


LONG = "An Extraordinarily Long AI Name"


def test_the_uno_deal_end_on_a_phone_keeps_cards_in_rows_and_its_heading_in_sight(phone, server):
    """The deal-end panel of a deal whose players have long names and many cards left: each
    hand's cards share rows (not one a row), every column is inside the panel, and the heading
    stays at the top of the panel as it scrolls."""
    seated(phone, server, "uno")
    measured = phone.evaluate("""async (long) => {
        const uno = await import('/static/js/tables/uno.js');
        const hand = ['r1', 'g2', 'b3', 'y4', 'rskip', 'wild', 'gd2', 'b9', 'y0', 'r7', 'g5', 'wd4'];
        const view = { last_deal: { deal: 0, winner: 0, points: 231, hands: [[], hand, hand.slice(3)] },
                       scores: [231, 0, 0], options: { target_score: 500 }, single_deal: false };
        const end = uno.dealEnd(view, { seat: 0, names: ['Ann', long, long + ' B'] });
        const panel = document.getElementById('deal-end');
        const title = document.createElement('h2');
        title.textContent = end.title;
        panel.replaceChildren(title, ...end.body);
        panel.showModal();
        const cards = [...panel.querySelectorAll('tr.hand-row')[1].querySelectorAll('.uno-card')].map((c) => c.getBoundingClientRect().top);
        const inside = [...panel.querySelectorAll('th, td')].every((c) => c.getBoundingClientRect().right <= panel.getBoundingClientRect().right);
        panel.scrollTop = panel.scrollHeight;
        await new Promise(requestAnimationFrame);
        const heading = title.getBoundingClientRect().top - panel.getBoundingClientRect().top;
        return { rows: new Set(cards).size, cards: cards.length, inside, wide: panel.scrollWidth <= panel.clientWidth, heading,
                 scrolled: panel.scrollTop };
    }""", LONG)
    assert measured["cards"] == 12 and measured["rows"] <= 3, measured  # about six cards a row, not one
    assert measured["inside"] and measured["wide"], measured
    assert measured["scrolled"] == 0 or abs(measured["heading"]) <= 1, measured


def test_the_watch_page_brings_pause_and_step_into_view_on_a_phone(phone):
    phone.goto("/watch")
    phone.locator("#watch-game").select_option("yaniv")
    phone.locator('input[name="games"]').fill("1")
    phone.get_by_role("button", name="Start").click()
    pause = phone.get_by_role("button", name="Pause")
    expect(pause).to_be_enabled(timeout=30_000)
    for button in (pause, phone.get_by_role("button", name="Step")):
        box = button.bounding_box()
        assert 0 <= box["y"] and box["y"] + box["height"] <= 844, f"{box} is outside the 844 px screen"
