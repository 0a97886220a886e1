"""The background sweeper: applies fallen flags and join timeouts of matches
nobody is looking at (R16). Every process runs one; the version check makes
each ending land once."""

from __future__ import annotations

import asyncio
import logging
import time

from app.db.outage import OutageLog, database_unavailable

from .finisher import Finisher

log = logging.getLogger(__name__)


async def sweep_forever(finisher: Finisher, period: float, outage: OutageLog) -> None:
    while True:
        began = time.monotonic()
        try:
            await finisher.sweep()
            outage.reached(began)  # it asked the database: the outage, if any, is over
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if database_unavailable(exc):
                outage.failed("the sweeper", exc)  # counted, not a traceback a second
            else:
                log.exception("the sweeper failed; trying again in %s s", period)
        await asyncio.sleep(period)
