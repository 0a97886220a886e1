"""`/metrics` in the Prometheus text format says what happened: actions through
every entry (REST, fast path, socket, bot), refusals and resends, HTTP answers by
route template, open sockets, matches by status, bot think time; on PostgreSQL
also the bus's lag and the LISTEN link's reconnects."""

from __future__ import annotations

from typing import Any

import asyncpg
import httpx
import pytest

from app.matches import Gateway
from app.ops import MeteredGateway
from tests.conftest import ROW, Api, _asyncpg_dsn
from tests.ops.conftest import metric
from tests.realtime.conftest import custom_app
from tests.waiting import until


async def scrape(client: httpx.AsyncClient) -> str:
    r = await client.get("/metrics")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain; version=0.0.4")
    return r.text


async def test_actions_refusals_and_resends_are_counted_from_every_entry(
        app: Any, api: Api, sockets: Any) -> None:
    game = await api.start()
    await api.act(game, "white", {"type": "setup", "backrow": ROW}, id="w-setup")  # the fast path
    resend = await api.post(game, "white", {"type": "setup", "backrow": ROW}, version=game.version - 1,
                            id="w-setup")
    assert resend.status_code == 200  # answered as the first time
    stale = await api.post(game, "black", {"type": "setup", "backrow": ROW}, version=0)
    assert stale.status_code == 409
    black = await sockets(game.id, token=game.tokens["black"])
    await black.receive()
    await black.send({"type": "action", "action": {"type": "setup", "backrow": ROW},
                      "version": game.version, "id": "b-setup"})
    ack, _ = await black.receive_until(lambda m: m["type"] in ("ack", "error"))
    assert ack["type"] == "ack", ack
    text = await scrape(api.client)
    assert metric(text, "magery_actions_applied_total") == 2
    assert metric(text, "magery_actions_resent_total") == 1
    assert metric(text, "magery_actions_refused_total", error="stale_version") == 1
    assert metric(text, "magery_action_seconds_count") == 2
    assert metric(text, "magery_open_sockets", kind="seat") == 1
    assert metric(text, "magery_open_sockets", kind="spectator") == 0
    assert metric(text, "magery_matches", status="active") == 1
    assert metric(text, "magery_matches", status="waiting") == 0


async def test_open_sockets_count_every_socket_of_a_spectator(api: Api, sockets: Any) -> None:
    """The socket gauge counts sockets: one watcher with two tabs holds two (the
    match's spectator count, shown to the players, counts that watcher once)."""
    game = await api.start()
    for _ in range(2):
        await (await sockets(game.id)).receive()  # both from 127.0.0.1: one watcher
    text = await scrape(api.client)
    assert metric(text, "magery_open_sockets", kind="spectator") == 2
    assert metric(text, "magery_open_sockets", kind="seat") == 0
    assert metric(text, "magery_watched_matches") == 1


async def test_http_answers_are_counted_by_route_template_never_by_path(api: Api) -> None:
    game = await api.start()
    for _ in range(3):
        await api.state(game)
    await api.client.get(f"{api.base}/no-such-match")
    await api.client.get("/no/such/path")
    await api.act(game, "white", {"type": "setup", "backrow": ROW})
    text = await scrape(api.client)
    one = "/api/v1/matches/{match_id}"
    assert metric(text, "magery_http_responses_total", method="GET", route=one, code="200") == 3
    assert metric(text, "magery_http_responses_total", method="GET", route=one, code="404") == 1
    assert metric(text, "magery_http_responses_total", method="POST", route="/api/v1/matches",
                  code="201") == 1
    assert metric(text, "magery_http_responses_total", method="POST", route=one + "/actions",
                  code="200") == 1  # answered by the fast path, named all the same
    assert metric(text, "magery_http_responses_total", method="GET", route="unmatched", code="404") == 1
    assert game.id not in text  # no series per match


async def test_a_request_id_goes_in_and_comes_back(client: httpx.AsyncClient, api: Api) -> None:
    r = await client.get("/api/v1/matches", headers={"X-Request-ID": "trace-42.a:b"})
    assert r.headers["x-request-id"] == "trace-42.a:b"
    game = await api.start()
    played = await client.post(f"{api.base}/{game.id}/actions", json={  # the fast path
        "action": {"type": "setup", "backrow": ROW}, "version": game.version},
        headers={**game.auth("white"), "X-Request-ID": "trace-43"})
    assert played.status_code == 200 and played.headers["x-request-id"] == "trace-43"
    missing = await client.get(f"{api.base}/nothing-here", headers={"X-Request-ID": "trace-44"})
    assert missing.status_code == 404 and missing.headers["x-request-id"] == "trace-44"
    made = (await client.get("/api/v1/matches")).headers["x-request-id"]
    assert len(made) == 32  # none given: one is made
    odd = await client.get("/api/v1/matches", headers={"X-Request-ID": "no spaces or\tcontrols"})
    assert odd.headers["x-request-id"] != "no spaces or\tcontrols"


async def _counted(api: Api, name: str, **labels: str) -> str | None:
    """The metrics page once `name` has counted at least one, else None."""
    text = await scrape(api.client)
    return text if metric(text, name, **labels) >= 1 else None


async def test_bot_think_time_is_measured(app: Any, api: Api) -> None:
    await api.create(seat="black", opponent="bot:random")
    await api.client.get("/healthz")
    await app.state.parts.bots.idle()
    text = await until(lambda: _counted(api, "magery_bot_think_seconds_count", level="random"),
                       "the bot's think time counted")
    assert metric(text, "magery_actions_applied_total") >= 1  # the bot's setup, through the gateway


async def test_metrics_off_means_no_page_and_a_plain_door(database_url: str) -> None:
    async with custom_app(database_url, metrics=False) as (app, api):
        assert (await api.client.get("/metrics")).status_code == 404
        assert type(app.state.parts.gateway) is Gateway
        game = await api.start()  # and everything else works as before
        await api.act(game, "white", {"type": "setup", "backrow": ROW})
    async with custom_app(database_url) as (app, _):
        assert isinstance(app.state.parts.gateway, MeteredGateway)


async def test_bus_lag_and_listen_reconnects_on_postgres(database_url: str) -> None:
    if not database_url.startswith("postgres"):
        pytest.skip("the PostgreSQL bus only")
    async with custom_app(database_url) as (_, api):
        game = await api.start()
        await api.act(game, "white", {"type": "setup", "backrow": ROW})
        text = await until(lambda: _counted(api, "magery_bus_lag_seconds_count"),
                           "the NOTIFY to come back to this process's LISTEN")
        assert metric(text, "magery_bus_reconnects_total") == 0
        conn = await asyncpg.connect(_asyncpg_dsn(database_url))
        try:
            cut = await conn.fetchval(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND (query LIKE 'LISTEN%' OR query = 'SELECT 1')")
            # (a LISTEN link's last query is `SELECT 1` once the bus has checked it, every 5 s)
            assert cut >= 1
        finally:
            await conn.close()
        await until(lambda: _counted(api, "magery_bus_reconnects_total"), "the LISTEN link to be made again")


async def test_a_bugs_500_carries_its_request_id_and_is_counted(
        app: Any, api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """The error middleware answers a bug with the contract's 500; only a layer
    in front of it (OpsOutermost, app/main.py's `add_front`) sees that answer, to
    name it in /metrics and send the request id back with it."""
    game = await api.start()

    async def bug(match_id: str) -> dict[str, Any]:
        raise RuntimeError("a bug in a read")

    monkeypatch.setattr(app.state.parts.service.reads, "get", bug)
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        r = await client.get(f"{api.base}/{game.id}", headers={"X-Request-ID": "trace-500"})
        assert r.status_code == 500 and r.json()["error"] == "internal_error", r.text
        assert r.headers["x-request-id"] == "trace-500"
        text = await scrape(client)
    assert metric(text, "magery_http_responses_total", method="GET", route="/api/v1/matches/{match_id}",
                  code="500") == 1
