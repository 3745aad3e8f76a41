"""Fixtures shared by the API tests: an app on a throwaway SQLite database.

Every test under tests/browser is marked ``browser``. The default run (``make test``, plain
``pytest``) leaves them out and takes a few minutes; ``make test-browser`` (``pytest -m browser``)
runs them alone, naming a browser test file or folder runs it, and CI (.ci/run) runs both.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.main import create_app


BROWSER_TESTS = Path(__file__).parent / "browser"


def _in_browser_tests(path: Path) -> bool:
    return path == BROWSER_TESTS or BROWSER_TESTS in path.parents


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Mark the browser tests (tryfirst: before ``-m`` selects), and leave them out of a run that
    neither selects by marker nor names a browser test."""
    for item in items:
        if _in_browser_tests(Path(str(item.fspath))):
            item.add_marker(pytest.mark.browser)
    named = [Path(arg.split("::")[0]).resolve() for arg in config.args]
    if config.option.markexpr or any(_in_browser_tests(p) for p in named):
        return
    keep = [item for item in items if not item.get_closest_marker("browser")]
    if len(keep) < len(items):
        config.hook.pytest_deselected(items=[item for item in items if item.get_closest_marker("browser")])
        items[:] = keep


@pytest.fixture(autouse=True)
def _no_rate_limits(monkeypatch):
    """Tests create many matches and read quickly: no creation limit, no GET quota and no
    budget of running AI-only matches unless a test sets one."""
    monkeypatch.setenv("PARLOUR_CREATE_LIMIT", "0")
    monkeypatch.setenv("PARLOUR_GET_LIMIT", "0")
    monkeypatch.setenv("PARLOUR_POST_LIMIT", "0")
    monkeypatch.setenv("PARLOUR_AI_ONLY_RUNNING", "0")
    monkeypatch.delenv("PARLOUR_ADMIN_TOKEN", raising=False)


@pytest.fixture
def admin(monkeypatch) -> dict:
    """The administrator's Authorization header (PARLOUR_ADMIN_TOKEN set for the test)."""
    monkeypatch.setenv("PARLOUR_ADMIN_TOKEN", "test-admin-token")
    return {"Authorization": "Bearer test-admin-token"}


@pytest.fixture
def server_seed(monkeypatch):
    """``server_seed(n)``: the server draws ``n`` as the seed of the matches created next (a
    test that must know the deal of a match that counts: a seed given at creation makes the
    match unrated and unlearned)."""
    from app.services import match_lifecycle

    def fix(seed: int) -> int:
        monkeypatch.setattr(match_lifecycle, "server_seed", lambda: seed)
        return seed
    return fix


@pytest.fixture
def db_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'parlour-test.db'}"


@pytest.fixture
def client(db_url):
    with TestClient(create_app(db_url, preload=False)) as c:
        yield c


def new_match(client, game, seats, **extra):
    r = client.post("/api/matches", json={"game": game, "seats": seats, **extra})
    assert r.status_code == 201, r.text
    data = r.json()
    return data["id"], {int(k): {"Authorization": f"Bearer {v}"} for k, v in data["tokens"].items()}


def play_randomly(client, match_id, headers, rng):
    """Play random legal moves for the seat of ``headers`` until the match ends; the final view."""
    while True:
        view = client.get(f"/api/matches/{match_id}", headers=headers).json()
        if view["status"] != "active":
            return view
        action = rng.choice(view["legal_actions"])["id"]
        r = client.post(f"/api/matches/{match_id}/moves", json={"action": action, "ply": view["ply"]},
                        headers=headers)
        assert r.status_code == 200, r.text


def event_payloads(client, match_id, count, headers=None):
    """The first ``count`` data payloads of a match's event stream (the spectators' unless ``headers``)."""
    out = []
    with client.stream("GET", f"/api/matches/{match_id}/events", headers=headers or {}) as stream:
        for line in stream.iter_lines():
            if line.startswith("data: "):
                out.append(json.loads(line[6:]))
                if len(out) >= count:
                    break
    return out
