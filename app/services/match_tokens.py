"""The secrets of a match: a token for each person's seat, and for an AI-only match a control
token. Only their SHA-256 digests are stored, and compared in constant time."""
from __future__ import annotations

import hashlib
import secrets

from app.services.errors import Forbidden, Unauthorized
from app.services.match_store import MatchRow


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seat_of(match: MatchRow, token: str | None) -> int | None:
    """The seat a bearer token belongs to; None without a token; 403 for a wrong one."""
    if token is None:
        return None
    digest = hash_token(token)
    for s in match.seats:
        if s.token_hash is not None and secrets.compare_digest(s.token_hash, digest):
            return s.seat
    raise Forbidden("that token does not belong to a seat of this match")


def seat_needed(match: MatchRow, token: str | None, missing: str) -> int:
    """The seat of ``token``; 401 without one (``missing`` says what is asked), 403 for a wrong one."""
    seat = seat_of(match, token)
    if seat is None:
        raise Unauthorized(missing)
    return seat


def check_control(match: MatchRow, token: str | None) -> None:
    """401 without a token, 403 unless it is the match's control token."""
    if token is None:
        raise Unauthorized("controlling a match needs its control token: Authorization: Bearer <control_token>")
    if match.control_hash is None or not secrets.compare_digest(match.control_hash, hash_token(token)):
        raise Forbidden("that is not this match's control token")
