"""Two people at one Yaniv table: the creator invites a friend by link, the friend joins from
another browser, and they play a deal to its end with an AI, each seeing the other's moves; the
joiner's browser keeps the seat's own token (not the link's), through a resignation, a reload and
a rematch."""
import re
import time
import urllib.error
import urllib.request

from playwright.sync_api import expect

from tests.browser.pages import lobby
from tests.browser.test_friends_games_browser import api
from tests.browser.test_yaniv_browser import take_a_turn

STATE = "fetch(location.pathname.replace('/play/', '/api/matches/')).then(r => r.json()).then(d => [d.to_move, d.ply, d.status])"


def test_two_browsers_join_one_yaniv_table_by_the_invite_link_and_play_a_deal(page, browser, server):
    lobby(page, "yaniv")
    form = page.locator('form[data-game="yaniv"]')
    form.locator('select[name="opponents"]').select_option("2")
    form.locator('select[name="level0"]').select_option("friend")
    form.locator('select[name="level1"]').select_option("1")
    form.get_by_role("button", name=re.compile("Play")).click()
    link = form.locator(".invite-url").input_value()
    assert re.search(r"/play/[0-9a-f]{32}#join=1\.[\w-]+$", link)
    form.get_by_role("link", name="Go to the table").click()
    page.wait_for_url(re.compile(r"/play/[0-9a-f]{32}$"))
    expect(page.locator("#status")).to_have_text("Waiting for friends: 0 of 1 joined.")
    expect(page.locator("#seats")).to_contain_text("invited, not joined yet")

    context = browser.new_context(viewport={"width": 1280, "height": 860}, base_url=server)
    errors = []
    friend = context.new_page()
    friend.on("pageerror", lambda e: errors.append(str(e)))
    friend.goto(link)
    assert "#join" not in friend.url  # the token leaves the address bar
    friend.locator('input[name="join-name"]').fill("Bo")
    friend.get_by_role("button", name="Take the seat").click()
    expect(page.locator("#seats")).to_contain_text("Bo", timeout=20_000)  # the creator's table hears it
    expect(friend.locator("#seats")).to_contain_text("Tess")

    players, saw_thinking = [page, friend], False
    deadline = time.time() + 240
    while not all(p.locator(".yv-result").count() for p in players):
        assert time.time() < deadline, f"the deal did not end: {[p.locator('#status').inner_text() for p in players]}, {page.evaluate(STATE)}"
        mover = next((p for p in players if p.locator("#status").inner_text() == "Your move."), None)
        if mover is None:
            time.sleep(0.2)
            continue
        other = friend if mover is page else page
        if not saw_thinking:  # the other person is told who is thinking
            expect(other.locator("#status")).to_have_text(f"{'Tess' if mover is page else 'Bo'} is thinking…", timeout=20_000)
            saw_thinking = True
        take_a_turn(mover)
        expect(mover.locator("#status")).not_to_have_text("…", timeout=20_000)
    for p in players:
        expect(p.locator(".yv-result summary")).to_contain_text(re.compile(r"Yaniv!|Assaf!"))
        expect(p.locator(".yv-result li")).to_have_count(3)
    assert page.locator("#log li").count() >= 3 and friend.locator("#log li").count() >= 3
    context.close()
    assert not errors, f"JavaScript errors on the friend's page: {errors}"


def status_of(server, match_id, token):
    """The HTTP status of a GET of the match with ``token``."""
    request = urllib.request.Request(f"{server}/api/matches/{match_id}", headers={"Authorization": f"Bearer {token}"})
    try:
        return urllib.request.urlopen(request, timeout=30).status
    except urllib.error.HTTPError as e:
        return e.code


def kept_token(p, match_id):
    return p.evaluate("(id) => JSON.parse(localStorage.getItem(`parlour:seat:${id}`))", match_id)


def test_the_joiner_keeps_the_seats_own_token_and_a_rematch_invites_again(page, browser, server):
    """The friend's browser keeps the token the join answered with (the link's is dead after it)
    and resigns, reloads and asks for a rematch with it; the creator joins the rematch by its link."""
    created = api(server, "/api/matches", {"game": "tictactoe", "seats": [{"type": "human", "name": "Ann"}, {"type": "friend"}]})
    match, invite = created["id"], created["invites"]["1"].rpartition(".")[2]
    assert list(created["tokens"]) == ["0"]
    page.goto("/")
    page.evaluate("([id, token]) => localStorage.setItem(`parlour:seat:${id}`, JSON.stringify({ seat: 0, token }))",
                  [match, created["tokens"]["0"]])
    page.goto(f"/play/{match}")
    context = browser.new_context(viewport={"width": 1280, "height": 860}, base_url=server)
    errors: list[str] = []
    friend = context.new_page()
    friend.on("pageerror", lambda e: errors.append(str(e)))
    try:
        friend.goto(created["invites"]["1"])
        friend.locator('input[name="join-name"]').fill("Bo")
        friend.get_by_role("button", name="Take the seat").click()
        expect(friend.locator("#status")).to_have_text("Ann is thinking…", timeout=20_000)
        kept = kept_token(friend, match)
        assert kept["seat"] == 1 and kept["token"] != invite
        assert status_of(server, match, invite) == 403 and status_of(server, match, kept["token"]) == 200
        friend.locator('[data-action="resign"]').click()  # with the token the join gave, not reloaded
        friend.locator('[data-action="resign-yes"]').click()
        expect(page.locator("#status")).to_contain_text("Bo resigned. You win!", timeout=20_000)
        friend.reload()
        expect(friend.locator("#status")).to_contain_text("Ann wins")
        friend.get_by_role("button", name="Rematch").click()  # Bo asks; Ann gets a link
        link = friend.locator(".invite-url").input_value()
        again = re.search(r"/play/([0-9a-f]{32})#join=0\.([\w-]+)$", link)
        assert again and again.group(1) != match
        page.goto(link)
        page.locator('input[name="join-name"]').fill("Ann")
        page.get_by_role("button", name="Take the seat").click()
        expect(page.locator("#status")).to_have_text("Your move.", timeout=20_000)
        assert status_of(server, again.group(1), again.group(2)) == 403  # Bo's copy of Ann's link
        assert kept_token(page, again.group(1))["token"] != again.group(2)
        friend.get_by_role("link", name="Go to the table").click()
        expect(friend.locator("#status")).to_have_text("Ann is thinking…", timeout=20_000)
    finally:
        context.close()
    assert not errors, f"JavaScript errors on the friend's page: {errors}"
