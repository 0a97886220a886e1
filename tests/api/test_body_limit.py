"""Issue 12, defect 4: a request body over `max_body_bytes` is refused with 413
`too_large` on every route, the fast path included, before it is read whole;
the largest legal request still passes."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from tests.conftest import ROW, Api
from tests.realtime.conftest import custom_app

LIMIT = 4096


@pytest.fixture
async def limited(database_url: str) -> AsyncIterator[tuple[Any, Api]]:
    async with custom_app(database_url, max_body_bytes=LIMIT) as made:
        yield made


def _routes(match_id: str) -> list[tuple[str, str]]:
    base = "/api/v1/matches"
    return [("POST", base), ("GET", base), ("GET", f"{base}/{match_id}"), ("POST", f"{base}/{match_id}/join"),
            ("GET", f"{base}/{match_id}/legal"), ("POST", f"{base}/{match_id}/actions"),
            ("GET", f"{base}/{match_id}/actions"), ("POST", f"{base}/{match_id}/resign"),
            ("POST", f"{base}/{match_id}/draw"), ("POST", f"{base}/{match_id}/claim"),
            ("POST", f"{base}/{match_id}/abort"), ("GET", "/openapi.json"), ("POST", "/nowhere")]


def _too_large(r: httpx.Response) -> None:
    assert r.status_code == 413, r.text[:200]
    assert r.json()["error"] == "too_large" and str(LIMIT) in r.json()["detail"]


@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=utf-8"])
async def test_a_body_over_the_limit_is_413_on_every_route(limited: tuple[Any, Api], content_type: str) -> None:
    _, api = limited
    game = await api.start()
    body = json.dumps({"action": {"type": "setup", "backrow": ROW}, "version": game.version,
                       "pad": "x" * LIMIT}).encode()
    headers = {**game.auth("white"), "content-type": content_type}
    for method, url in _routes(game.id):
        _too_large(await api.client.request(method, url, content=body, headers=headers))
    assert (await api.state(game))["version"] == game.version


async def test_a_streamed_body_is_counted_as_it_comes(limited: tuple[Any, Api]) -> None:
    _, api = limited
    game = await api.start()

    async def chunks(total: int) -> AsyncIterator[bytes]:
        yield b'{"action": {"type": "setup", "backrow": ' + json.dumps(ROW).encode() + b'}, "version": '
        yield str(game.version).encode() + b', "id": "'
        for _ in range(total // 100):
            yield b"x" * 100
        yield b'"}'

    url = f"{api.base}/{game.id}/actions"
    r = await api.client.post(url, content=chunks(LIMIT * 3), headers=game.auth("white"))
    assert "content-length" not in r.request.headers  # sent chunked
    _too_large(r)
    r = await api.client.post(url, content=chunks(0), headers={**game.auth("white"),
                                                                "content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"] == "bad_request", r.text  # read, then judged


async def test_the_largest_legal_request_fits(limited: tuple[Any, Api]) -> None:
    _, api = limited
    game = await api.start()
    body = {"action": {"type": "setup", "backrow": ROW}, "version": game.version, "id": "x" * 64}
    r = await api.client.post(f"{api.base}/{game.id}/actions", json=body, headers=game.auth("white"))
    assert r.status_code == 200, r.text
    r = await api.client.post(api.base, json={
        "options": {"variant": "ultimate_archmage", "no_progress_rounds": 1000, "seed": "s" * 128,
                    "chaos": ["seer", "magus", "alchemist", "mentalist", "enchanter", "dream_lord", "force_mage",
                              "illusionist", "shadow_mage", "rune_master", "conjurer"],
                    "time_control": {"type": "realtime", "minutes": 600, "increment": 300},
                    "join_timeout_seconds": 86400, "abandon_seconds": 86400},
        "seat": "random", "opponent": "human", "name": "N" * 40})
    assert r.status_code == 201, r.text


async def test_a_declared_length_over_the_limit_is_refused_unread(limited: tuple[Any, Api]) -> None:
    """Straight at the ASGI app: the 413 goes out without a byte of the body pulled."""
    app, api = limited
    game = await api.start()
    pulled: list[int] = []

    async def receive() -> dict[str, Any]:
        pulled.append(1)
        return {"type": "http.request", "body": b"x" * 65536, "more_body": True}

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    for path in (f"/api/v1/matches/{game.id}/actions", "/api/v1/matches"):
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
                 "scheme": "http", "path": path, "raw_path": path.encode(), "root_path": "",
                 "query_string": b"", "client": ("127.0.0.1", 1), "server": ("t", 80),
                 "headers": [(b"content-type", b"application/json"), (b"content-length", b"10000000"),
                             (b"authorization", f"Bearer {game.tokens['white']}".encode())]}
        sent.clear()
        await app(scope, receive, send)
        assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 413
    assert pulled == []
