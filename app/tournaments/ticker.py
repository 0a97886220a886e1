"""Every process's arena tick: the ends of arena games it did not hear end
(another process's) written, and running arenas paired, every `period` seconds."""

from __future__ import annotations

import asyncio
import logging
import time

from app.db.outage import OutageLog, database_unavailable

from .service import Arenas

log = logging.getLogger(__name__)


async def tick_forever(arenas: Arenas, period: float, outage: OutageLog) -> None:
    while True:
        began = time.monotonic()
        try:
            await arenas.tick()
            outage.reached(began)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if database_unavailable(exc):
                outage.failed("the arenas' tick", exc)
            else:
                log.exception("the arenas' tick failed; trying again in %s s", period)
        await asyncio.sleep(period)
