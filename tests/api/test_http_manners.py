"""What a client author expects of any HTTP API (issue 21, item 6): 415 for a
body not sent as JSON, `Location` on a 201, `WWW-Authenticate` on a 401, `HEAD`
wherever `GET` is, and validators (ETag, Cache-Control, 304) on the reads of a
finished match."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from app.matches.service import MatchService

from ..conftest import Api, FakeTime
from ..waiting import DEADLINE
from .members import member
from .streams import Stream

BASE = "/api/v1/matches"


async def test_a_body_not_sent_as_json_is_415(client: httpx.AsyncClient, api: Api) -> None:
    body = b'{"name": "Ada"}'
    for headers in ({"content-type": "text/plain"}, {"content-type": "application/x-www-form-urlencoded"}, {}):
        r = await client.post(BASE, content=body, headers=headers)
        assert r.status_code == 415, r.text
        assert r.json()["error"] == "unsupported_media_type" and "application/json" in r.json()["detail"]
    assert (await client.get(BASE)).json()["matches"] == []  # nothing made
    game = await api.start()
    r = await client.post(f"{BASE}/{game.id}/actions", content=b'{"version": 1}',
                          headers={**game.auth("white"), "content-type": "text/plain"})
    assert r.status_code == 415 and "text/plain" in r.json()["detail"], r.text
    # A JSON body of the wrong shape is still the schema's 400, and no body where one is optional is fine.
    assert (await client.post(BASE, json=[1])).status_code == 400
    assert (await client.post(BASE, content=b"", headers={"content-type": "text/plain"})).status_code == 201


async def test_201_has_location_and_401_www_authenticate(client: httpx.AsyncClient, api: Api) -> None:
    made = await client.post(BASE, json={"seat": "white"})
    assert made.status_code == 201 and made.headers["location"] == f"{BASE}/{made.json()['match']['id']}"
    assert (await client.get(made.headers["location"])).json()["id"] == made.json()["match"]["id"]
    game = await api.start()
    said = await client.post(f"{BASE}/{game.id}/chat", json={"text": "Good luck"}, headers=game.auth("white"))
    assert said.status_code == 201, said.text
    read = (await client.get(said.headers["location"], headers=game.auth("white"))).json()
    assert read["lines"][0] == said.json()["line"]
    for r in (await client.get(f"{BASE}/{game.id}/legal"),
              await client.get(f"{BASE}/{game.id}/legal", headers={"Authorization": "Bearer wrong"}),
              await client.post(f"{BASE}/{game.id}/resign", headers={"Authorization": "Basic eDp5"})):
        assert r.status_code == 401 and r.headers["www-authenticate"].startswith("Bearer"), r.text


async def test_head_is_answered_where_get_is(client: httpx.AsyncClient, api: Api, service: MatchService) -> None:
    FakeTime(service)  # a match's server_time stands still: its GET and HEAD describe one body
    game = await api.create()
    plain = {"Accept-Encoding": "identity"}
    for path in (f"{BASE}/{game.id}", BASE, f"{BASE}/{game.id}/actions", "/openapi.json"):
        got, head = await client.get(path, headers=plain), await client.head(path, headers=plain)
        assert head.status_code == 200 and head.content == b"", (path, head.status_code)
        assert head.headers["content-length"] == got.headers["content-length"]
        assert head.headers["content-type"] == got.headers["content-type"]
        # Asked with gzip, the HEAD says what its GET would: the same encoding and the
        # same gzip length (with the clock standing, the same body compressed).
        got, head = await client.get(path), await client.head(path)
        assert head.headers.get("content-encoding") == got.headers.get("content-encoding"), path
        assert head.headers["content-length"] == got.headers["content-length"], path
        if path == "/openapi.json":
            assert head.headers["content-encoding"] == "gzip"
    r = await client.head(f"{BASE}/{game.id}/resign")  # no GET there: no HEAD either
    assert r.status_code == 405 and r.headers["allow"] == "POST" and r.content == b""
    assert (await client.put(f"{BASE}/{game.id}")).headers["allow"] == "GET, HEAD"


async def test_a_finished_match_reads_carry_validators(client: httpx.AsyncClient, api: Api) -> None:
    game = await api.start()
    running = await client.get(f"{BASE}/{game.id}")
    assert "etag" not in running.headers and "cache-control" not in running.headers
    await api.setups(game)
    assert (await client.post(f"{BASE}/{game.id}/resign", headers=game.auth("black"))).status_code == 200
    for path in (f"{BASE}/{game.id}", f"{BASE}/{game.id}/actions", f"{BASE}/{game.id}/states?from=1",
                 f"{BASE}/{game.id}/advantage"):
        first = await client.get(path)
        tag = first.headers["etag"]
        assert first.status_code == 200 and first.headers["cache-control"] == "public, no-cache", path
        again = await client.get(path, headers={"If-None-Match": tag})
        assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == tag, path
        assert (await client.get(path, headers={"If-None-Match": 'W/"other"'})).status_code == 200
    # After the end a rematch offer still changes the state: its tag changes with it.
    state = f"{BASE}/{game.id}"
    tag = (await client.get(state)).headers["etag"]
    assert (await client.post(f"{state}/rematch", headers=game.auth("white"))).status_code == 200
    changed = await client.get(state, headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["etag"] != tag and changed.json()["rematch"]


async def test_head_of_a_stream_answers_its_headers_and_ends(app: Any, client: httpx.AsyncClient, api: Api) -> None:
    """A stream runs until its reader leaves: a HEAD of one is its headers at once,
    refused as the GET would be, and opens nothing (no place held, no stream of
    the token ended)."""
    game = await api.create()
    ada, bo = await member(app, "Ada"), await member(app, "Bo")
    streams = ((f"{BASE}/{game.id}/stream", {}), (f"{BASE}/{game.id}/stream?since=0", {}),
               ("/api/v1/stream/events", bo.token()), ("/api/v1/stream/person", bo.token()))
    async with Stream(app, "GET", "/api/v1/stream/events", bo.token()) as events:
        for path, headers in streams:
            async with asyncio.timeout(DEADLINE):
                head = await client.head(path, headers=headers)
            assert head.status_code == 200 and head.content == b"", (path, head.status_code)
            assert head.headers["content-type"].startswith("application/x-ndjson"), path
            assert head.headers["cache-control"] == "no-store", path
        for path, status in ((f"{BASE}/nosuchmatch/stream", 404), ("/api/v1/stream/events", 401),
                             (f"{BASE}/{game.id}/stream?legal=true", 400)):
            async with asyncio.timeout(DEADLINE):
                head = await client.head(path)
            assert head.status_code == status and head.content == b"", (path, head.status_code)
        hub, channel = app.state.parts.hub, app.state.parts.channel
        assert hub.by_address.total() == 0 and channel.open_count() == 1  # only the GET above
        r = await client.post("/api/v1/challenges/Bo", json={}, headers=ada.token())
        assert r.status_code == 201, r.text
        while (line := await events.next())["type"] == "ping":
            pass
        assert line["type"] == "challenge" and line["challenge"]["id"] == r.json()["id"]  # still open


async def test_a_number_in_the_query_is_digits_alone(client: httpx.AsyncClient, api: Api) -> None:
    """Every cursor and count the API reads is plain decimal digits: "+0.0",
    " 1" and "1_0" are refused naming the parameter, never read as a number."""
    game = await api.create()
    assert (await client.get(f"{BASE}/{game.id}/actions?since=0")).status_code == 200
    for odd in ("%2B0.0", "0.0", "%201", "1_0", "-0"):
        answer = await client.get(f"{BASE}/{game.id}/actions?since={odd}")
        assert answer.status_code in (400, 422), (odd, answer.status_code)
        assert "since" in answer.text, odd
    answer = await client.get("/api/v1/users/nobody/matches?limit=%2B5")
    assert answer.status_code in (400, 422) and "limit" in answer.text
    # and the published bounds stay in the schema beside the check (a client reads them there)
    spec = (await client.get("/openapi.json")).json()
    limit = next(p for p in spec["paths"]["/api/v1/users/{name}/matches"]["get"]["parameters"] if p["name"] == "limit")
    since = next(p for p in spec["paths"]["/api/v1/matches/{match_id}/actions"]["get"]["parameters"]
                 if p["name"] == "since")
    assert (limit["schema"]["minimum"], limit["schema"]["maximum"], since["schema"]["minimum"]) == (1, 100, 0)
