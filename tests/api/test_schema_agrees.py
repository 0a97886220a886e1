"""Issue 12, defect 5: the OpenAPI description and the server say the same thing.

Spot checks of what schemathesis found (tests/api/test_schemathesis.py runs it
whole): create and join need no token; `?token=` empty on the socket is refused
1008 as documented; a 405 (OPTIONS included) lists every method of the path;
the schema admits no value the server refuses (bot levels, cursors, whole
numbers written 3.0, chaos mages, bounds of optional numbers)."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from app.bots import LEVELS
from app.kernel.cursor import CURSOR

from ..conftest import Api
from ..realtime.conftest import Closed, Socket, ws_path


async def _spec(client: httpx.AsyncClient) -> dict[str, Any]:
    return (await client.get("/openapi.json")).json()  # type: ignore[no-any-return]


async def test_create_and_join_ask_for_no_token(client: httpx.AsyncClient) -> None:
    paths = (await _spec(client))["paths"]
    for path in ("/api/v1/matches", "/api/v1/matches/{match_id}/join"):
        assert not paths[path]["post"].get("security"), path


async def test_an_empty_token_on_the_socket_is_refused_1008(app: Any, api: Api) -> None:
    game = await api.start()
    refused = await Socket.open(app, ws_path(game.id, token=""))  # accepted, so the reason reaches it
    with pytest.raises(Closed) as closed:
        await refused.receive()
    assert closed.value.code == 1008 and "unauthorized" in closed.value.reason
    watcher = await Socket.open(app, ws_path(game.id))  # no token at all: a watcher
    assert (await watcher.receive())["type"] == "snapshot"
    await watcher.close()


@pytest.mark.parametrize("method", ["OPTIONS", "PUT", "DELETE", "PATCH"])
async def test_a_405_lists_every_method_of_the_path(api: Api, method: str) -> None:
    game = await api.start()
    r = await api.client.request(method, f"{api.base}/{game.id}/actions")
    assert r.status_code == 405 and r.json()["error"] == "method_not_allowed"
    allowed = {m.strip() for m in r.headers["allow"].split(",")}
    assert {"GET", "POST"} <= allowed, allowed
    r = await api.client.request(method, api.base)
    assert {"GET", "POST"} <= {m.strip() for m in r.headers["allow"].split(",")}
    r = await api.client.request(method, f"{api.base}/{game.id}/resign")
    assert {m.strip() for m in r.headers["allow"].split(",")} == {"POST"}


async def test_the_opponent_pattern_names_the_real_levels(api: Api) -> None:
    schemas = (await _spec(api.client))["components"]["schemas"]
    pattern = schemas["CreateMatch"]["properties"]["opponent"]["pattern"]
    assert re.fullmatch(pattern, "human") and re.fullmatch(pattern, "bot:b") is None
    for level in LEVELS:
        assert re.fullmatch(pattern, f"bot:{level}")
    r = await api.client.post(api.base, json={"opponent": "bot:b"})
    assert r.status_code == 400


async def test_every_cursor_the_schema_admits_is_a_place_in_the_list(api: Api) -> None:
    schema = next(p for p in (await _spec(api.client))["paths"]["/api/v1/matches"]["get"]["parameters"]
                  if p["name"] == "cursor")["schema"]
    cursor_schema = schema["anyOf"][0] if "anyOf" in schema else schema
    assert cursor_schema["pattern"] == CURSOR
    made = [await api.create() for _ in range(3)]
    page = (await api.client.get(api.base, params={"limit": 2})).json()
    assert re.fullmatch(CURSOR, page["next_cursor"]) and len(page["next_cursor"]) <= cursor_schema["maxLength"]
    rest = (await api.client.get(api.base, params={"limit": 2, "cursor": page["next_cursor"]})).json()
    assert [m["id"] for m in page["matches"] + rest["matches"]] == [g.id for g in reversed(made)]
    for odd in ("0.a", "99999999999999.zzzz", "1." + "x" * 32):
        r = await api.client.get(api.base, params={"cursor": odd})
        assert r.status_code == 200, (odd, r.text)


async def test_numbers_bounds_and_chaos_mages_agree(api: Api) -> None:
    options = (await _spec(api.client))["components"]["schemas"]["Options"]["properties"]
    assert options["abandon_seconds"]["anyOf"][0]["minimum"] == 10  # bounds the schema states
    game = await api.start()
    r = await api.client.post(f"{api.base}/{game.id}/actions", headers=game.auth("white"),
                              json={"action": {"type": "pass"}, "version": float(game.version)})
    assert r.status_code == 422, r.text  # 3.0 is the version 3: read, then judged by the rules
    for body, status in (({"options": {"abandon_seconds": 10.0, "no_progress_rounds": 4.0}}, 201),
                         ({"options": {"abandon_seconds": 9}}, 400),
                         ({"options": {"chaos": ["seer", "magus"]}}, 201),
                         ({"options": {"chaos": ["seer", "seer"]}}, 400),
                         ({"options": {"chaos": [""]}}, 400)):
        r = await api.client.post(api.base, json=body)
        assert r.status_code == status, (body, r.text)
