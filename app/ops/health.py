"""`/healthz` and `/readyz`: what a container runtime and a load balancer ask.

- `/healthz`: the process answers (its event loop turns). Nothing else is
  looked at, so a database outage never gets a healthy process restarted.
- `/readyz`: this process can serve: the database answers within a moment
  and its migrations stand at the head this code expects, and the process is
  not shutting down. A proxy sends no new clients to a process that is not.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncEngine

from app.db import revision
from app.db.outage import database_unavailable
from app.realtime import Hub


@dataclass(frozen=True, slots=True)
class Readiness:
    ready: bool
    detail: str
    migration: str | None = None

    def body(self) -> dict[str, str | None]:
        return {"status": "ready" if self.ready else "unready", "detail": self.detail,
                "migration": self.migration}


async def readiness(engine: AsyncEngine, head: str | None, hub: Hub, timeout: float) -> Readiness:
    if hub.closed:
        return Readiness(False, "shutting down")
    try:
        async with asyncio.timeout(timeout):
            at = await revision(engine)
    except TimeoutError:
        return Readiness(False, f"the database gave no answer within {timeout:g} s")
    except Exception as exc:
        if database_unavailable(exc):
            return Readiness(False, "the database is out of reach")
        # It answered, but without the migrations' table: never migrated.
        return Readiness(False, f"the database has no migration record ({type(exc).__name__})")
    if at != head:
        return Readiness(False, f"the database stands at migration {at}, this code expects {head}", at)
    return Readiness(True, "the database answers and stands at the head migration", at)
