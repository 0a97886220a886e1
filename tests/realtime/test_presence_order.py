"""Issue 17, item 14: presence said by one rule the database answers, whatever
order the processes' writes land in; a heartbeat that outlives a failed beat;
the seats held touched in one statement."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from sqlalchemy import event, select

from app.db.models import seats
from app.realtime.hub import Hub
from tests.conftest import Api

from ..waiting import until
from .conftest import TIMEOUT, Socket, custom_app, ws_path
from .test_hub import Log
from .test_hub import Socket as HubSocket

NO_HEARTBEAT = {"ws_ping_seconds": 3600.0, "ws_dead_after_seconds": 7200.0}  # only the fix can mend it


async def _rest_says(api: Api, match_id: str, colour: str) -> bool:
    r = await api.client.get(f"/api/v1/matches/{match_id}")
    return bool(r.json()["players"][colour]["connected"])


async def _rest_says_on_both(a: Api, b: Api, match_id: str, colour: str) -> bool:
    return await _rest_says(a, match_id, colour) and await _rest_says(b, match_id, colour)


async def test_a_reconnect_onto_another_process_leaves_rest_and_sockets_agreeing(
        postgres_url: str) -> None:
    """White's socket on A closes and White reconnects on B before the two
    processes hear of each other, and A's "absent" lands after B's "present" in
    the database (held back here until it has). REST, on either process, and the
    sockets must end agreeing that White is here."""
    async with custom_app(postgres_url, realtime_bus="postgres", **NO_HEARTBEAT) as (a_app, a_api), \
            custom_app(postgres_url, realtime_bus="postgres", **NO_HEARTBEAT) as (b_app, b_api):
        game = await a_api.start()
        a_source, b_source = a_app.state.parts.hub.source, b_app.state.parts.hub.source
        a_write, b_write = a_source.seat_presence, b_source.seat_presence
        b_wrote, a_wrote_absent = asyncio.Event(), asyncio.Event()

        async def a_late(match_id: str, colour: str, connected: bool) -> None:
            if not connected:
                await b_wrote.wait()  # A's "absent" lands after B's "present"
            await a_write(match_id, colour, connected)
            if not connected:
                a_wrote_absent.set()

        async def b_marked(match_id: str, colour: str, connected: bool) -> None:
            await b_write(match_id, colour, connected)
            if connected:
                b_wrote.set()

        a_source.seat_presence, b_source.seat_presence = a_late, b_marked
        watcher = await Socket.open(a_app, ws_path(game.id), client="10.8.0.9")
        on_a = await Socket.open(a_app, ws_path(game.id, token=game.tokens["white"]), client="10.8.0.1")
        await on_a.receive()
        await until(lambda: _rest_says(a_api, game.id, "white"), "REST on A to say White is here")
        await on_a.outbox.put({"type": "websocket.disconnect", "code": 1006})  # gone, not waited for
        on_b = await Socket.open(b_app, ws_path(game.id, token=game.tokens["white"]), client="10.8.0.1")
        await on_b.receive()
        await asyncio.wait_for(a_wrote_absent.wait(), TIMEOUT)
        await until(lambda: _rest_says_on_both(a_api, b_api, game.id, "white"), "REST on A and B to say White is here")
        presence, _ = await watcher.receive_until(
            lambda m: m["type"] in ("presence", "snapshot") and (m.get("players") or m["match"]["players"])
            ["white"]["connected"] is True)
        assert presence
        for sock in (watcher, on_b):
            await sock.close()
        on_a.task.cancel()


async def test_the_heartbeat_outlives_a_beat_that_fails(caplog: pytest.LogCaptureFixture) -> None:
    hub = Hub(Log(), ping_seconds=0.1, dead_after_seconds=1000)
    failed = asyncio.Event()

    def check(force: bool = False) -> None:
        if not failed.is_set():
            failed.set()
            raise RuntimeError("one beat's trouble")

    hub.open_files.check = check  # type: ignore[method-assign]
    with caplog.at_level(logging.ERROR, logger="magery.realtime"):
        await hub.start()
        sock = HubSocket()
        hub.join("m1", sock, None, None)
        await until(lambda: sum(1 for m in sock.got if m.get("type") == "ping") >= 3,
                    "pings to go on after the failure")
        await hub.close()
    assert failed.is_set()
    assert [r for r in caplog.records if "a beat failed" in r.getMessage() and r.exc_info]


async def test_the_heartbeat_notes_every_seat_held_in_one_statement(app: Any, api: Api) -> None:
    games = [await api.start() for _ in range(2)]
    parts = app.state.parts
    held = [(g.id, colour) for g in games for colour in ("white", "black")]
    async with parts.engine.begin() as conn:  # as if every seat had been written absent
        await conn.execute(seats.update().where(seats.c.match_id.in_([g.id for g in games]))
                           .values(connected=False))
    statements: list[str] = []

    def note(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.lstrip().upper().startswith("UPDATE SEATS"):
            statements.append(statement)

    event.listen(parts.engine.sync_engine, "before_cursor_execute", note)
    try:
        await parts.hub.source.touch(held)
    finally:
        event.remove(parts.engine.sync_engine, "before_cursor_execute", note)
    assert len(statements) == 1, statements
    async with parts.engine.connect() as conn:
        rows = (await conn.execute(select(seats.c.match_id, seats.c.colour, seats.c.connected)
                                   .where(seats.c.match_id.in_([g.id for g in games])))).all()
    assert sorted((r.match_id, r.colour) for r in rows if r.connected) == sorted(held)
    for g in games:  # and REST says so: the one rule, on what the heartbeat wrote
        assert all(p["connected"] for p in (await api.state(g))["players"].values())
