"""What the admin wing's routes share: the database, the match service, the
accounts (whose sign-in, lock-out, password pool, sessions and clock the
dashboard uses as every sign-in does), the settings, and the audit log's
batches of failed sign-ins."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from fastapi import Request
from sqlalchemy.ext.asyncio import AsyncEngine

from app.accounts import Accounts
from app.auth import PasswordChecks
from app.auth.tries_in_front import Tries
from app.chat import Chat
from app.config import Settings
from app.matches import Gateway, MatchService

from .audit import Batch


@dataclass(slots=True)
class Admin:
    """The parts the wing uses, handed in by app/main.py: it reads through the
    service and changes a match only through the gateway; it signs admins in,
    and closes and reopens a player's account, only through the account service."""

    engine: AsyncEngine
    service: MatchService
    gateway: Gateway
    settings: Settings
    accounts: Accounts
    chat: Chat | None = None  # the match chat: its reports, hidden lines and mutes
    failures: Batch = field(init=False)  # failed sign-ins, audited in batches

    def __post_init__(self) -> None:
        self.failures = Batch(self.engine)

    @property
    def clock(self) -> Callable[[], float]:
        """The accounts' clock, the one every sign-in and session is timed by (a test may replace it)."""
        return self.accounts.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.accounts.clock = clock

    @property
    def passwords(self) -> PasswordChecks:
        """The pool the dashboard's sign-ins are checked in (the players' have their own)."""
        return self.accounts.admin_checks

    @property
    def sign_ins(self) -> Tries:
        """This process's sign-in tries (the accounts'): turns, the front's line, the locks learnt."""
        return self.accounts.sign_ins

    def now(self) -> datetime:
        return self.accounts.now()


def address(request: Request) -> str | None:
    return request.client.host if request.client else None
