"""Real server processes for the tests that need them (a crash, several processes, workers
starting together)."""
from __future__ import annotations

import json
import multiprocessing
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=10) as r:
            return r.status == 200
    except OSError:
        return False


def _serve_forked(database_url: str, port: int) -> None:
    import uvicorn

    from app.main import create_app

    uvicorn.run(create_app(database_url, preload=False), host="127.0.0.1", port=port, log_level="critical")


def _forkserver() -> multiprocessing.context.BaseContext:
    """A fork server that has imported the app (and nothing else: this process may have started
    JAX's threads, which a plain fork would copy mid-flight)."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["app.main", "uvicorn"])
    return context


def fork_worker(database_url: str, port: int) -> multiprocessing.Process:
    """A worker forked from a fork server that has imported the app already: it starts in a
    fraction of a second (its start-up, migration included, runs in the child, as in uvicorn's
    workers), so several can start at the same moment."""
    worker = _forkserver().Process(target=_serve_forked, args=(database_url, port), daemon=True)
    worker.start()
    return worker


class Server:
    """``parlour``'s app under uvicorn in its own process, on a loopback port."""

    def __init__(self, database_url: str, **env: str):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        environ = {**os.environ, "PARLOUR_DATABASE_URL": database_url, "PARLOUR_PRELOAD": "false",
                   "PARLOUR_CREATE_LIMIT": "0", "PARLOUR_GET_LIMIT": "0", "PARLOUR_POST_LIMIT": "0", "PARLOUR_AI_ONLY_RUNNING": "0", **env}
        self.proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1",
                                      "--port", str(self.port), "--log-level", "warning"], cwd=ROOT, env=environ)
        deadline = time.time() + 60
        while True:
            try:
                self.call("GET", "/api/games")
                return
            except OSError as err:
                if self.proc.poll() is not None or time.time() > deadline:
                    self.stop()
                    raise RuntimeError("the server did not start") from err
                time.sleep(0.1)

    def call(self, method: str, path: str, body: dict | None = None, token: str | None = None) -> tuple[int, dict]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read() or b"null")

    def kill(self) -> None:
        """``kill -9``: no shutdown, no flush."""
        self.proc.kill()
        self.proc.wait()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
