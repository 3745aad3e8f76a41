"""Client addresses behind a proxy (issue 23): X-Forwarded-For counts only when the peer that
connected is one of PARLOUR_TRUSTED_PROXIES, walked from the right past them."""
import ipaddress
import random

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from app.addresses import client_of, trusted_networks
from app.main import create_app
from app.serve import main as serve
from tests.api.test_live_menace import HUMAN, LIVE
from tests.conftest import play_randomly

PROXIES = "10.0.0.0/8, 2001:db8::/32"
NETS = trusted_networks(PROXIES)


def test_the_rightmost_address_that_is_not_a_trusted_proxy_is_the_client():
    cases = [
        ("203.0.113.7", ["1.2.3.4"], "203.0.113.7"),  # a stranger's header is never read
        ("10.0.0.2", [], "10.0.0.2"),  # the proxy itself, forwarding nobody
        ("10.0.0.2", ["198.51.100.1"], "198.51.100.1"),
        ("10.0.0.2", ["6.6.6.6, 198.51.100.1"], "198.51.100.1"),  # what the client wrote is skipped
        ("10.0.0.2", ["6.6.6.6", "198.51.100.1, 10.0.0.9"], "198.51.100.1"),  # two headers, two proxies
        ("10.0.0.2", ["10.0.0.3, 10.0.0.9"], "10.0.0.3"),  # every hop trusted: the furthest one
        ("10.0.0.2", ["6.6.6.6, garbage, 10.0.0.9"], "10.0.0.9"),  # no made-up clients past a bad entry
        ("10.0.0.2", ["198.51.100.1:4711"], "198.51.100.1"),
        ("10.0.0.2", ["[2001:db9::1]:80, ,"], "2001:db9::/64"),  # an IPv6 client is its /64
        ("10.0.0.2", ["2001:db9:0:7:abcd::9"], "2001:db9:0:7::/64"),
        ("2001:db9:0:7:1::1", [], "2001:db9:0:7::/64"),  # direct, untrusted: the same /64
        ("::1", [], "::/64"),
        ("2001:db8::5", ["::ffff:198.51.100.2"], "198.51.100.2"),
        ("::ffff:10.0.0.2", ["198.51.100.3"], "198.51.100.3"),
        (None, ["198.51.100.1"], "unknown"),
        ("testclient", ["198.51.100.1"], "testclient"),
    ]
    for peer, forwarded, expected in cases:
        assert client_of(peer, forwarded, NETS) == expected, (peer, forwarded)
    assert client_of("10.0.0.2", ["198.51.100.1"], ()) == "10.0.0.2"  # none configured: never read
    assert NETS == (ipaddress.ip_network("10.0.0.0/8"), ipaddress.ip_network("2001:db8::/32"))


def learned(c: TestClient, forwarded: str | None) -> bool:
    """Create a match with MENACE as the client behind ``forwarded``, play it out; learned from?"""
    headers = {} if forwarded is None else {"X-Forwarded-For": forwarded}
    r = c.post("/api/matches", json={"game": "tictactoe", "seats": [HUMAN, LIVE]}, headers=headers)
    assert r.status_code == 201, r.text
    token = {"Authorization": f"Bearer {r.json()['tokens']['0']}"}
    return play_randomly(c, r.json()["id"], token, random.Random(1))["learning"]["1"]["learned"]


@pytest.mark.parametrize("proxies", ["", PROXIES])
def test_a_client_reaching_the_server_directly_cannot_spoof_its_address(db_url, monkeypatch, proxies):
    """The issue's attack: a random X-Forwarded-For per game. It was 400 of 400 learned; now the
    learning limit and the creation limit hold at the client's own address."""
    monkeypatch.setenv("PARLOUR_TRUSTED_PROXIES", proxies)
    monkeypatch.setenv("PARLOUR_LEARN_LIMIT", "2")
    rng = random.Random(5)
    spoofed = lambda: f"{rng.randrange(1, 224)}.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"
    with TestClient(create_app(db_url, preload=False), client=("203.0.113.7", 50000)) as c:
        assert [learned(c, spoofed()) for _ in range(5)] == [True, True, False, False, False]
        # the five matches above count too (the creation limit is counted in the database): three more
        monkeypatch.setenv("PARLOUR_CREATE_LIMIT", "8")
        answers = [c.post("/api/matches", json={"game": "tictactoe", "seats": [HUMAN, HUMAN]},
                          headers={"X-Forwarded-For": spoofed()}).status_code for _ in range(5)]
    assert answers == [201, 201, 201, 429, 429]


def test_behind_a_trusted_proxy_each_forwarded_client_counts_on_its_own(db_url, monkeypatch):
    monkeypatch.setenv("PARLOUR_TRUSTED_PROXIES", PROXIES)
    monkeypatch.setenv("PARLOUR_LEARN_LIMIT", "1")
    with TestClient(create_app(db_url, preload=False), client=("10.0.0.2", 50000)) as c:
        assert learned(c, "198.51.100.1") is True
        assert learned(c, "198.51.100.2") is True  # another client behind the same proxy
        assert learned(c, "6.6.6.6, 198.51.100.1") is False  # the first again, whatever it wrote itself
        assert learned(c, "198.51.100.3, 10.0.0.9") is True  # through two proxies
        assert learned(c, None) is True  # the proxy's own requests: its own address
        monkeypatch.setenv("PARLOUR_CREATE_LIMIT", "2")
        create = lambda who: c.post("/api/matches", json={"game": "tictactoe", "seats": [HUMAN, HUMAN]},
                                    headers={"X-Forwarded-For": who}).status_code
        assert [create("198.51.100.8") for _ in range(3)] + [create("198.51.100.9")] == [201, 201, 429, 201]


def test_a_bad_setting_stops_the_server_at_start_and_says_what_to_do(db_url, monkeypatch, capsys):
    for value, words in (("10.0.0.300", "'10.0.0.300' is not an IP address or network"),
                         ("10.0.0.1/8", "has host bits set"), ("*", "comma-separated")):
        monkeypatch.setenv("PARLOUR_TRUSTED_PROXIES", value)
        with pytest.raises(ValidationError, match="PARLOUR_TRUSTED_PROXIES") as err:
            create_app(db_url, preload=False)
        assert words in str(err.value)
        assert serve(["--port", "1"]) == 2
        assert words in capsys.readouterr().err
    monkeypatch.setenv("PARLOUR_TRUSTED_PROXIES", "127.0.0.1")
    monkeypatch.setenv("PARLOUR_TRUST_FORWARDED", "true")  # the old setting: trusted anyone
    with pytest.raises(ValidationError, match="Set PARLOUR_TRUSTED_PROXIES"):
        create_app(db_url, preload=False)
    assert serve(["--port", "1"]) == 2
    assert "PARLOUR_TRUST_FORWARDED is no longer read" in capsys.readouterr().err
    monkeypatch.setenv("PARLOUR_TRUST_FORWARDED", "false")
    create_app(db_url, preload=False)
