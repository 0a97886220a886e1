"""Why the match service refuses a call: each maps to one contract error. The
refusals every wing shares (bad request, not found, rate limited ...) are the
kernel's (app/kernel/errors.py)."""

from __future__ import annotations

from app.kernel.errors import ServiceError


class OutOfRange(ServiceError):
    """An open match that asks for a rating range, joined by a guest or by an
    account whose rating in its variant is outside it (seeks)."""

    status, code = 403, "rating_out_of_range"


class NotYourTurn(ServiceError):
    status, code = 403, "not_your_turn"


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
    """A well-formed create whose `position` no match can start from:
    the text is not a playable position, or the options say otherwise."""

    status, code = 422, "illegal_position"


class TooManyBotMatches(ServiceError):
    """An owner (a client address, or a signed-in account from any address)
    already holds as many running bot matches as BOT_MATCHES_PER_ADDRESS (or
    BOT_MATCHES_PER_ACCOUNT) allows: bot searches are a shared resource.
    No Retry-After: the cap frees a place when one of those matches ends."""

    status, code = 429, "too_many_bot_matches"

    def __init__(self, limit: int, per: str = "address") -> None:
        super().__init__(
            f"this {per} already has {limit} running bot matches, the most allowed "
            f"(BOT_MATCHES_PER_{per.upper()}); finish or resign one of them first", limit=limit)


class NoTakeback(ServiceError):
    """An accept of a takeback nobody asks for (any more): answered, withdrawn,
    or lapsed at a choice played meanwhile."""

    status, code = 409, "no_takeback"
