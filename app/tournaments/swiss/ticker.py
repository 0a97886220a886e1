"""Every process's Swiss tick: games' ends written, due rounds paired, events
ended, every `period` seconds (the arenas' tick's sibling)."""

from __future__ import annotations

import asyncio
import logging
import time

from app.db.outage import OutageLog, database_unavailable

from .service import Swisses

log = logging.getLogger(__name__)


async def tick_forever(swisses: Swisses, period: float, outage: OutageLog) -> None:
    while True:
        began = time.monotonic()
        try:
            await swisses.tick()
            outage.reached(began)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if database_unavailable(exc):
                outage.failed("the Swiss events' tick", exc)
            else:
                log.exception("the Swiss events' tick failed; trying again in %s s", period)
        await asyncio.sleep(period)
