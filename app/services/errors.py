"""Errors the services raise; the app turns them into 4xx answers of one shape (``app.problems``).

The status rule: 400 malformed request, 401/403 credentials (missing / wrong), 404 unknown
resource, 409 against the state of a game or learner, 413 too large, 422 invalid value,
429 too many requests.
"""


class ServiceError(Exception):
    """An error a caller can act on; ``field`` names the request field at fault, as
    ``body.action`` (shown in the answer's ``field``)."""

    status = 422

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


class Unauthorized(ServiceError):
    status = 401


class Forbidden(ServiceError):
    status = 403


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    status = 409


class TooMany(ServiceError):
    """429, with the seconds to wait (the Retry-After header)."""
    status = 429

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


def clip(text: str, limit: int = 40) -> str:
    """At most ``limit`` characters of someone's input, for a message."""
    return text if len(text) <= limit else text[:limit] + "…"
