"""Steps the browser tests share."""


def lobby(page, game: str) -> None:
    """Open the lobby at ``game``'s tab (the lobby shows one game at a time)."""
    page.goto("/")
    page.locator(f"#tab-{game}").click()


def watch(page, game: str, games: int) -> None:
    """Open the watch page and start ``games`` AI-only games of ``game`` at full speed."""
    page.goto("/watch")
    page.locator("#watch-game").select_option(game)
    page.locator("#speed").fill("0")
    page.locator('input[name="games"]').fill(str(games))
    page.get_by_role("button", name="Start").click()


def sit_at(page, server: str, game: str, opponents: list[dict], options: dict | None = None,
           seed: int | None = None, name: str | None = "Ann") -> str:
    """Create a match through the API with the person in seat 0 (named ``name``; None: no name),
    keep its token in this browser as the lobby does, and open its table; returns the match id."""
    import json
    import urllib.request

    person = {"type": "human", **({"name": name} if name else {})}
    body = {"game": game, "seats": [person, *opponents], "options": options or {}}
    if seed is not None:
        body["seed"] = seed
    request = urllib.request.Request(f"{server}/api/matches", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    created = json.loads(urllib.request.urlopen(request, timeout=30).read())
    page.goto("/")
    page.evaluate("([id, token]) => localStorage.setItem(`parlour:seat:${id}`, JSON.stringify({ seat: 0, token }))",
                  [created["id"], created["tokens"]["0"]])
    page.goto(f"/play/{created['id']}")
    return created["id"]


TABBABLE = "a[href], button:not([disabled]), input, select, textarea, summary, [tabindex]:not([tabindex='-1'])"


def tab_to(page, selector: str) -> None:
    """Press Tab until a control matching ``selector`` has the focus: at most once round every
    control (the log holds a button per move, so a long deal has over a hundred of them)."""
    for _ in range(page.locator(TABBABLE).count() + 5):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")
