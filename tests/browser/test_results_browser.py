"""The results page lists the newest matches a page at a time: "Older matches" adds the next
page under them, and disappears on the last."""
import json
import urllib.request

from playwright.sync_api import expect


def create(server: str, name: str) -> str:
    body = {"game": "tictactoe", "seats": [{"type": "human", "name": name}, {"type": "human", "name": "Pager B"}]}
    request = urllib.request.Request(f"{server}/api/matches", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    return json.loads(urllib.request.urlopen(request, timeout=30).read())["id"]


def test_older_matches_come_a_page_at_a_time(page, server):
    for k in range(27):  # more than a page (25), whatever other tests left
        create(server, f"Pager {k}")
    with urllib.request.urlopen(f"{server}/api/matches?per_page=1", timeout=30) as r:
        total = json.loads(r.read())["total"]
    page.goto("/results")
    rows = page.locator("#recent tbody tr")
    expect(rows).to_have_count(25)
    expect(rows.first).to_contain_text("Pager 26")  # the newest first
    more = page.get_by_role("button", name="Older matches")
    pages = 1
    while pages * 25 < total:
        more.click()
        pages += 1
        expect(rows).to_have_count(min(total, 25 * pages))
    expect(more).to_be_hidden()
    assert len(set(page.locator("#recent tbody tr a[href^='/play/']").evaluate_all("as => as.map(a => a.href)"))) == total
