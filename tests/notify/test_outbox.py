"""The outbox (app/notify/outbox.py, sender.py), on SQLite and PostgreSQL: a
delivery is written with its cause or not at all; a sender that dies holding
one loses nothing (its lease runs out, another delivers it, once); two senders
racing over the same rows deliver each once; a channel that is down is tried
again with a doubling pause, on an injected clock, and given up after a day."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from app.db import make_engine
from app.db.notify_models import notifications
from app.notify import Channels, Delivered, Gone, Notice, RetryLater, Sender, outbox, write

from ..api.members import member
from .conftest import Recorder, correspondence, outbox_rows

T0 = 1_800_000_000.0  # seconds since the epoch: where the tests' clocks start


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now


def sender(app: Any, recorder: Recorder, clock: Clock, name: str, engine: Any = None, **kw: Any) -> Sender:
    channels = Channels()
    channels.register(recorder)
    return Sender(engine or app.state.parts.engine, channels, clock=clock, name=name, **kw)


async def queue(app: Any, account_id: int, how_many: int, at: float = T0) -> None:
    async with app.state.parts.engine.begin() as conn:
        await write(conn, [Notice(account_id, "your_turn", {"match_id": f"m{i}"}) for i in range(how_many)],
                    ["push"], int(at * 1000))


async def test_a_delivery_is_written_with_its_cause_and_carries_the_match_and_account(
        app: Any, client: httpx.AsyncClient) -> None:
    recorder = Recorder()
    app.state.parts.channels.swap(recorder)
    ada, bo = await member(app, "Ada"), await member(app, "Bo")
    match = await correspondence(client, ada, bo)
    rows = await outbox_rows(app)
    to_move = {"white": ada, "black": bo}[match["to_move"]]
    assert [(r.channel, r.kind, r.account_id, r.data["match_id"]) for r in rows] == [
        ("push", "your_turn", to_move.account.id, match["id"])]
    assert rows[0].notification_id is not None and rows[0].tries == 0
    assert await app.state.parts.sender.send_due() == 1
    assert [(i.account_id, i.match_id, i.kind) for i in recorder.items] == [
        (to_move.account.id, match["id"], "your_turn")]
    assert recorder.items[0].text.startswith("Your move against ")
    assert await outbox_rows(app) == []


async def test_a_cause_that_does_not_commit_leaves_no_notice(app: Any) -> None:
    ada = await member(app, "Ada")
    with pytest.raises(RuntimeError):
        async with app.state.parts.engine.begin() as conn:
            await write(conn, [Notice(ada.account.id, "your_turn", {"match_id": "x"})], ["push"], 1)
            raise RuntimeError("the action's commit failed")
    assert await outbox_rows(app) == []
    async with app.state.parts.engine.connect() as conn:
        assert (await conn.execute(select(notifications))).all() == []


async def test_a_sender_that_dies_between_take_and_mark_loses_nothing(app: Any) -> None:
    ada = await member(app, "Ada")
    await queue(app, ada.account.id, 1)
    clock, recorder = Clock(), Recorder()
    # The first sender takes the row and dies before delivering it (nothing marks it).
    taken = await outbox.take(app.state.parts.engine, ["push"], "dead", int(clock() * 1000), 60_000, 10)
    assert len(taken) == 1
    heir = sender(app, recorder, clock, "heir", lease_seconds=60)
    assert await heir.send_due() == 0  # still the dead one's
    clock.now += 59
    assert await heir.send_due() == 0
    clock.now += 2  # its lease has run out
    assert await heir.send_due() == 1
    assert [i.id for i in recorder.items] == [taken[0][1].id]
    assert heir.counts[("push", "sent")] == 1 and await outbox_rows(app) == []
    # The dead one, were it to come back, can no longer touch the row.
    assert await outbox.finish(app.state.parts.engine, taken[0][1].id, "dead") is False
    clock.now += 3600
    assert await heir.send_due() == 0 and len(recorder.items) == 1


async def test_two_senders_racing_deliver_each_item_once(app: Any) -> None:
    ada = await member(app, "Ada")
    await queue(app, ada.account.id, 120)
    clock, recorder = Clock(), Recorder()

    class Yielding(Recorder):
        async def deliver(self, item: Any) -> Any:
            await asyncio.sleep(0)  # let the other sender run between take and mark
            return await super().deliver(item)

    recorder = Yielding()
    settings = app.state.parts.settings
    # Each sender on an engine of its own, as two processes are.
    engines = [make_engine(settings.database_url, 4, 0) for _ in range(2)]
    senders = [sender(app, recorder, clock, f"s{i}", engine=e, most=7) for i, e in enumerate(engines)]
    try:
        async def drain(one: Sender) -> None:
            while await one.send_due():
                pass

        await asyncio.gather(*(drain(s) for s in senders))
    finally:
        for e in engines:
            await e.dispose()
    delivered = Counter(i.id for i in recorder.items)
    assert len(delivered) == 120 and set(delivered.values()) == {1}, delivered.most_common(3)
    assert sum(s.counts[("push", "sent")] for s in senders) == 120
    assert await outbox_rows(app) == []


async def test_a_channel_down_is_tried_again_with_a_doubling_pause_then_dropped_after_a_day(app: Any) -> None:
    ada = await member(app, "Ada")
    await queue(app, ada.account.id, 1)
    clock, recorder = Clock(), Recorder(answer=lambda item: RetryLater("the push service is down"))
    one = sender(app, recorder, clock, "s", first_retry_seconds=30, most_retry_seconds=3600,
                 give_up_seconds=86_400)
    waits: list[float] = []
    while True:
        assert await one.send_due() == 1
        rows = await outbox_rows(app)
        if not rows:
            break
        wait = (rows[0].due_ms - int(clock.now * 1000)) / 1000
        waits.append(wait)
        clock.now += wait - 1
        assert await one.send_due() == 0  # not due a second early
        clock.now += 1
    assert waits[:8] == [30, 60, 120, 240, 480, 960, 1920, 3600]
    assert set(waits[7:]) == {3600}
    assert sum(waits) <= 86_400 < sum(waits) + 3600  # given up at the try that would pass a day
    assert one.counts[("push", "retried")] == len(waits) and one.counts[("push", "dropped")] == 1
    assert [i.tries for i in recorder.items] == list(range(len(waits) + 1))


async def test_the_channels_own_pause_a_player_gone_and_a_channel_that_raises(app: Any) -> None:
    ada = await member(app, "Ada")
    await queue(app, ada.account.id, 3)
    answers = {"m0": RetryLater("busy", after_seconds=5), "m1": Gone("no subscription")}

    def answer(item: Any) -> Any:
        if item.match_id == "m2":
            raise ConnectionError("refused")
        return answers[item.match_id]

    clock = Clock()
    one = sender(app, Recorder(answer=answer), clock, "s", first_retry_seconds=30)
    assert await one.send_due() == 3
    rows = {r.data["match_id"]: r for r in await outbox_rows(app)}
    assert set(rows) == {"m0", "m2"}  # the player gone: its row dropped
    assert rows["m0"].due_ms == int(T0 * 1000) + 5000 and rows["m2"].due_ms == int(T0 * 1000) + 30_000
    assert rows["m2"].tries == 1 and rows["m2"].lease_until_ms is None
    assert one.counts[("push", "failed")] == 1 and one.counts[("push", "retried")] == 2
    answers["m0"] = Delivered()
    clock.now += 5
    assert await one.send_due() == 1 and one.counts[("push", "sent")] == 1


async def test_the_metrics_count_deliveries_and_what_waits(app: Any, client: httpx.AsyncClient) -> None:
    recorder = Recorder()
    app.state.parts.channels.swap(recorder)
    ada, bo = await member(app, "Ada"), await member(app, "Bo")
    await client.post("/api/v1/challenges/Bo", json={}, headers=ada.token())
    parts = app.state.parts
    await parts.sender.count_queued()
    text = (await client.get("/metrics")).text
    assert 'magery_notifications_queued{channel="push"} 1.0' in text
    assert await parts.sender.send_due() == 1
    await parts.sender.count_queued()
    text = (await client.get("/metrics")).text
    assert 'magery_notifications_total{channel="push",outcome="sent"} 1.0' in text
    assert 'magery_notifications_queued{channel="push"} 0.0' in text
    assert [(i.account_id, i.kind, i.data["by"]) for i in recorder.items] == [(bo.account.id, "challenge", "Ada")]
