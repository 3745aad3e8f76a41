"""Browser fixtures: a real server (uvicorn, throwaway database) and headless Chromium via Playwright.

Without Chromium the browser tests skip with a reason, unless PARLOUR_REQUIRE_BROWSER is set
(as in CI), where they fail instead.
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ROOT = Path(__file__).resolve().parents[2]


def pytest_collection_modifyitems(config, items):
    if CHROMIUM:
        return
    if os.environ.get("PARLOUR_REQUIRE_BROWSER"):
        raise pytest.UsageError("PARLOUR_REQUIRE_BROWSER is set but Chromium is not installed "
                                "(Debian: apt-get install chromium)")
    skip = pytest.mark.skip(reason="Chromium is not installed (apt-get install chromium); browser tests skipped")
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(skip)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """The app served by uvicorn in its own process, on a fresh database; yields its base URL."""
    port = free_port()
    db = tmp_path_factory.mktemp("browser") / "parlour.db"
    # every page the tests open comes from one address, which stands for many people here: no cap on the
    # games it creates a minute, the pages and polls it reads a minute (a fast machine passes 600), nor
    # the AI-only matches it runs at once (slow spectator matches of one test would otherwise hold a
    # later test's watch run); tests/api/test_limits.py checks the caps
    env = {**os.environ, "PARLOUR_DATABASE_URL": f"sqlite:///{db}", "PARLOUR_CREATE_LIMIT": "0",
           "PARLOUR_GET_LIMIT": "0", "PARLOUR_POST_LIMIT": "0", "PARLOUR_AI_ONLY_RUNNING": "0"}
    proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "app.main:app", "--port", str(port),
                             "--log-level", "warning"], cwd=ROOT, env=env)
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while True:
        try:
            urllib.request.urlopen(f"{base}/api/games", timeout=2)
            break
        except OSError as err:
            if proc.poll() is not None or time.time() > deadline:
                proc.kill()
                raise RuntimeError("the server did not start") from err
            time.sleep(0.2)
    yield base
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"])
        yield b
        b.close()


NAMED = "if (!localStorage.getItem('parlour:name')) localStorage.setItem('parlour:name', 'Tess');"
"""The lobby asks a new visitor's name once: the tests' browser has given it already."""


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 860}, base_url=server)
    context.add_init_script(NAMED)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture
def phone(browser, server):
    """A phone: 390x844 with mobile emulation and touch."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                  device_scale_factor=3, base_url=server)
    context.add_init_script(NAMED)
    page = context.new_page()
    yield page
    context.close()
