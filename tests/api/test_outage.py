"""A database out of reach is 503 with Retry-After, never a 500, and changes no
match: once it is back, the same action lands as if nothing had happened."""

from __future__ import annotations

import errno
import socket
import sqlite3
from typing import Any

import asyncpg
import pytest
from sqlalchemy.exc import DBAPIError, ProgrammingError
from sqlalchemy.ext.asyncio import create_async_engine

from app.db import make_engine
from app.db.outage import database_unavailable

from ..conftest import ROW, Api

DEAD = "postgresql+asyncpg://postgres@127.0.0.1:1/nowhere"  # nothing listens on port 1


def _unavailable(r: Any) -> None:
    assert r.status_code == 503, r.text
    assert r.json()["error"] == "unavailable"
    assert "retry" in r.json()["detail"]
    assert r.headers["retry-after"] == "1"


async def test_every_call_answers_503_while_the_database_is_away(app: Any, api: Api) -> None:
    game = await api.create()
    waiting = await api.create()
    await api.join(game)
    await api.act(game, "white", {"type": "setup", "backrow": ROW})
    before = (await api.client.get(f"{api.base}/{game.id}")).json()
    keeper = app.state.parts.service.keeper
    real = keeper.engine
    keeper.engine = make_engine(DEAD)
    try:
        setup = {"action": {"type": "setup", "backrow": ROW}, "version": before["version"], "id": "b-setup"}
        _unavailable(await api.client.post(f"{api.base}/{game.id}/actions", json=setup, headers=game.auth("black")))
        _unavailable(await api.client.get(f"{api.base}/{game.id}"))
        _unavailable(await api.client.get(api.base))
        _unavailable(await api.client.post(api.base, json={"options": {}, "seat": "white", "name": "Bo"}))
        _unavailable(await api.client.post(f"{api.base}/{waiting.id}/join", json={"name": "Cy"}))
        _unavailable(await api.client.post(f"{api.base}/{game.id}/resign", headers=game.auth("white")))
    finally:
        await keeper.engine.dispose()
        keeper.engine = real
    after = (await api.client.get(f"{api.base}/{game.id}")).json()
    assert {**after, "server_time": None} == {**before, "server_time": None}  # nothing changed (but the hour)
    r = await api.client.post(f"{api.base}/{game.id}/actions", json=setup, headers=game.auth("black"))
    assert r.status_code == 200, r.text
    assert r.json()["match"]["version"] == before["version"] + 1


async def test_no_free_pooled_connection_is_503(app: Any, api: Api, database_url: str) -> None:
    game = await api.create()
    keeper = app.state.parts.service.keeper
    real = keeper.engine
    keeper.engine = create_async_engine(database_url, pool_size=1, max_overflow=0, pool_timeout=0.2)
    try:
        async with keeper.engine.connect():  # the only connection, held
            _unavailable(await api.client.get(f"{api.base}/{game.id}"))
        assert (await api.client.get(f"{api.base}/{game.id}")).status_code == 200
    finally:
        await keeper.engine.dispose()
        keeper.engine = real


@pytest.mark.parametrize(("error", "out_of_reach"), [
    (asyncpg.exceptions.TooManyConnectionsError("sorry, too many clients already"), True),
    (asyncpg.exceptions.CannotConnectNowError("the database system is starting up"), True),
    (ConnectionRefusedError(111, "Connection refused"), True),
    (DBAPIError("SELECT 1", {}, asyncpg.exceptions.AdminShutdownError("terminating")), True),
    (ProgrammingError("SELECT * FROM nope", {}, Exception("relation \"nope\" does not exist")), False),
    (ValueError("a bug"), False),
    (KeyError("white"), False),
])
def test_what_counts_as_out_of_reach(error: BaseException, out_of_reach: bool) -> None:
    assert database_unavailable(error) is out_of_reach


def test_a_wrapped_cause_is_found() -> None:
    try:
        try:
            raise asyncpg.exceptions.TooManyConnectionsError("too many")
        except Exception as inner:
            raise RuntimeError("while saving") from inner
    except RuntimeError as outer:
        assert database_unavailable(outer)


@pytest.mark.parametrize("error", [
    socket.gaierror(-2, "Name or service not known"),  # docker-compose's `db` while it is down
    OSError("Multiple exceptions: [Errno 111] Connect call failed ('::1', 5432, 0, 0), "
            "[Errno 111] Connect call failed ('127.0.0.1', 5432)"),
    OSError(errno.EHOSTUNREACH, "No route to host"),
])
def test_every_way_of_not_reaching_the_host_counts(error: BaseException) -> None:
    assert database_unavailable(error)


@pytest.mark.parametrize("error", [
    asyncpg.exceptions.ProtocolViolationError("bind message supplies 2 parameters"),  # our bug
    sqlite3.OperationalError("unable to open database file"),  # a wrong path, not a moment's outage
    OSError(errno.ENOENT, "No such file or directory"),
])
def test_bugs_that_look_like_outages_stay_bugs(error: BaseException) -> None:
    assert not database_unavailable(error)


def test_an_error_merely_raised_while_handling_an_outage_is_judged_on_its_own() -> None:
    try:
        try:
            raise ConnectionRefusedError(111, "Connection refused")
        except ConnectionError:
            raise KeyError("a bug in the handler")  # noqa: B904 (the point of the test)
    except KeyError as bug:
        assert not database_unavailable(bug)
