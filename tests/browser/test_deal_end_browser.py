"""Every game with deals: a deal played to its end by clicking shows the deal-end panel (who
went out or called, every hand, the points, the scores) and holds the next deal back until
"Next deal" (or Escape); the panel is a modal dialog (the table behind it inert) that passes
axe-core, at a laptop's size and (Queen of Spades) a phone's; the log tells the events in words
and the moves can be stepped through in play."""
import json
import re
import urllib.request

from playwright.sync_api import expect

from tests.browser import test_racko_browser as racko
from tests.browser import test_uno_browser as uno
from tests.browser import test_yaniv_browser as yaniv
from tests.browser.pages import sit_at
from tests.browser.test_accessibility_browser import check

AI = {"type": "agent", "level": 1}


def play_to_deal_end(page, take_a_turn, turns: int = 80):
    """The person's turns until the deal-end panel shows."""
    status, panel = page.locator("#status"), page.locator("#deal-end")
    for _ in range(turns):
        expect(status).to_have_text(re.compile(r"Your move|Deal \d+"), timeout=30_000)
        if panel.is_visible():
            return panel
        take_a_turn(page)
        expect(status).not_to_have_text("…", timeout=30_000)
    raise AssertionError("the deal did not end")


def check_held_then_next(page, panel, moves: str, escape: bool = False):
    """The panel holds the next deal back until Next deal, or Escape when ``escape`` (``moves``:
    the board's move controls)."""
    expect(panel.locator("h2")).to_have_text(re.compile(r"^Deal 1"))
    assert panel.evaluate("(d) => d.matches('dialog:modal')"), "the deal end is not a modal dialog"
    # the page behind is inert: its Lobby link cannot take the focus
    assert page.evaluate("() => { const a = document.querySelector('#controls a'); a.focus(); return document.activeElement !== a; }"), \
        "the table behind the deal end takes the focus"
    check(page)
    expect(page.locator("#log li.deal-sep").last).to_have_text("Deal 2")
    # nothing of deal 2 is logged while the panel is open (the separator is the last line)
    assert page.locator("#log > li").last.get_attribute("class") == "deal-sep"
    assert page.locator(moves).count() == 0  # no move can be made under the panel
    next_deal = page.get_by_role("button", name="Next deal")
    expect(next_deal).to_be_focused()
    if escape:
        page.keyboard.press("Escape")
    else:
        next_deal.click()
    expect(panel).to_be_hidden()
    expect(page.locator("#status")).to_have_text(re.compile(r"Your move"), timeout=30_000)


def test_uno_deal_end(page, server):
    sit_at(page, server, "uno", [AI, AI], seed=7)
    panel = play_to_deal_end(page, uno.take_a_turn, turns=150)
    expect(panel.locator("tbody tr[data-seat]")).to_have_count(3)
    expect(panel).to_contain_text(re.compile(r"went out and scored \d+"))
    # two AIs of one level are told apart by their display names, in the panel as on the table;
    # the person is "You"
    names = panel.locator("tbody th").all_inner_texts()
    assert names[0] == "You" and names[1].endswith(" A") and names[2].endswith(" B"), names
    check_held_then_next(page, panel, "#board button.uno-card.playable")


def test_racko_deal_end(page, server):
    sit_at(page, server, "racko", [AI], options={"rack_size": 5, "max_turns": 40})
    panel = play_to_deal_end(page, lambda p: racko.take_a_turn(p, 5, 20))
    expect(panel.locator("h2")).to_have_text(re.compile(r"called Rack-O!|no Rack-O"))
    expect(panel.locator(".rk-result-seat")).to_have_count(2)
    check_held_then_next(page, panel, "#board button.rk-deck")


def test_yaniv_deal_end(page, server):
    sit_at(page, server, "yaniv", [AI])
    panel = play_to_deal_end(page, yaniv.take_a_turn)
    expect(panel.locator("h2")).to_have_text(re.compile(r"called Yaniv"))
    expect(panel.locator("li[data-seat]")).to_have_count(2)
    check_held_then_next(page, panel, ".yv-hand button.yv-card", escape=True)


def test_queen_of_spades_deal_end_on_a_phone(page, server):
    page.set_viewport_size({"width": 390, "height": 844})
    sit_at(page, server, "queen_of_spades", [AI] * 3, options={"deals": 2})
    panel = play_to_deal_end(page, lambda p: p.locator(".qs-hand button.qs-card.legal").last.click(), turns=9)
    expect(panel.locator("h2")).to_have_text(re.compile(r"^Deal 1 of 2: .+ took (the Q♠ trick|every trick)"))
    expect(panel.locator("li[data-seat]")).to_have_count(4)
    check_held_then_next(page, panel, "#board button.qs-card.legal")


def api(server, path, body=None, token=None):
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    request = urllib.request.Request(f"{server}{path}", data=None if body is None else json.dumps(body).encode(),
                                     headers=headers)
    return json.loads(urllib.request.urlopen(request, timeout=30).read())


def test_the_uno_log_names_a_draw_two_penalty_and_steps_through_moves(page, server):
    """Deals with the first legal move until a Draw Two's penalty is in the table's log (the
    seed varies until one is), then the page's log says who drew and the moves step."""
    for seed in range(1, 60):
        created = api(server, "/api/matches", {"game": "uno", "seed": seed, "seats": [{"type": "human"}, AI]})
        match, token = created["id"], created["tokens"]["0"]
        for _ in range(10):
            view = api(server, f"/api/matches/{match}", token=token)
            if any(e["event"] == "penalty" and e["count"] == 2 for e in view["view"]["log"]):
                break
            api(server, f"/api/matches/{match}/moves", {"action": view["legal_actions"][0]["id"]}, token)
        else:
            continue
        break
    victim = next(e["seat"] for e in view["view"]["log"] if e["event"] == "penalty")
    page.goto("/")
    page.evaluate("([id, token]) => localStorage.setItem(`parlour:seat:${id}`, JSON.stringify({ seat: 0, token }))",
                  [match, token])
    page.goto(f"/play/{match}")
    # the person is "You" in the log, anyone else by name
    draws, loses = (("You draw", "You lose") if victim == 0 else (f"{view['seats'][victim]['name']} draws", f"{view['seats'][victim]['name']} loses"))
    expect(page.locator("#log .log-events li", has_text=f"{draws} 2 as a penalty")).to_have_count(1)
    expect(page.locator("#log .log-events li", has_text=f"{loses} a turn").first).to_be_visible()
    expect(page.locator("#log li.deal-sep").first).to_have_text("Deal 1")
    # step through the moves during play, then back to the game
    page.locator("#log > li[data-ply] button.log-move").first.click()
    expect(page.locator("#status")).to_contain_text("Replay 1/")
    page.get_by_role("button", name="previous move").click()
    expect(page.locator("#status")).to_have_text("Replay: the deal")
    page.get_by_role("button", name="Back to the game").click()
    expect(page.locator("#status")).to_have_text("Your move.")
