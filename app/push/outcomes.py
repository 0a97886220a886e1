"""What became of one notification handed to a channel, in the words the
notification outbox reads (app/notify): done, try again later, or never."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Delivered:
    """Done: handed to `sent` push services, or needing no push at all (`skipped`
    says why: the player is watching the match)."""

    sent: int = 0
    skipped: str | None = None


@dataclass(frozen=True, slots=True)
class RetryLater:
    """Nobody took it yet and someone may: a push service busy (429, 5xx) or out of
    reach. `after_seconds`: the longest Retry-After a service asked for, if any."""

    reason: str
    after_seconds: float | None = None


@dataclass(frozen=True, slots=True)
class Gone:
    """It can never be delivered: the account has no subscription left (none
    posted, or each one gone or refusing)."""

    reason: str


Outcome = Delivered | RetryLater | Gone
