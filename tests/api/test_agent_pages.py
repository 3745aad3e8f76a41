"""An agent's page and the picture its trainer drew: shown for agents with a shipped picture,
404 (with a reason) for the others and for unknown agents."""
from agents.saved_files import saved_path


def test_a_shipped_picture_is_served_as_svg_and_the_page_offers_it(client):
    r = client.get("/agents/queen_of_spades/network/training.svg")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("image/svg+xml")
    assert r.content == saved_path("queen_of_spades", "network").with_suffix(".svg").read_bytes()
    page = client.get("/agents/queen_of_spades/network").text
    assert 'id="training-picture"' in page and 'data-src="/agents/queen_of_spades/network/training.svg"' in page


def test_no_picture_no_panel_and_a_reasoned_404(client):
    for game, agent in (("uno", "random"), ("racko", "lookahead-deep")):  # nothing shipped beside them
        page = client.get(f"/agents/{game}/{agent}")
        assert page.status_code == 200 and 'id="training-picture"' not in page.text
        r = client.get(f"/agents/{game}/{agent}/training.svg")
        assert r.status_code == 404 and "no picture" in r.text
    r = client.get("/agents/uno/nobody/training.svg")
    assert r.status_code == 404 and "nobody" in r.text
