"""Fixtures shared by the API tests: an app on a throwaway SQLite database."""
from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from app.main import create_app


@pytest.fixture(autouse=True)
def _no_rate_limits(monkeypatch):
    """Tests create many matches quickly: no creation limit unless a test sets one."""
    monkeypatch.setenv("PARLOUR_CREATE_LIMIT", "0")
    monkeypatch.delenv("PARLOUR_ADMIN_TOKEN", raising=False)


@pytest.fixture
def admin(monkeypatch) -> dict:
    """The administrator's Authorization header (PARLOUR_ADMIN_TOKEN set for the test)."""
    monkeypatch.setenv("PARLOUR_ADMIN_TOKEN", "test-admin-token")
    return {"Authorization": "Bearer test-admin-token"}


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
