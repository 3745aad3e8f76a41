"""An agent's training curve on its page: the chart for curves the page draws itself (Deep
Monte-Carlo's windows), the picture its trainer drew for the others (the Queen of Spades network's
per-model curve), at full width and at 390 px without overflow."""
import pytest
from playwright.sync_api import expect


def test_the_networks_page_shows_its_trainers_picture(page):
    page.goto("/agents/queen_of_spades/network")
    picture = page.locator("#training-picture")
    expect(picture).to_be_visible()
    assert page.evaluate("document.querySelector('#training-picture img').naturalWidth") > 0
    expect(page.locator("#training-panel")).to_be_hidden()


def test_a_chart_drawn_by_the_page_is_not_drawn_twice(page):
    page.goto("/agents/yaniv/dmc")
    expect(page.locator("#training-panel")).to_be_visible()
    expect(page.locator("#training-picture")).to_be_hidden()


@pytest.mark.parametrize("width", [390, 1280])
def test_the_picture_fits_the_page(page, width):
    page.set_viewport_size({"width": width, "height": 800})
    page.goto("/agents/racko/diablo2")
    expect(page.locator("#training-picture")).to_be_visible()
    box = page.locator("#training-picture img").bounding_box()
    assert box is not None and box["width"] <= width
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
