"""The per-client limits counted in the database, so that they hold whatever the number of server
processes: matches created a minute (``PARLOUR_CREATE_LIMIT``) and AI-only matches running at once
(``PARLOUR_AI_ONLY_RUNNING``). Both count rows the server writes anyway (``matches.client`` is the
hashed address of the creator), so they cost one indexed read and no write of their own.

``create_match`` counts and inserts under the process's write lock, so within a process a limit
is exact; creations from one client at the very same instant on several processes may each pass
the count, so a limit can be overrun by one match per other process, never more.
"""
from __future__ import annotations

import math
import time
from datetime import timedelta, timezone

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.models import Match, now
from app.services.errors import TooMany
from app.settings import get_settings

CREATE_WINDOW_S = 60
IDLE_GRACE_S = 10.0
"""An AI-only match counts as running while it moves: from its first move until this long after
its next move was due and did not come (nobody watches it: it moves only while its event stream
is open), or until it is paused or over. A match nobody has watched yet costs nothing."""


def check_creations(session: Session, client: str) -> None:
    """429 when ``client`` created ``PARLOUR_CREATE_LIMIT`` matches in the last minute."""
    limit = get_settings().create_limit
    if limit <= 0:
        return
    since = now() - timedelta(seconds=CREATE_WINDOW_S)
    count, oldest = session.execute(select(func.count(), func.min(Match.created_at))
                                    .where(Match.created_at >= since, Match.client == client)).one()
    if count < limit:
        return
    if oldest.tzinfo is None:  # SQLite keeps no zone: stored in UTC
        oldest = oldest.replace(tzinfo=timezone.utc)
    wait = max(1, math.ceil((oldest - since).total_seconds()))
    raise TooMany(f"at most {limit} new matches a minute from one address; try again in {wait} s", wait)


def running(session: Session, client: str, but: str | None = None) -> int:
    """How many AI-only matches created by ``client`` are running (other than ``but``): active,
    not paused, and moved within their delay and ``IDLE_GRACE_S``."""
    q = select(func.count()).where(
        Match.status == "active", Match.ai_only.is_(True), Match.client == client, Match.paused.is_(False),
        Match.ply > 0, Match.last_move_at + Match.delay_ms * 0.001 + IDLE_GRACE_S >= time.time())
    if but is not None:
        q = q.where(Match.id != but)
    return session.scalar(q) or 0


def over_budget(session: Session, client: str | None, but: str | None = None) -> str | None:
    """Why ``client`` may not run one more AI-only match (None: it may)."""
    limit = get_settings().ai_only_running
    if limit <= 0 or client is None or running(session, client, but) < limit:
        return None
    return (f"at most {limit} AI-only matches may run at once from one address: let one finish, "
            f"pause it or close its page (it stops counting {IDLE_GRACE_S:g} s after its next move was due)")


def check_budget(session: Session, client: str | None, but: str | None = None) -> None:
    """429 when ``client`` runs its budget of AI-only matches already."""
    why = over_budget(session, client, but)
    if why is not None:
        raise TooMany(why, math.ceil(IDLE_GRACE_S))
