"""The correspondence clock's alarm, on SQLite and PostgreSQL, on an injected
clock: nothing before 80% of the move's time is used; then one notice to the
player to move (the inbox, and the outbox for push), however many ticks and
processes look."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from sqlalchemy import select

from app.db.models import matches
from app.matches.clock_alarm import ring

from ..api.members import member
from .conftest import correspondence, kinds, outbox_rows, setup

DAY_MS = 86_400_000


async def running(app: Any, match_id: str) -> tuple[str, int, int]:
    """(the colour whose clock runs, since when, its time for the move)."""
    async with app.state.parts.engine.connect() as conn:
        r = (await conn.execute(select(matches).where(matches.c.id == match_id))).one()
    return r.clock_running, r.clock_since_ms, r.white_ms if r.clock_running == "white" else r.black_ms


async def test_the_alarm_rings_once_per_move_at_eighty_percent(app: Any, client: httpx.AsyncClient) -> None:
    parts = app.state.parts
    ada, bo = await member(app, "Ada"), await member(app, "Bo")
    match = await correspondence(client, ada, bo, {"type": "correspondence", "days": 2})
    assert (await running(app, match["id"]))[0] is None  # no clock runs while the back rows are set up
    match = await setup(client, await setup(client, match, ada), bo)
    colour, since, per_move = await running(app, match["id"])
    assert colour == "white" and per_move == 2 * DAY_MS
    before = await kinds(client, ada)
    assert await ring(parts.engine, parts.channels, since + round(0.79 * per_move)) == 0
    assert await ring(parts.engine, parts.channels, since + round(0.81 * per_move)) == 1
    # Later ticks, on this process and on two at once, find it told already.
    assert await ring(parts.engine, parts.channels, since + round(0.9 * per_move)) == 0
    assert sum(await asyncio.gather(*(ring(parts.engine, parts.channels, since + round(0.95 * per_move))
                                      for _ in range(2)))) == 0
    told = (await kinds(client, ada))[len(before):]
    assert [k for k, _ in told] == ["clock_alarm"] and told[0][1]["match_id"] == match["id"]
    assert told[0][1]["hours_left"] == round(0.19 * per_move / 3_600_000, 1)
    assert [(r.channel, r.account_id) for r in await outbox_rows(app) if r.kind == "clock_alarm"] == [
        ("push", ada.account.id)]
    assert [k for k, _ in await kinds(client, bo)].count("clock_alarm") == 0
