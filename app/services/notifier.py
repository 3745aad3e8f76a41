"""Wake-ups for event streams: a move (or a change of an AI-only match's controls) calls
``notify(match_id)`` from whatever thread made it, after its commit, and every stream of that
match waiting in ``Subscription.wait`` wakes at once.

The notifier itself is per process; relays (app/services/relay.py) carry what it is told to
the other server processes on the same database and wake their streams with ``wake``.

A stream arms its subscription *before* it reads the database and waits after, so a move
that lands between the read and the wait still wakes it (at worst it wakes once for nothing).
"""
from __future__ import annotations

import asyncio
import threading
from typing import Callable


class Subscription:
    def __init__(self, notifier: "Notifier", key: str):
        self._notifier, self.key = notifier, key
        self._loop = asyncio.get_running_loop()
        self._event = asyncio.Event()

    def arm(self) -> None:
        """Forget earlier wake-ups: the next ``wait`` returns on a notify made from now on."""
        self._event.clear()

    def _wake(self) -> None:
        self._loop.call_soon_threadsafe(self._event.set)

    async def wait(self, timeout: float) -> bool:
        """True when woken by a notify, False when ``timeout`` seconds passed first."""
        try:
            await asyncio.wait_for(self._event.wait(), timeout)
            return True
        except TimeoutError:
            return False

    def close(self) -> None:
        self._notifier._remove(self)


class Notifier:
    def __init__(self) -> None:
        self._subscribers: dict[str, set[Subscription]] = {}
        self._relays: list[Callable[[str], None]] = []
        self._lock = threading.Lock()

    def subscribe(self, key: str) -> Subscription:
        """A subscription to ``key`` (call on the event loop; close it when done)."""
        sub = Subscription(self, key)
        with self._lock:
            self._subscribers.setdefault(key, set()).add(sub)
        return sub

    def _remove(self, sub: Subscription) -> None:
        with self._lock:
            subs = self._subscribers.get(sub.key)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._subscribers[sub.key]

    def notify(self, key: str) -> None:
        """Wake every subscription to ``key`` here and, through the relays, in the other
        processes; safe from any thread, cheap when nobody listens."""
        self.wake(key)
        with self._lock:
            relays = list(self._relays)
        for relay in relays:
            relay(key)

    def wake(self, key: str) -> None:
        """Wake every subscription to ``key`` in this process."""
        with self._lock:
            subs = list(self._subscribers.get(key, ()))
        for sub in subs:
            try:
                sub._wake()
            except RuntimeError:  # its event loop has closed
                sub.close()

    def wake_all(self) -> None:
        """Wake every subscription (after a relay may have missed something)."""
        for key in self.keys():
            self.wake(key)

    def keys(self) -> list[str]:
        """The keys with a subscription in this process."""
        with self._lock:
            return list(self._subscribers)

    def add_relay(self, relay: Callable[[str], None]) -> None:
        """Pass every key notified from now on to ``relay`` too (called on the notifying thread:
        it must not block)."""
        with self._lock:
            self._relays.append(relay)

    def remove_relay(self, relay: Callable[[str], None]) -> None:
        with self._lock:
            self._relays.remove(relay)

    def listening(self, key: str) -> int:
        with self._lock:
            return len(self._subscribers.get(key, ()))


NOTIFIER = Notifier()


def notify(match_id: str) -> None:
    NOTIFIER.notify(match_id)
