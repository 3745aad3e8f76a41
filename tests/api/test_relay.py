"""Relays carry a notifier's wake-ups to the other server processes. Here two notifiers with a
relay each stand for two processes on one PostgreSQL database (PARLOUR_TEST_POSTGRES_URL)."""
import asyncio
import os
import time

import pytest
from sqlalchemy import text

from app.db import make_engine
from app.services import relay
from app.services.notifier import Notifier

PG = os.environ.get("PARLOUR_TEST_POSTGRES_URL")


def test_payloads_carry_every_key_within_the_size_limit():
    keys = [f"{i:032x}" for i in range(1_000)]
    payloads = relay.payloads("origin", keys)
    assert len(payloads) > 1
    assert all(len(p) <= relay.PAYLOAD_BYTES and p.split()[0] == "origin" for p in payloads)
    assert [k for p in payloads for k in p.split()[1:]] == keys


async def woken(notifier: Notifier, key: str, act, timeout: float = 10) -> bool:
    """Whether a subscription to ``key`` on ``notifier`` wakes within ``timeout`` after ``act()``."""
    sub = notifier.subscribe(key)
    try:
        sub.arm()
        act()
        return await sub.wait(timeout)
    finally:
        sub.close()


def terminate(application_name: str) -> int:
    engine = make_engine(PG)
    with engine.begin() as c:
        killed = c.execute(text("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                                "WHERE datname = current_database() AND application_name = :name"),
                           {"name": application_name}).scalar_one()
    engine.dispose()
    return killed


@pytest.mark.skipif(not PG, reason="set PARLOUR_TEST_POSTGRES_URL to test on PostgreSQL")
def test_postgres_relays_wake_the_other_process_and_survive_lost_connections():
    a, b = Notifier(), Notifier()

    async def scenario():
        relays = [relay.PostgresRelay(PG, n) for n in (a, b)]
        try:
            assert await woken(b, "m1", lambda: a.notify("m1"))
            assert await woken(a, "m2", lambda: b.notify("m2"))
            assert not await woken(b, "m3", lambda: a.notify("other"), timeout=0.5)  # only its own match

            # The listening connections die: each relay connects again and, since it may have
            # missed something meanwhile, wakes every stream of its process.
            assert await woken(b, "m4", lambda: terminate("parlour-listen"))
            assert await woken(b, "m5", lambda: a.notify("m5"))

            # The sending connection dies: a wake-up may be lost, the next ones go through.
            assert terminate("parlour-notify") == 2
            deadline = time.monotonic() + 10
            while not await woken(b, "m6", lambda: a.notify("m6"), timeout=0.5):
                assert time.monotonic() < deadline, "the sending relay did not connect again"
        finally:
            for r in relays:
                r.close()

    asyncio.run(scenario())
