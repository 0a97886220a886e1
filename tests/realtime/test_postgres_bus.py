"""The Postgres bus on its own: what one process sends, another hears, in order,
and a burst of announcements shares NOTIFYs instead of paying one each.
Skipped without PostgreSQL (failed under CI=true)."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from app.realtime.bus import Announcement, Message
from app.realtime.postgres import CHANNEL, NOTIFY_INTERVAL, PostgresBus
from tests.conftest import _asyncpg_dsn
from tests.waiting import DEADLINE, until


async def test_a_burst_is_heard_whole_and_in_order_in_few_notifies(postgres_url: str) -> None:
    heard: list[Message] = []
    sender, listener = PostgresBus(postgres_url), PostgresBus(postgres_url)
    await sender.start(lambda m: None, lambda: None)
    await listener.start(heard.append, lambda: None)
    # A raw listener counts the NOTIFYs themselves (each may carry many lines).
    raw = await asyncpg.connect(_asyncpg_dsn(postgres_url))
    notifies = 0

    def count(*_: object) -> None:
        nonlocal notifies
        notifies += 1

    await raw.add_listener(CHANNEL, count)
    try:
        burst = 300
        loop = asyncio.get_running_loop()
        started = loop.time()
        for version in range(1, burst + 1):
            sender.send(Announcement("elsewhere", "m1", version))
            await asyncio.sleep(0.001)  # one at a time, as actions land, not all at once
        await until(lambda: len(heard) >= burst, "the whole burst to be heard")
        spread = loop.time() - started
    finally:
        await raw.close()
        await sender.close()
        await listener.close()

    assert [m.version for m in heard if isinstance(m, Announcement)] == list(range(1, burst + 1))
    # At most one NOTIFY per interval (and one more for the first, sent at once),
    # over the time the burst took: the pacing is in time, so is the bound.
    # Without the pacing this was 299 NOTIFYs for 300 announcements over ~0.4 s.
    assert notifies <= spread / NOTIFY_INTERVAL + 2, (notifies, spread)


async def test_what_is_pending_at_close_still_goes_out(postgres_url: str) -> None:
    heard: list[Message] = []
    sender, listener = PostgresBus(postgres_url), PostgresBus(postgres_url)
    await sender.start(lambda m: None, lambda: None)
    await listener.start(heard.append, lambda: None)
    try:
        for version in range(1, 401):  # more than one NOTIFY payload holds
            sender.send(Announcement("elsewhere", "a-longer-match-id-000", version))
        await sender.close()
        await until(lambda: len(heard) >= 400, "all 400 to be heard")
    finally:
        await listener.close()
    assert [m.version for m in heard if isinstance(m, Announcement)] == list(range(1, 401))


class _SlowNotify:
    """A stand-in notify connection whose NOTIFY waits until released."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.sent: list[str] = []

    async def execute(self, _sql: str, _channel: str, payload: str) -> None:
        await self.release.wait()
        self.sent.append(payload)


async def test_what_is_dropped_while_a_notify_is_in_flight_is_never_what_it_sent(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import app.realtime.postgres as module

    monkeypatch.setattr(module, "MAX_PENDING", 4)
    bus = PostgresBus("postgresql://unused")
    slow = _SlowNotify()
    bus._notify = slow  # type: ignore[assignment]
    for version in (1, 2, 3):
        bus.send(Announcement("o", "m", version))
    flushing = asyncio.create_task(bus._flush())
    await until(lambda: not bus._pending, "1-3 to be in flight")
    for version in range(4, 10):  # the queue overflows: the oldest unsent ones go
        bus.send(Announcement("o", "m", version))
    slow.release.set()
    await flushing
    assert slow.sent == ["\n".join(Announcement("o", "m", v).encode() for v in (1, 2, 3))]
    assert list(bus._pending) == [Announcement("o", "m", v).encode() for v in (6, 7, 8, 9)]


async def test_close_ends_even_when_a_task_of_the_bus_lost_its_cancel() -> None:
    """On Python 3.11 asyncio.wait_for can swallow a cancel that meets a finished
    call (a NOTIFY, a SELECT 1), leaving a loop of the bus running: close() must
    end all the same, or the server's shutdown hangs."""
    bus = PostgresBus("postgresql://unused", check_seconds=0.3)

    async def deaf() -> None:
        while True:
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                continue  # the cancel is lost

    task = asyncio.create_task(deaf())
    bus._tasks = [task]
    await asyncio.sleep(0)
    closing = asyncio.create_task(bus.close())
    done, _ = await asyncio.wait([closing], timeout=DEADLINE)
    for stuck in (closing, task):  # whatever the outcome, leave nothing running
        stuck.get_coro().close()  # type: ignore[union-attr]
    assert closing in done  # it used to wait for the task for ever
