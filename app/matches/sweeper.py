"""The background sweeper: applies fallen flags and join timeouts of matches
nobody is looking at (R16). Every process runs one; the version check makes
each ending land once."""

from __future__ import annotations

from app.db.outage import OutageLog
from app.db.ticking import every

from .finisher import Finisher


async def sweep_forever(finisher: Finisher, period: float, outage: OutageLog) -> None:
    await every(period, finisher.sweep, outage, "the sweeper")
