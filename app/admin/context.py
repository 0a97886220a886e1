"""What the admin wing's routes share: the database, the match service, the
settings and the time (a test may replace `clock`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from fastapi import Request
from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import Settings
from app.matches import MatchService


@dataclass(slots=True)
class Admin:
    engine: AsyncEngine
    service: MatchService
    settings: Settings
    clock: Callable[[], float] = field(default=time.time)

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.clock(), UTC)


def address(request: Request) -> str | None:
    return request.client.host if request.client else None


async def get_admin(request: Request) -> Admin:
    admin: Admin = request.app.state.admin
    return admin
