"""Issue 12, defect 8: while the database is out of reach, the log says so once
when the outage starts and once when it ends, and counts in between: no
warning per request or per retry of the realtime bus, no sweeper traceback a
second."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

import pytest

from app.config import Settings
from app.db import make_engine
from app.db.outage import OutageLog
from app.matches.sweeper import sweep_forever
from app.realtime.bus import Announcement
from app.realtime.postgres import PostgresBus

from ..conftest import Api, make_settings
from ..waiting import until

DEAD = "postgresql+asyncpg://postgres@127.0.0.1:1/nowhere"  # nothing listens on port 1


@pytest.fixture
def settings(database_url: str) -> Settings:
    """The app's own timed passes (the tournaments' ticks each second, the clock
    alarms, the digests) use the real engine, not the dead one the test swaps into
    the keeper: each that reached the database would rightly end the outage, and
    the next failed request begin another. Here they wait, so the outage is the
    test's alone."""
    return make_settings(database_url, tournament_tick_seconds=3600.0, clock_alarm_tick_seconds=3600.0,
                         mail_digest_tick_seconds=3600.0)


def _said(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.WARNING]


async def test_an_outage_is_one_line_in_and_one_line_out(
        app: Any, api: Api, caplog: pytest.LogCaptureFixture) -> None:
    game = await api.start()
    outage = app.state.parts.outage  # the app's one log, handed to every part
    keeper = app.state.parts.service.keeper
    real = keeper.engine
    caplog.set_level(logging.INFO)
    keeper.engine = make_engine(DEAD)
    sweeper = asyncio.create_task(sweep_forever(app.state.parts.service.finisher, 0.02, outage))
    try:
        for _ in range(10):
            assert (await api.client.get(f"{api.base}/{game.id}")).status_code == 503
            r = await api.client.post(f"{api.base}/{game.id}/resign", headers=game.auth("white"))
            assert r.status_code == 503
        await until(lambda: outage.failures >= 25, "the sweeper to fail again and again meanwhile")
        said = _said(caplog)
        assert len(said) == 1, [r.getMessage() for r in said]
        assert "out of reach" in said[0].getMessage() and not said[0].exc_info
        assert outage.out and outage.failures >= 25
    finally:
        await keeper.engine.dispose()
        keeper.engine = real
    await until(lambda: not outage.out, "the sweeper to reach the database again")
    sweeper.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await sweeper
    said = _said(caplog)
    assert len(said) == 2, [r.getMessage() for r in said]
    assert "reachable again" in said[1].getMessage() and not any(r.exc_info for r in caplog.records)
    assert not outage.out
    assert (await api.client.get(f"{api.base}/{game.id}")).status_code == 200


async def test_the_realtime_bus_retries_quietly_and_less_often(
        postgres_url: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    bus = PostgresBus(postgres_url)
    await bus.start(lambda m: None, lambda: None)
    try:
        attempts = []
        real_connect = bus._connect_notifier

        async def dead_connect() -> Any:
            attempts.append(1)
            raise ConnectionRefusedError(111, "Connection refused")

        # The retries' waits, recorded instead of waited: the fifth is held until
        # the database is back, so the count does not depend on the machine's speed.
        waits: list[float] = []
        back = asyncio.Event()

        async def recorded(seconds: float) -> None:
            waits.append(seconds)
            if len(waits) >= 5:
                await back.wait()

        bus.pause = recorded
        bus._connect_notifier = dead_connect  # type: ignore[method-assign]
        assert bus._notify is not None
        bus._notify.terminate()
        bus.send(Announcement("x", "m", 1))
        await until(lambda: len(waits) == 5, "five failed sends")
        said = _said(caplog)
        assert len(said) == 1 and "out of reach" in said[0].getMessage(), [r.getMessage() for r in said]
        assert waits == [0.1, 0.2, 0.4, 0.8, 1.6]  # backing off, not every 0.1 s
        assert len(attempts) == 4, attempts  # a reconnect after each wait ended
        bus._connect_notifier = real_connect  # type: ignore[method-assign]
        back.set()
        await until(lambda: not bus._pending, "what waited to go out once the database answered")
        assert len(_said(caplog)) == 1
    finally:
        await bus.close()


def test_a_call_begun_before_the_outage_does_not_end_it(caplog: pytest.LogCaptureFixture) -> None:
    """A sweep that had its connection before the database went away may still
    finish well after the first failure: that is no news that the database is
    back (it ended an outage 16 ms after it began, in CI)."""
    log = OutageLog(logging.getLogger("magery.database.test"))
    caplog.set_level(logging.INFO)
    began_before = time.monotonic()
    log.failed("a request", ConnectionRefusedError(111, "refused"))
    log.reached(began_before)
    assert log.out and len(_said(caplog)) == 1
    log.reached(time.monotonic())
    assert not log.out and "reachable again" in _said(caplog)[-1].getMessage()


def test_every_part_reports_to_the_apps_one_outage_log(app: Any) -> None:
    """Handed in, not a global: the hub (its rooms and presence), the bot runner
    and the realtime bus tell the same log, so an outage is one line for the
    app whichever part meets it first."""
    parts = app.state.parts
    hub = parts.hub
    assert parts.outage is hub.outage is hub.seat_presence.outage is parts.bots.outage
    bus = getattr(hub.bus, "inner", hub.bus)  # the metered wrapper holds the real bus
    for shared in (bus, parts.gateway.limiter):  # on PostgreSQL: the LISTEN/NOTIFY bus, the shared window
        if hasattr(shared, "outage"):
            assert shared.outage is parts.outage
