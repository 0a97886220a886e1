"""Why the match service refuses a call: each maps to one contract error."""

from __future__ import annotations

from typing import Any


def printable(text: str) -> str:
    """`text` with what UTF-8 cannot encode (a lone surrogate a client sent in
    JSON, `"\\ud800"`) written as its escape: an answer quoting it still encodes."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


class ServiceError(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, detail: str, **extra: Any) -> None:
        detail = printable(detail)  # it may quote what a client sent
        super().__init__(detail)
        self.detail = detail
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"error": self.code, "detail": self.detail, **self.extra}


class BadRequest(ServiceError):
    status, code = 400, "bad_request"


class Unauthorized(ServiceError):
    status, code = 401, "unauthorized"


class Forbidden(ServiceError):
    status, code = 403, "forbidden"


class OutOfRange(ServiceError):
    """An open match that asks for a rating range, joined by a guest or by an
    account whose rating in its variant is outside it (issue 20, seeks)."""

    status, code = 403, "rating_out_of_range"


class NotYourTurn(ServiceError):
    status, code = 403, "not_your_turn"


class NotFound(ServiceError):
    status, code = 404, "not_found"


class StaleVersion(ServiceError):
    status, code = 409, "stale_version"

    def __init__(self, version: int) -> None:
        super().__init__(f"the match is at version {version}; reload it and act on that", version=version)


class SeatTaken(ServiceError):
    status, code = 409, "seat_taken"


class IdTaken(ServiceError):
    """A client's action id names another action of this match: not malformed
    (the schema admits it) but in conflict with what the match holds."""

    status, code = 409, "id_taken"


class MatchIsOver(ServiceError):
    status, code = 409, "match_over"

    def __init__(self, detail: str = "the match is over") -> None:
        super().__init__(detail)


class MatchRunning(ServiceError):
    """Asked of a running match what only a finished one may tell (its evaluation)."""
    status, code = 409, "match_running"


class Illegal(ServiceError):
    status, code = 422, "illegal_action"


class IllegalPosition(ServiceError):
    """A well-formed create whose `position` no match can start from (issue 21):
    the text is not a playable position, or the options say otherwise."""

    status, code = 422, "illegal_position"


class RateLimited(ServiceError):
    status, code = 429, "rate_limited"

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"too many writes; try again in {retry_after} s")
        self.retry_after = retry_after


class TooManyBotMatches(ServiceError):
    """An owner (a client address, or a signed-in account from any address)
    already holds as many running bot matches as BOT_MATCHES_PER_ADDRESS (or
    BOT_MATCHES_PER_ACCOUNT) allows: bot searches are a shared resource (issue 17).
    No Retry-After: the cap frees a place when one of those matches ends."""

    status, code = 429, "too_many_bot_matches"

    def __init__(self, limit: int, per: str = "address") -> None:
        super().__init__(
            f"this {per} already has {limit} running bot matches, the most allowed "
            f"(BOT_MATCHES_PER_{per.upper()}); finish or resign one of them first", limit=limit)
