"""Server CPU per request in process, for the move-time goal of issue 25 (session 12): the bare
FastAPI POST of ``app.bench.floor`` (the floor) and a move with the AI's reply for each
``game:agent`` row, timed around the ASGI app alone (no client library: the CPU of building and
reading requests is not counted), on a throwaway SQLite file. Rows run one after the other in
rounds, each round timing ``N`` requests per row; each row's best round is printed (JSON, ms of CPU
per request), so a busy machine's bursts fall out.

Usage (a measurement aid, not part of the app), from each tree in turn (old, new, new, old, ...):

    PYTHONPATH=TREE python docs/measurements/move_time_ab.py N ROUNDS racko:random,racko:diablo2,...
"""
import asyncio
import json
import os
import random
import sys
import tempfile
import time

os.environ.update({"PARLOUR_CREATE_LIMIT": "0", "PARLOUR_GET_LIMIT": "0", "PARLOUR_POST_LIMIT": "0"})


class Driver:
    """Calls an ASGI app directly; ``cpu`` sums the process's CPU time spent inside it."""

    def __init__(self, app):
        self.app, self.cpu = app, 0.0

    async def start(self) -> None:
        self.queue: asyncio.Queue = asyncio.Queue()
        await self.queue.put({"type": "lifespan.startup"})
        started = asyncio.Event()

        async def send(message):
            if message["type"].startswith("lifespan.startup"):
                started.set()

        self.lifespan = asyncio.create_task(self.app({"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}},
                                                     self.queue.get, send))
        await started.wait()

    async def stop(self) -> None:
        await self.queue.put({"type": "lifespan.shutdown"})
        await asyncio.wait_for(self.lifespan, 5)

    async def request(self, method: str, path: str, body=None, headers=()) -> tuple[int, object]:
        data = json.dumps(body).encode() if body is not None else b""
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
                 "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
                 "headers": [(b"host", b"test"), (b"content-type", b"application/json"),
                             (b"content-length", str(len(data)).encode()),
                             *[(k.lower().encode(), v.encode()) for k, v in headers]],
                 "client": ("127.0.0.1", 5000), "server": ("test", 80), "root_path": "", "state": {}}
        sent, answer = [False], {"status": 0, "body": b""}

        async def receive():
            if not sent[0]:
                sent[0] = True
                return {"type": "http.request", "body": data, "more_body": False}
            await asyncio.sleep(3600)

        async def send(message):
            if message["type"] == "http.response.start":
                answer["status"] = message["status"]
            elif message["type"] == "http.response.body":
                answer["body"] += message.get("body", b"")

        start = time.process_time()
        await self.app(scope, receive, send)
        self.cpu += time.process_time() - start
        return answer["status"], json.loads(answer["body"]) if answer["body"] else None


class Table:
    """One person (random legal moves) against ``agent`` in every other seat; a new match when one ends."""

    def __init__(self, driver: Driver, game: str, agent: str, others: int):
        self.driver, self.game, self.agent, self.others, self.rng = driver, game, agent, others, random.Random(1)

    async def new(self) -> bool:
        status, made = await self.driver.request("POST", "/api/matches", {"game": self.game, "seats": [
            {"type": "human", "name": "Bench"}, *[{"type": "agent", "agent": self.agent}] * self.others]})
        if status != 201:
            return False  # an agent this tree does not have
        self.url, self.headers = f"/api/matches/{made['id']}", [("Authorization", f"Bearer {made['tokens']['0']}")]
        _status, self.view = await self.driver.request("GET", self.url, headers=self.headers)
        return True

    async def play(self, moves: int) -> None:
        for _ in range(moves):
            while self.view["status"] != "active" or not self.view["legal_actions"]:
                await self.new()
            action = self.rng.choice(self.view["legal_actions"])["id"]
            status, self.view = await self.driver.request("POST", f"{self.url}/moves", {
                "action": action, "ply": self.view["ply"]}, self.headers)
            assert status == 200, (status, self.view)


async def main(n: int, rounds: int, rows: list[str]) -> dict[str, float]:
    from app.bench.floor import app as floor_app
    from app.main import create_app
    from engine import get_game

    best: dict[str, float] = {}
    floor = Driver(floor_app)
    with tempfile.TemporaryDirectory() as tmp:
        driver = Driver(create_app(f"sqlite:///{tmp}/bench.db", preload=True))
        await driver.start()
        tables = []
        for row in rows:
            game, agent = row.split(":")
            table = Table(driver, game, agent, get_game(game).min_players - 1)
            if await table.new():
                await table.play(30)
                tables.append((row, table))
        for _ in range(rounds):
            floor.cpu = 0.0
            for _ in range(n):
                await floor.request("POST", "/moves", {"action": "draw:deck", "ply": 3})
            best["floor"] = min(best.get("floor", 1e9), 1000 * floor.cpu / n)
            for row, table in tables:
                driver.cpu = 0.0
                await table.play(n)
                best[row] = min(best.get(row, 1e9), 1000 * driver.cpu / n)
        await driver.stop()
    return {k: round(v, 4) for k, v in best.items()}


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3].split(",")))))
