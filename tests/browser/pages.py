"""Steps the browser tests share."""


def watch(page, game: str, games: int) -> None:
    """Open the watch page and start ``games`` AI-only games of ``game`` at full speed."""
    page.goto("/watch")
    page.locator("#watch-game").select_option(game)
    page.locator("#speed").fill("0")
    page.locator('input[name="games"]').fill(str(games))
    page.get_by_role("button", name="Start").click()
