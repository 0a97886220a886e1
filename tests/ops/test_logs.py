"""Log lines are JSON objects, carry the request id into the match service's
lines, and never hold a seat token (`token=`, `access_token=`), a password or a
running match's seed: checked on the formatter, in-process, and on a real server
at DEBUG level driven over every channel."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import sys
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
from sqlalchemy.engine import make_url
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from app.ops import REQUEST_ID
from app.ops.logs import JsonLines, TextLines
from tests.conftest import ROW, Api, Game, _asyncpg_dsn
from tests.ops.conftest import Server
from tests.waiting import DEADLINE, until


async def _past(api: Api, game: Game, version: int) -> bool:
    return bool((await api.state(game))["version"] > version)


def _record(msg: str, args: tuple[Any, ...] = (), exc: Any = None) -> logging.LogRecord:
    return logging.LogRecord("app.matches.keeper", logging.ERROR, __file__, 1, msg, args, exc)


def test_a_json_line_has_the_request_id_and_no_secret() -> None:
    try:
        raise RuntimeError("asked with access_token=tok-in-exception")
    except RuntimeError:
        record = _record("connect %s with %r", ("postgresql://magery:pw-in-url@db/magery",
                                                {"seed": "seed-in-dict", "token": "tok-in-dict"}),
                         sys.exc_info())
    record.header = "Bearer tok-in-extra"  # an extra field, as logger.info(..., extra=...) makes
    reset = REQUEST_ID.set("req-7")
    try:
        line = JsonLines().format(record)
        text = TextLines().format(_record("GET /ws?token=tok-in-text"))
    finally:
        REQUEST_ID.reset(reset)
    data = json.loads(line)
    assert data["request_id"] == "req-7"
    assert data["level"] == "ERROR" and data["logger"] == "app.matches.keeper" and data["time"]
    assert "RuntimeError" in data["exc_info"] and "header" in data
    for secret in ("pw-in-url", "seed-in-dict", "tok-in-dict", "tok-in-exception", "tok-in-extra"):
        assert secret not in line, secret
    assert "[request req-7]" in text and "tok-in-text" not in text
    no_request = json.loads(JsonLines().format(_record("quiet")))
    assert "request_id" not in no_request


async def test_the_request_id_reaches_the_match_services_log_lines(
        app: Any, api: Api, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    game = await api.start()

    async def broken(match_id: str, updates: list[dict[str, Any]]) -> None:
        raise RuntimeError("the hub fell over")

    monkeypatch.setattr(app.state.parts.hub, "publish", broken)
    capsys.readouterr()
    r = await api.client.post(f"{api.base}/{game.id}/actions", headers={**game.auth("white"),
                              "X-Request-ID": "req-service-1"},
                              json={"action": {"type": "setup", "backrow": ROW}, "version": game.version})
    assert r.status_code == 200  # the commit stands; publishing failed and was logged
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines() if line.startswith("{")]
    from_service = [x for x in lines if x["logger"].startswith("app.matches")]
    assert from_service, lines
    assert all(x.get("request_id") == "req-service-1" for x in from_service)
    assert "publishing updates" in from_service[0]["message"]


async def test_a_real_server_at_debug_logs_json_and_no_secret(database_url: str, tmp_path: Path) -> None:
    password = "pw-never-logged-7f3a"
    url = database_url
    if url.startswith("postgres"):  # trust authentication: the password is sent and ignored
        url = make_url(url).set(password=password).render_as_string(hide_password=False)
    server = Server(url, tmp_path / "server.log", level="debug", log_level="DEBUG", log_format="json")
    tokens: list[str] = []
    try:
        await asyncio.to_thread(server.wait_ready)
        async with httpx.AsyncClient(base_url=server.base, timeout=DEADLINE) as http:
            made = (await http.post("/api/v1/matches", json={"options": {}, "seat": "white"})).json()
            match_id = made["match"]["id"]
            joined = (await http.post(f"/api/v1/matches/{match_id}/join", json={"name": "Bo"})).json()
            tokens += [made["token"], joined["token"]]
            auth = {"Authorization": f"Bearer {made['token']}"}
            r = await http.post(f"/api/v1/matches/{match_id}/actions", headers=auth,
                                json={"action": {"type": "setup", "backrow": ROW}, "version": 1})
            assert r.status_code == 200, r.text
            await http.post(f"/api/v1/matches/{match_id}/actions", headers=auth,  # refused: logged?
                            json={"action": {"type": "setup", "backrow": ROW}, "version": 1})
            await http.get(f"/api/v1/matches/{match_id}/legal",
                           headers={"Authorization": "Bearer wrong-token-abc123"})
            await http.get("/metrics")
        ws = server.ws(f"/api/v1/matches/{match_id}/ws")
        for query in (f"token={joined['token']}", f"access_token={made['token']}&token={made['token']}"):
            async with connect(f"{ws}?{query}") as sock:
                assert "hello" in await asyncio.wait_for(sock.recv(), 10)
                assert "snapshot" in await asyncio.wait_for(sock.recv(), 10)
        try:
            async with connect(f"{ws}?token=wrong{made['token']}") as sock:
                await asyncio.wait_for(sock.wait_closed(), 10)
        except InvalidStatus:
            pass
        seed = await _seed(database_url, match_id)
    finally:
        server.stop()
    log = server.text()
    assert "WebSocket /api/v1/matches/" in log and "token=[redacted]" in log  # logged, redacted
    for line in log.splitlines():
        json.loads(line)  # every line is one JSON object
    for secret in (*tokens, "wrong-token-abc123", seed, password):
        assert secret not in log


async def _seed(database_url: str, match_id: str) -> str:
    if database_url.startswith("postgres"):
        conn = await asyncpg.connect(_asyncpg_dsn(database_url))
        try:
            return str(await conn.fetchval("SELECT seed FROM matches WHERE id = $1", match_id))
        finally:
            await conn.close()
    import sqlite3

    with sqlite3.connect(make_url(database_url).database or "") as conn:
        return str(conn.execute("SELECT seed FROM matches WHERE id = ?", (match_id,)).fetchone()[0])


async def test_socket_and_bot_actions_get_request_ids_of_their_own(
        app: Any, api: Api, sockets: Any, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """No HTTP request carries a socket's message or a bot's move past OpsOutermost:
    the gateway gives each call an id of its own (`ws-…`, `bot-…`), one per call."""
    game = await api.start()
    bot_game = await api.create(seat="black", opponent="bot:random")
    await app.state.parts.bots.idle()  # the bot (White) sets up: its own id
    sock = await sockets(game.id, token=game.tokens["white"])
    await sock.receive()  # the snapshot

    async def broken(match_id: str, updates: list[dict[str, Any]]) -> None:
        raise RuntimeError("the hub fell over")

    monkeypatch.setattr(app.state.parts.hub, "publish", broken)
    capsys.readouterr()
    await sock.send({"type": "action", "action": {"type": "setup", "backrow": ROW}, "version": game.version, "id": "s1"})
    version = game.version
    await until(lambda: _past(api, game, version), "the action to land (its update, not published, never comes)")
    await api.state(bot_game)
    await api.act(bot_game, "black", {"type": "setup", "backrow": ROW})  # the bot's turn next
    await app.state.parts.bots.idle()
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines() if line.startswith("{")]
    failed = [x for x in lines if x["logger"].startswith("app.matches") and "publishing updates" in x["message"]]
    ids = [x.get("request_id") or "" for x in failed]
    assert any(re.fullmatch(r"ws-[0-9a-f]{16}", i) for i in ids), ids
    assert any(re.fullmatch(r"bot-[0-9a-f]{16}", i) for i in ids), ids
    assert None not in [x.get("request_id") for x in failed]
