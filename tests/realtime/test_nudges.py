"""Nudges (app/realtime/nudges.py): a key's waiters woken on this process and on
the others, every waiter woken when the bus was away, and nothing but the key sent."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.realtime.bus import MemoryBus, Nudge, decode
from app.realtime.hub import Hub
from app.realtime.nudges import Nudges
from app.realtime.postgres import PostgresBus

from ..waiting import DEADLINE, until
from .test_hub import Log


def test_a_nudge_round_trips_on_the_bus_and_a_bad_key_is_refused() -> None:
    nudge = Nudge("p1", "pool:standard:10+5")
    assert decode(nudge.encode()) == nudge
    nudges = Nudges("p1", lambda m: None)
    for bad in ("", "a|b", "x" * 121, "chat room"):
        with pytest.raises(ValueError, match="a nudge's key"):
            nudges.nudge(bad)


async def test_a_nudge_wakes_its_keys_waiters_only_and_once() -> None:
    sent: list[Nudge] = []
    nudges = Nudges("p1", sent.append)
    with nudges.listen("account:1") as mine, nudges.listen("account:2", "guest:g") as other:
        nudges.nudge("account:1")
        assert await mine.wait(DEADLINE) is True
        assert await mine.wait(0) is False  # woken once: cleared until the next nudge
        assert await other.wait(0) is False
        nudges.nudge("guest:g")
        assert await other.wait(DEADLINE) is True
        assert nudges.listening() == 3
    assert nudges.listening() == 0  # a waiter that left holds nothing
    assert sent == [Nudge("p1", "account:1"), Nudge("p1", "guest:g")]


async def test_a_nudge_reaches_a_waiter_on_another_process_and_the_bus_back_wakes_all() -> None:
    channel: list[Any] = []
    here, there = Hub(Log(), MemoryBus(channel)), Hub(Log(), MemoryBus(channel))
    await here.start()
    await there.start()
    try:
        with there.nudges.listen("challenge:ada") as waiter, there.nudges.listen("chat:m1") as quiet:
            here.nudges.nudge("challenge:ada")
            assert await waiter.wait(DEADLINE) is True
            assert await quiet.wait(0) is False
            there._on_bus_back()  # the link came back: anything may have been missed
            assert await waiter.wait(DEADLINE) is True and await quiet.wait(DEADLINE) is True
    finally:
        await here.close()
        await there.close()


async def test_a_nudge_crosses_postgres(postgres_url: str) -> None:
    heard: list[Any] = []
    sender, listener = PostgresBus(postgres_url), PostgresBus(postgres_url)
    await sender.start(lambda m: None, lambda: None)
    await listener.start(heard.append, lambda: None)
    try:
        # The listener may subscribe a moment after start returns: send until heard.
        async def heard_it() -> bool:
            sender.send(Nudge("elsewhere", "account:7"))
            await asyncio.sleep(0.05)
            return Nudge("elsewhere", "account:7") in heard
        await until(heard_it, "the nudge, across PostgreSQL")
    finally:
        await sender.close()
        await listener.close()
