"""SQLAlchemy 2 typed models. Every piece of a match lives here: a restart loses nothing."""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import (JSON, BigInteger, Boolean, DateTime, Float, ForeignKey, Index, Integer, LargeBinary,
                        String, UniqueConstraint)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def now() -> datetime:
    return datetime.now(timezone.utc)


class Base(DeclarativeBase):
    pass


class Match(Base):
    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), index=True)
    options: Mapped[dict] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)  # secret: never in a response, page or log
    seed_chosen: Mapped[bool] = mapped_column(Boolean, default=False)  # by its creator: unrated, unlearned
    state: Mapped[dict] = mapped_column(JSON)
    ply: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16), index=True, default="active")  # waiting|active|finished
    ai_only: Mapped[bool] = mapped_column(Boolean, default=False)
    delay_ms: Mapped[int] = mapped_column(Integer, default=700)
    paused: Mapped[bool] = mapped_column(Boolean, default=False)
    steps: Mapped[int] = mapped_column(Integer, default=0)  # moves granted while paused
    last_move_at: Mapped[float] = mapped_column(Float, default=0.0)
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    client: Mapped[str | None] = mapped_column(String(32), nullable=True)  # hash of the creator's address
    control_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)  # AI-only: control token
    learning: Mapped[dict | None] = mapped_column(JSON, nullable=True)  # seat -> learned or why not
    hints: Mapped[bool] = mapped_column(Boolean, default=False)  # the coach may review it while it runs
    ending: Mapped[dict | None] = mapped_column(JSON, nullable=True)  # ended early: resigned (by seat) or abandoned
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now, index=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True, index=True)

    seats: Mapped[list["Seat"]] = relationship(back_populates="match", order_by="Seat.seat",
                                               cascade="all, delete-orphan", lazy="selectin")


class Seat(Base):
    __tablename__ = "seats"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # human|agent
    name: Mapped[str] = mapped_column(String(64))
    agent: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    level: Mapped[int | None] = mapped_column(Integer, nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    score: Mapped[float | None] = mapped_column(Float, nullable=True)
    won: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    invite: Mapped[str | None] = mapped_column(String(8), nullable=True)  # a friend's seat: open|taken
    # a friend's seat: its invite token's digest, kept once taken (a second join is 409, not 403)
    invite_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    client: Mapped[str | None] = mapped_column(String(32), nullable=True)  # hash of the joiner's address

    match: Mapped[Match] = relationship(back_populates="seats")


class Move(Base):
    __tablename__ = "moves"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(128))
    label: Mapped[str] = mapped_column(String(256))
    explanation: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class MoveReview(Base):
    """The coach's verdict on one move a person made (``agents.coach.Review``), stored once per
    ``judge`` (the coach's level, an agent id): a verdict by another judge (the game's coach changed
    since, or, in Uno, judges by the table's size) is not served, and is computed again."""

    __tablename__ = "move_reviews"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(128))
    best: Mapped[str | None] = mapped_column(String(128), nullable=True)
    value: Mapped[float | None] = mapped_column(Float, nullable=True)
    best_value: Mapped[float | None] = mapped_column(Float, nullable=True)
    loss: Mapped[float | None] = mapped_column(Float, nullable=True)
    judge: Mapped[str | None] = mapped_column(String(64), nullable=True)


class ReviewClaim(Base):
    """Which server process is reviewing a seat's moves: one row per (match, seat) while a review
    runs, so that two processes never compute the same review. ``claimed_at`` (unix seconds) is
    renewed after every stored verdict; a claim older than ``app.services.coach.CLAIM_TTL_S`` is
    a dead process's and may be taken over."""

    __tablename__ = "review_claims"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    claimed_at: Mapped[float] = mapped_column(Float)


class LiveAgent(Base):
    """A learner: its table is the shipped ``origin`` table (beginner or trained, built in code)
    overlaid with the rows of ``learned_values``; ``version`` grows with every change."""

    __tablename__ = "live_agents"

    agent: Mapped[str] = mapped_column(String(96), primary_key=True)  # "<game>/<agent id>"
    version: Mapped[int] = mapped_column(Integer, default=0)
    games: Mapped[int] = mapped_column(Integer, default=0)
    origin: Mapped[str] = mapped_column(String(16), default="beginner")  # beginner|trained
    reset_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    # The last good table, which a failed canary restores: this snapshot (one that passed the canary,
    # or the one an administrator rolled back to), or the origin when None; the games learned after
    # the learned game ``good_game`` (an id of learned_games) are not in it.
    good_snapshot: Mapped[int | None] = mapped_column(Integer, nullable=True)
    good_game: Mapped[int] = mapped_column(Integer, default=0)
    restores: Mapped[int] = mapped_column(Integer, default=0)  # resets and rollbacks so far


class LearnedValue(Base):
    """A value the learner changed from its origin table (the overlay)."""

    __tablename__ = "learned_values"

    agent: Mapped[str] = mapped_column(ForeignKey("live_agents.agent", ondelete="CASCADE"), primary_key=True)
    key: Mapped[str] = mapped_column(String(128), primary_key=True)
    value: Mapped[float] = mapped_column(Float)


class LiveSnapshot(Base):
    """A learner's table at one moment: its origin and its overlay (zlib-compressed JSON)."""

    __tablename__ = "live_snapshots"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    agent: Mapped[str] = mapped_column(ForeignKey("live_agents.agent", ondelete="CASCADE"), index=True)
    origin: Mapped[str] = mapped_column(String(16))
    games: Mapped[int] = mapped_column(Integer)
    reset_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    reason: Mapped[str] = mapped_column(String(32))
    values: Mapped[int] = mapped_column(Integer)  # rows in the overlay
    overlay: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    passed: Mapped[bool | None] = mapped_column(Boolean, nullable=True)  # the canary's verdict; None: not checked
    canary: Mapped[dict | None] = mapped_column(JSON, nullable=True)  # what it measured, against which floors


class LearnEvent(Base):
    """One game a learner learned from, with the (hashed) client it came from: the learning limit."""

    __tablename__ = "learn_events"
    __table_args__ = (Index("ix_learn_events_agent_client_at", "agent", "client", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    agent: Mapped[str] = mapped_column(String(96))
    client: Mapped[str] = mapped_column(String(32))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class LearnWeight(Base):
    """How many games of one client a learner learned from in one box (a MENACE matchbox, a Harel or
    Baltar state: a key's part before its last ':'), since its last reset: the bounded weight."""

    __tablename__ = "learn_weights"

    agent: Mapped[str] = mapped_column(ForeignKey("live_agents.agent", ondelete="CASCADE"), primary_key=True)
    client: Mapped[str] = mapped_column(String(32), primary_key=True)
    box: Mapped[str] = mapped_column(String(128), primary_key=True)
    games: Mapped[int] = mapped_column(Integer)


class LearnedGame(Base):
    """A game a learner learned from; quarantined when a failed canary took its learning back
    (kept, listed for the administrator, never learned from again)."""

    __tablename__ = "learned_games"
    __table_args__ = (Index("ix_learned_games_agent_id", "agent", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    agent: Mapped[str] = mapped_column(ForeignKey("live_agents.agent", ondelete="CASCADE"))
    match_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    quarantined_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    quarantine: Mapped[str | None] = mapped_column(String(200), nullable=True)  # why


class Tournament(Base):
    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game: Mapped[str] = mapped_column(String(32), index=True)
    players: Mapped[list] = mapped_column(JSON)
    games: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    options: Mapped[dict] = mapped_column(JSON)
    result: Mapped[dict] = mapped_column(JSON)
    seconds: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now, index=True)



class Rating(Base):
    """An agent's or a person's rating in one game (openskill, Plackett-Luce): updated when a
    match finishes (in the same transaction) and by tournaments."""

    __tablename__ = "ratings"

    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    player: Mapped[str] = mapped_column(String(96), primary_key=True)  # "agent:<id>" or "person:<name>"
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[float] = mapped_column(Float, default=0.0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class RatingEvent(Base):
    """A rating after one finished match (or after a whole tournament): the history the
    leaderboard's chart draws. One row per match and player at most."""

    __tablename__ = "rating_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game: Mapped[str] = mapped_column(String(32))
    player: Mapped[str] = mapped_column(String(96))
    match_id: Mapped[str | None] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), nullable=True)
    tournament_id: Mapped[int | None] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"),
                                                      nullable=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)

    __table_args__ = (UniqueConstraint("match_id", "player"), Index("ix_rating_events_game_player", "game", "player", "id"))
