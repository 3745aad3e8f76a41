"""Two people at two browsers play each game to its end, an AI at the table where the game has room:
the creator's table is opened with its token, the friend's from the invite link. Whoever's turn it
is clicks; neither page ever shows the other person's hidden cards; both end on the same result.
(Yaniv's version, through the lobby's invite form: test_friends_browser.py.)"""
import json
import re
import time
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.browser.test_racko_browser import take_a_turn as racko_turn
from tests.browser.test_uno_browser import take_a_turn as uno_turn

END = re.compile(r"\bwins?\b|You win|draw")


def tictactoe_turn(page) -> None:
    page.locator("button.ttt-cell").first.click()


def queen_of_spades_turn(page) -> None:
    page.locator(".qs-hand button.qs-card.legal").last.click()


# game: (the AI seats, options that end the match with its first deal, one turn by clicking,
#        what would show another seat's hidden cards on a person's page while the deal runs,
#        what shows them face down instead)
GAMES = {
    "tictactoe": ([], {}, tictactoe_turn, None, None),
    "uno": ([{"type": "agent", "agent": "random"}], {"target_score": 1}, uno_turn, ".uno-seat .uno-card",
            ".uno-seat .uno-back"),
    # Rack-O at 10 slots, ended after 9 turns: at 5 slots Kyle went Rack-O before both people had moved
    # (1 person's turn in a browser run of 27 November 2026); 10 dealt in order is about 1 in 3.6 million
    "racko": ([{"type": "agent", "agent": "kyle"}], {"rack_size": 10, "target_score": 1, "max_turns": 9},
              lambda page: racko_turn(page, 10, 50), ".rk-seat .rk-chip:not(.back):not(.known)", ".rk-seat .rk-chip.back"),
    "queen_of_spades": ([{"type": "agent", "agent": "rules"}] * 2, {"deals": 1}, queen_of_spades_turn,
                        ".qs-seat .qs-card:not(.back)", ".qs-seat .qs-card.back"),
}


def api(server: str, path: str, body: dict | None = None) -> dict:
    request = urllib.request.Request(f"{server}{path}", data=json.dumps(body).encode() if body else None,
                                     headers={"Content-Type": "application/json"})
    return json.loads(urllib.request.urlopen(request, timeout=30).read())


@pytest.mark.parametrize("game", list(GAMES))
def test_two_people_at_two_browsers_play_with_an_ai(page, browser, server, game):
    ais, options, take_a_turn, hidden, backs = GAMES[game]
    created = api(server, "/api/matches", {"game": game, "options": options, "seats": [
        {"type": "human", "name": "Ann"}, {"type": "friend"}, *ais]})
    match = created["id"]
    page.goto("/")
    page.evaluate("([id, token]) => localStorage.setItem(`parlour:seat:${id}`, JSON.stringify({ seat: 0, token }))",
                  [match, created["tokens"]["0"]])
    page.goto(f"/play/{match}")
    expect(page.locator("#status")).to_have_text("Waiting for friends: 0 of 1 joined.")

    context = browser.new_context(viewport={"width": 1280, "height": 860}, base_url=server)
    errors: list[str] = []
    friend = context.new_page()
    friend.on("pageerror", lambda e: errors.append(str(e)))
    try:
        friend.goto(created["invites"]["1"])
        friend.locator('input[name="join-name"]').fill("Bo")
        friend.get_by_role("button", name="Take the seat").click()
        expect(page.locator("#seats")).to_contain_text("Bo", timeout=20_000)

        players, turns, peeks = {page: "Bo", friend: "Ann"}, 0, 0
        deadline = time.time() + 300
        while api(server, f"/api/matches/{match}")["status"] == "active":
            assert time.time() < deadline, [p.locator("#status").inner_text() for p in players]
            mover = next((p for p in players if p.locator("#status").inner_text() == "Your move."), None)
            if mover is None:
                time.sleep(0.1)
                continue
            other = friend if mover is page else page
            expect(other.locator("#status")).to_have_text(f"{players[other]} is thinking…", timeout=20_000)
            if hidden:  # mid-deal: the other seats' cards are backs on both pages
                for p in players:
                    assert p.locator(hidden).count() == 0, f"{game}: another seat's cards show on a person's page"
                    peeks += p.locator(backs).count() > 0  # (none left at the end of a last trick)
            ply = api(server, f"/api/matches/{match}")["ply"]
            take_a_turn(mover)
            moved = time.time() + 20  # the move reached the server, or Uno's colour picker opened
            while api(server, f"/api/matches/{match}")["ply"] == ply and not mover.locator(".uno-picker:not([hidden])").count():
                assert time.time() < moved, f"{game}: the move never reached the server"
                time.sleep(0.05)
            turns += api(server, f"/api/matches/{match}")["ply"] != ply
        final = api(server, f"/api/matches/{match}")
        assert final["status"] == "finished" and turns >= 2
        assert not hidden or peeks >= 4, "the other seats' cards were never drawn face down: the check saw nothing"
        for p in players:
            next_deal = p.locator('[data-action="next-deal"]')
            if next_deal.count() and next_deal.is_visible():
                next_deal.click()
            expect(p.locator("#status")).to_have_text(END, timeout=20_000)
            expect(p.locator("#log li").nth(turns - 1)).to_be_attached()  # a line for every move (at least)
        words = [p.locator("#status").inner_text() for p in players]
        winners = [final["seats"][w]["display_name"] for w in final["result"]["winners"]]
        if not winners:
            assert all("draw" in w for w in words), words
        else:  # the same result on both pages, each in its own words ("You win!" to the winner)
            for p, w in zip(players, words):
                me = "Ann" if p is page else "Bo"
                assert ("You win" in w) if me in winners else any(name in w for name in winners), (me, w, winners)
    finally:
        context.close()
    assert not errors, f"JavaScript errors on the friend's page: {errors}"
