"""What the admin wing's routes share: the database, the match service, the
players' accounts, the settings and the time (a test may replace `clock`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from fastapi import Request
from sqlalchemy.ext.asyncio import AsyncEngine

from app.accounts import Accounts
from app.auth import PasswordChecks
from app.chat import Chat
from app.config import Settings
from app.matches import Gateway, MatchService

from .tries import SignIns


@dataclass(slots=True)
class Admin:
    """The parts the wing uses, handed in by app/main.py: it reads through the
    service and changes a match only through the gateway; it closes and
    reopens a player's account only through the account service."""

    engine: AsyncEngine
    service: MatchService
    gateway: Gateway
    settings: Settings
    accounts: Accounts
    clock: Callable[[], float] = field(default=time.time)
    chat: Chat | None = None  # the match chat (issue 20): its reports, hidden lines and mutes
    passwords: PasswordChecks = field(init=False)
    sign_ins: SignIns = field(init=False)

    def __post_init__(self) -> None:
        self.passwords = PasswordChecks(self.settings.admin_password_workers, self.settings.admin_password_waiting)
        self.sign_ins = SignIns(self.engine)

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.clock(), UTC)


def address(request: Request) -> str | None:
    return request.client.host if request.client else None

