"""Words a player would say: every log line tells its mover in the third person ("Nina plays") and the
person as "you" ("You play"), one line per event (Rack-O's move is not told twice), one resign
sentence in every game, the same AI names on the watch page's board, tally and chart; and the
optional sounds, off until switched on and remembered."""
import json
import re
import time
import urllib.request

import pytest
from playwright.sync_api import expect

from agents.catalog import playable_games
from tests.browser import test_uno_browser as uno
from tests.browser import test_yaniv_browser as yaniv
from tests.browser.pages import sit_at

AI = {"type": "agent", "level": 1}
SEATS = {"queen_of_spades": 4, "yaniv": 3}
# the verbs a move line may start with: the person's, then anyone else's
YOU = r"You (play|draw|pass|name|challenge|accept|catch|call|throw|put|take|discard|resign)\b"
THEY = r"\S.* (plays|draws|passes|names|challenges|accepts|catches|calls|throws|puts|takes|discards|resigns)\b"


@pytest.mark.parametrize("game, act", [
    ("uno", uno.take_a_turn),
    ("yaniv", yaniv.take_a_turn),
    ("racko", lambda p: (p.locator("button.rk-deck").click(), p.locator(".rk-me button.rk-card.target").first.click())),
    ("queen_of_spades", lambda p: p.locator(".qs-hand button.qs-card.legal").first.click()),
    ("tictactoe", lambda p: p.locator("button.ttt-cell").first.click()),
])
def test_log_lines_say_you_and_they(page, server, game, act):
    sit_at(page, server, game, [AI] * (SEATS.get(game, 2) - 1), seed=5)
    status = page.locator("#status")
    for _ in range(6):  # the person's turns until the log holds a move of each
        expect(status).to_have_text("Your move.", timeout=30_000)
        lines = page.locator("#log .log-move").all_inner_texts()
        if any(line.startswith("You ") for line in lines) and any(not line.startswith("You ") for line in lines):
            break
        act(page)
        expect(status).not_to_have_text("…", timeout=30_000)
    else:
        raise AssertionError(f"no moves of both kinds in the log: {lines}")
    for line in lines:
        assert re.match(YOU, line) or (re.match(THEY, line) and not line.startswith("You ")), line
    if game == "racko":  # the move's line says it all; its events do not say it again
        mine = page.locator("#log > li[data-ply]").filter(has_text=re.compile(r"^You put \d+ in slot \d+, discarding \d+"))
        expect(mine).to_have_count(1)
        expect(mine.locator(".log-events li", has_text="slot")).to_have_count(0)


@pytest.mark.parametrize("game", playable_games())
def test_one_resign_sentence_in_every_game(page, server, game):
    """And once resigned, the board says nobody is to move (a match ended from outside its rules
    keeps its last view, whose seat to move is nobody's turn any more)."""
    sit_at(page, server, game, [AI] * (SEATS.get(game, 2) - 1))
    expect(page.locator("#status")).to_have_text("Your move.", timeout=30_000)
    page.locator('[data-action="resign"]').click()
    page.get_by_role("button", name="Yes, resign").click()
    expect(page.locator("#status")).to_have_text(re.compile(r"^You resigned\. \S.* wins?\.$"))
    expect(page.locator("#board")).not_to_contain_text(re.compile(r"to play|your turn", re.I))
    expect(page.locator("#board .to-move")).to_have_count(0)


def test_the_watch_page_names_each_ai_alike_on_the_board_the_tally_and_the_chart(page):
    page.goto("/watch")
    page.locator("#watch-game").select_option("uno")
    seats = page.locator("#watch-seats select")
    seats.nth(0).select_option("offensive")
    seats.nth(1).select_option("offensive")
    page.locator("#watch-length").select_option("deal")
    watch_games = 2
    page.locator("#speed").fill("0")
    page.locator('input[name="games"]').fill(str(watch_games))
    page.get_by_role("button", name="Start").click()
    expect(page.locator("#status")).to_have_text("Done: 2 deals.", timeout=120_000)
    tally = page.locator("#tally > div").all_inner_texts()
    assert [t.split(":")[0] for t in tally[:2]] == ["Offensive A", "Offensive B"], tally
    board = sorted(page.locator("#board .uno-seat .who strong").all_inner_texts())
    assert board == ["Offensive A", "Offensive B"], board
    assert page.evaluate("Chart.getChart('chart').data.datasets.map((d) => d.label)") == ["Offensive A", "Offensive B"]


# Web Audio as the page sees it: every note played is written down (frequencies in Hz).
NOTES = """window.__notes = [];
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.state = "running"; this.destination = {}; }
  resume() {}
  createGain() { return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (d) => d }; }
  createOscillator() { const o = { frequency: { value: 0 }, connect: (g) => g, start: () => window.__notes.push(o.frequency.value), stop() {} }; return o; }
};"""


def test_sounds_are_off_until_switched_on_then_chime_on_your_turn_and_are_remembered(page, server):
    page.context.add_init_script(NOTES)
    match = sit_at(page, server, "tictactoe", [AI])
    status = page.locator("#status")
    expect(status).to_have_text("Your move.")
    toggle = page.get_by_role("button", name="Sounds off")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    page.locator("button.ttt-cell").first.click()  # sounds off: the turn coming back is silent
    expect(status).to_have_text(re.compile("Your move|wins|draw"), timeout=30_000)
    assert page.evaluate("window.__notes") == []
    toggle.click()
    expect(page.get_by_role("button", name="Sounds on")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("window.__notes") == [660, 880]  # switching on plays the chime once
    page.reload()
    expect(page.get_by_role("button", name="Sounds on")).to_be_visible()  # remembered
    expect(status).to_have_text("Your move.")
    page.locator("button.ttt-cell").first.click()
    expect(status).to_have_text(re.compile("Your move|wins|draw"), timeout=30_000)
    deadline = time.monotonic() + 10
    while not page.evaluate("window.__notes").__len__():
        assert time.monotonic() < deadline, "no chime when the turn came back"
        page.wait_for_timeout(100)
    notes = page.evaluate("window.__notes")
    assert notes in ([660, 880], [784, 659, 523]), notes  # your turn again, or the game's end
    view = json.loads(urllib.request.urlopen(f"{server}/api/matches/{match}").read())
    assert (notes == [784, 659, 523]) == (view["status"] == "finished")
