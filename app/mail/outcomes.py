"""What one delivery came to, as every channel answers it (the outbox's words):
delivered; worth trying again later; or never to be tried again."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Delivered:
    pass


@dataclass(frozen=True, slots=True)
class RetryLater:
    reason: str  # for the log: "connection refused", "451 …"


@dataclass(frozen=True, slots=True)
class Gone:
    reason: str  # "bounced", "refused", "email_off", "no_address", "not_wanted", "over_limit"


Outcome = Delivered | RetryLater | Gone
