"""Issue 17, items 5, 7 and 13: what one client may take of the HTTP API.

- Every write attempt counts against the write budget, well-formed or not: a
  flood of malformed or oversized-but-allowed bodies runs into 429 with
  Retry-After like a flood of good ones (REST create, /actions on the fast path
  and on the declared route, with a token and without).
- Reads have a budget of their own (429 with Retry-After), and the states of a
  finished match, which never change, are read from the database once.
- A body that does not arrive whole within `body_timeout_seconds` is refused
  with 408 and its connection closed.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from app.main import create_app
from app.matches import stored_states

from ..conftest import ROW, Api, _start_the_shared_windows_now, make_settings

JUNK = json.dumps([{"x": i} for i in range(5000)])  # ~60 KB: under the body limit, and no body of any route
assert 50_000 < len(JUNK) < 64 * 1024


def _client(app: Any, address: str) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, client=(address, 1234))
    return httpx.AsyncClient(transport=transport, base_url="http://t")


def _limited_429(r: httpx.Response) -> None:
    assert r.status_code == 429, r.text[:200]
    assert r.json()["error"] == "rate_limited" and 1 <= int(r.headers["Retry-After"]) <= 60


@pytest.mark.parametrize("fast_path", [True, False])
async def test_malformed_and_big_bodies_count_against_the_write_budget(database_url: str, fast_path: bool) -> None:
    app = create_app(make_settings(database_url, rate_limit_writes=4, rate_window_seconds=60, fast_path=fast_path))
    junk = {"content": JUNK, "headers": {"content-type": "application/json"}}
    async with app.router.lifespan_context(app):
        async with _client(app, "10.1.0.1") as a:  # REST create, no token
            codes = [(await a.post("/api/v1/matches", **junk)).status_code for _ in range(4)]
            assert codes == [400] * 4
            _limited_429(await a.post("/api/v1/matches", **junk))
            _limited_429(await a.post("/api/v1/matches", json={}))  # a good one too, now
        async with _client(app, "10.1.0.2") as b:  # /actions with a seat's token
            game = await Api(b).start()  # two writes of this address
            headers = {**game.auth("white"), "content-type": "application/json"}
            url = f"/api/v1/matches/{game.id}/actions"
            assert [(await b.post(url, content=JUNK, headers=headers)).status_code for _ in range(2)] == [400] * 2
            _limited_429(await b.post(url, content=JUNK, headers=headers))
            assert (await Api(b).state(game))["version"] == game.version  # reads go on
        async with _client(app, "10.1.0.3") as c:  # /actions without a token: the address counts
            url = f"/api/v1/matches/{game.id}/actions"
            assert [(await c.post(url, **junk)).status_code for _ in range(4)] == [400] * 4
            _limited_429(await c.post(url, **junk))


async def test_reads_have_a_budget_with_retry_after(database_url: str) -> None:
    app = create_app(make_settings(database_url, rate_limit_reads=5, rate_window_seconds=60))
    async with app.router.lifespan_context(app), _client(app, "10.2.0.1") as a, _client(app, "10.2.0.2") as b:
        game = await Api(b).start()
        codes = [(await a.get(f"/api/v1/matches/{game.id}")).status_code for _ in range(5)]
        assert codes == [200] * 5
        r = await a.get(f"/api/v1/matches/{game.id}/states")
        _limited_429(r)
        assert "reads" in r.json()["detail"]
        assert (await a.post("/api/v1/matches", json={})).status_code == 201  # writes have their own budget
        assert (await b.get(f"/api/v1/matches/{game.id}")).status_code == 200  # another address is not held


async def test_a_call_of_states_counts_as_ten_reads(database_url: str) -> None:
    app = create_app(make_settings(database_url, rate_limit_reads=25, rate_window_seconds=60))
    async with app.router.lifespan_context(app), _client(app, "10.2.1.1") as a, _client(app, "10.2.1.2") as b:
        game = await Api(b).start()
        url = f"/api/v1/matches/{game.id}/states"
        assert [(await a.get(url)).status_code for _ in range(2)] == [200, 200]  # 20 of 25
        _limited_429(await a.get(url))
        assert [(await a.get(f"/api/v1/matches/{game.id}")).status_code for _ in range(5)] == [200] * 5
        _limited_429(await a.get(f"/api/v1/matches/{game.id}"))


async def test_the_states_of_a_finished_match_are_read_once(app: Any, api: Api,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    read = stored_states.entries_between

    async def counted(*args: Any) -> Any:
        calls.append(args[1])
        return await read(*args)

    monkeypatch.setattr(stored_states, "entries_between", counted)
    game = await api.start()
    url = f"/api/v1/matches/{game.id}/states"
    running = [(await api.client.get(url)).json() for _ in range(2)]
    assert len(calls) == 2 and running[0] == running[1]  # a running match moves on: read each time
    assert (await api.client.post(f"/api/v1/matches/{game.id}/resign", headers=game.auth("white"))).status_code == 200
    first = await api.client.get(url, headers={"accept-encoding": "gzip"})
    again = await api.client.get(url, headers={"accept-encoding": "identity"})
    also = await api.client.get(url + "?from=1&to=1")
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json() and first.json()["states"][-1]["match"]["status"] == "finished"
    assert also.json()["states"] == first.json()["states"][:1]
    assert len(calls) == 4  # the finished match: once per range asked, never again


async def test_the_states_a_running_match_has_written_are_read_once(app: Any, api: Api,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    read = stored_states.entries_between

    async def counted(*args: Any) -> Any:
        calls.append(args[1])
        return await read(*args)

    monkeypatch.setattr(stored_states, "entries_between", counted)
    game = await api.start()
    await api.act(game, "white", {"type": "setup", "backrow": ROW})  # versions 1 (join) and 2
    url = f"/api/v1/matches/{game.id}/states?from=1&to=2"
    first = (await api.client.get(url)).json()
    assert (await api.client.get(url)).json() == first and len(calls) == 1  # written: read once
    await api.act(game, "black", {"type": "setup", "backrow": ROW})
    moved = (await api.client.get(url)).json()
    assert len(calls) == 1 and moved["states"] == first["states"]
    assert moved["version"] == (await api.state(game))["version"] > first["version"]  # the version now
    fresh = (await api.client.get(f"/api/v1/matches/{game.id}/states?from=1&to=3")).json()
    assert fresh["states"][:2] == first["states"] and len(calls) == 2  # a range asked anew is read


async def _trickle(first: bytes, never: asyncio.Event) -> AsyncIterator[bytes]:
    yield first
    await never.wait()  # the rest never comes
    yield b""


@pytest.mark.parametrize("path", ["/api/v1/matches", "/api/v1/matches/abcdefgh/actions"])
async def test_a_body_that_never_arrives_whole_is_cut_off_with_408(database_url: str, path: str) -> None:
    app = create_app(make_settings(database_url, body_timeout_seconds=0.2))
    never = asyncio.Event()
    async with app.router.lifespan_context(app), _client(app, "10.3.0.1") as a:
        r = await asyncio.wait_for(a.post(path, content=_trickle(b"[", never), headers={
            "content-length": "60000", "content-type": "application/json", "authorization": "Bearer x"}), 60)
        assert r.status_code == 408, r.text
        assert r.json()["error"] == "request_timeout" and "0.2 s" in r.json()["detail"]
        assert r.headers["connection"] == "close"
        # A body that comes whole in time is served as ever.
        assert (await a.post("/api/v1/matches", json={})).status_code == 201


async def test_with_redis_the_read_budget_holds_across_processes(database_url: str, redis_server: str,
                                                                 redis_prefix: str,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Two apps (two processes) on one Redis: an address's reads count once,
    wherever they land; alone, each would have let through the whole budget."""
    _start_the_shared_windows_now(monkeypatch)  # no window's end inside the test
    budget = 20
    shared = {"rate_limit_reads": budget, "rate_window_seconds": 60, "redis_url": redis_server,
              "redis_prefix": redis_prefix}
    one, two = create_app(make_settings(database_url, **shared)), create_app(make_settings(database_url, **shared))
    async with one.router.lifespan_context(one), two.router.lifespan_context(two), \
            _client(one, "10.2.2.1") as a1, _client(two, "10.2.2.1") as a2, _client(one, "10.2.2.2") as other:
        game = await Api(other).start()
        url = f"/api/v1/matches/{game.id}"
        codes = [(await client.get(url)).status_code for client in (a1, a2) * budget]
        allowed = codes.count(200)
        # Counted in each process until a quarter of the budget (SYNC_FROM), then
        # at Redis: at most that quarter over, per process. Apart, they let 40 through.
        assert budget <= allowed <= budget + 2 * (budget // 4), codes
        assert codes == [200] * allowed + [429] * (len(codes) - allowed)
        _limited_429(await a1.get(url))
        _limited_429(await a2.get(url))
        assert (await other.get(url)).status_code == 200  # another address is not held
