"""The agents the server plays with: built once per process (live ones from the database)."""
from __future__ import annotations

from threading import Lock
from typing import Any

from sqlalchemy.orm import Session

from agents.catalog import level_agent, make_agent, spec
from app.services import live


class AgentPool:
    """Non-learning agents are built once and shared; live learners come from their table."""

    def __init__(self) -> None:
        self._agents: dict[tuple[str, str], Any] = {}
        self._lock = Lock()

    def get(self, session: Session, game: str, agent_id: str) -> Any:
        if spec(game, agent_id).live is not None:
            return live.make_live_agent(session, game, agent_id)
        with self._lock:
            key = (game, agent_id)
            if key not in self._agents:
                self._agents[key] = make_agent(game, agent_id)
            return self._agents[key]

    def preload(self, games: list[str]) -> None:
        """Load every shipped agent at start-up (so the first move is not slow)."""
        from agents.catalog import agent_specs

        for game in games:
            for s in agent_specs(game):
                if s.live is None:
                    self.get(None, game, s.id)  # type: ignore[arg-type]


def resolve_seat_agent(game: str, level: int | None, agent: str | None) -> tuple[str, int | None]:
    """(agent id, level) for an agent seat given by level or by agent id."""
    if agent is not None:
        spec(game, agent)
        from agents.catalog import levels
        ids = levels(game)
        return agent, (ids.index(agent) + 1 if agent in ids else None)
    if level is None:
        level = 1
    return level_agent(game, level), level
