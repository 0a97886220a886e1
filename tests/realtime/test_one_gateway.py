"""Every way an action comes in passes the one gateway (app/matches/gateway.py), and
HTTP middleware wraps every route, the fast path included (issue 8)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from app.kernel.errors import RateLimited
from app.main import create_app
from app.matches import Caller

from ..conftest import ROW, Api, make_settings
from .conftest import Socket, ws_path

SETUP = {"type": "setup", "backrow": ROW}
CHARSET = "application/json; charset=utf-8"  # JSON all the same, but handed on to the declared route


async def test_rest_fast_path_declared_route_socket_and_bot_all_enter_by_the_door(
        app: Any, api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    gateway = app.state.parts.gateway
    entered: list[tuple[str, Caller]] = []
    real = gateway.enter

    async def spy(match_id: str, caller: Caller, write: bool = True) -> str:
        entered.append((match_id, caller))
        return await real(match_id, caller, write)

    monkeypatch.setattr(gateway, "enter", spy)
    game = await api.start()
    await api.act(game, "white", SETUP)  # the fast path
    r = await api.client.post(f"{api.base}/{game.id}/draw", json={"offer": True}, headers=game.auth("white"))
    assert r.status_code == 200
    body = {"action": {"type": "setup", "backrow": ROW[::-1]}, "version": game.version + 1}
    r = await api.client.post(f"{api.base}/{game.id}/actions", content=httpx.Request(
        "POST", "/", json=body).content, headers={"content-type": CHARSET, **game.auth("black")})
    assert r.status_code == 200, r.text  # the declared route
    game.match = r.json()["match"]
    sock = await Socket.open(app, ws_path(game.id, token=game.tokens["white"]))
    try:
        await sock.receive()  # the snapshot
        legal = await api.legal(game, "white")
        await sock.send({"type": "action", "action": legal["actions"][0], "version": game.version, "id": "w1"})
        ack, _ = await sock.receive_until(lambda m: m["type"] in ("ack", "error"))
        assert ack["type"] == "ack", ack
    finally:
        await sock.close()
    bot_game = await api.create(seat="black", opponent="bot:random")
    await app.state.parts.bots.idle()
    assert (await api.state(bot_game))["version"] >= 1
    kinds = [("bot" if c.bot else "token", m) for m, c in entered]
    assert kinds.count(("token", game.id)) == 5  # act, draw, declared act, legal, socket act
    assert ("bot", bot_game.id) in kinds


async def test_a_refusal_at_the_door_holds_for_every_entry(app: Any, api: Api,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    game = await api.start()
    before = await api.state(game)

    def refuse(caller: Caller) -> None:
        raise RateLimited(7)

    monkeypatch.setattr(app.state.parts.gateway, "count_write", refuse)
    fast = await api.post(game, "white", SETUP)
    declared = await api.client.post(
        f"{api.base}/{game.id}/actions", content=httpx.Request("POST", "/", json={
            "action": SETUP, "version": game.version}).content,
        headers={"content-type": CHARSET, **game.auth("white")})
    resign = await api.client.post(f"{api.base}/{game.id}/resign", headers=game.auth("white"))
    for r in (fast, declared, resign):
        assert r.status_code == 429 and r.json()["error"] == "rate_limited", r.text
        assert r.headers["retry-after"] == "7"
    sock = await Socket.open(app, ws_path(game.id, token=game.tokens["white"]))
    try:
        await sock.receive()
        await sock.send({"type": "action", "action": SETUP, "version": game.version, "id": "x"})
        error, _ = await sock.receive_until(lambda m: m["type"] == "error")
        assert error["error"] == "rate_limited"
    finally:
        await sock.close()
    assert {**await api.state(game), "server_time": None} == {**before, "server_time": None}  # nothing changed


async def test_http_middleware_wraps_the_fast_path(database_url: str) -> None:
    application = create_app(make_settings(database_url))

    @application.middleware("http")
    async def stamp(request: Any, call_next: Any) -> Any:
        response = await call_next(request)
        response.headers["x-stamped"] = "yes"
        return response

    async with application.router.lifespan_context(application):
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            api = Api(client)
            game = await api.start()
            r = await api.post(game, "white", SETUP)
            assert r.status_code == 200 and r.headers.get("x-stamped") == "yes"
            now = r.json()["match"]["version"]
            refused = await api.post(game, "white", SETUP, version=now)  # not white's turn
            assert refused.status_code == 403 and refused.headers.get("x-stamped") == "yes"
