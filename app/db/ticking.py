"""A step every process runs again and again (an arena's tick, the Swiss
events', the mail digests'), each time after `period` seconds: a database out
of reach is told to the outage log (and its return), any other failure logged
and tried again at the next period, never the end of the loop."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from .outage import OutageLog, database_unavailable

log = logging.getLogger(__name__)


async def every(period: float, step: Callable[[], Awaitable[object]], outage: OutageLog, what: str,
                wait_first: bool = False) -> None:
    """Run `step` every `period` seconds for ever; `what` names it in the logs
    ("the arenas' tick"); `wait_first`: a period before the first (a starting
    process has other work)."""
    if wait_first:
        await asyncio.sleep(period)
    while True:
        began = time.monotonic()
        try:
            await step()
            outage.reached(began)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if database_unavailable(exc):
                outage.failed(what, exc)
            else:
                log.exception("%s failed; trying again in %s s", what, period)
        await asyncio.sleep(period)
