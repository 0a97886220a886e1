"""/asyncapi.json (issue 21): a valid AsyncAPI 3.0 document, checked against the
official JSON Schema (vendored: asyncapi_spec/SOURCE.md), whose every `$ref`
resolves; and true to the server: every message a played match sends over the
socket and the streams fits the document's schema for it, and every server
message the document lists for a channel is one the match really sent there."""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import re
from pathlib import Path
from typing import Any

import httpx
import jsonschema_rs
import pytest

from tests.conftest import ROW, Api, make_settings

from ..analysis.helpers import Searcher
from ..realtime import conftest as realtime
from ..realtime.conftest import RealtimeClock, Socket, ws_path
from ..waiting import DEADLINE
from .members import member
from .streams import Stream

SPEC = Path(__file__).parent / "asyncapi_spec" / "asyncapi-3.0.0.schema.json"
API_MD = Path(__file__).parents[2] / "docs" / "api.md"
SCHEMA_SHA256 = "abe96881dbfaad495ccbb6bd8d3fb43ca18a13b9d7564849ccb66f39d5e5b20f"
QUIET = 0.05  # seconds: a quiet stream's keep-alive line comes at once (the default is 7)
WRITES = 16  # per address in the hour: more than the match needs, fewer than it and a flood
# The socket's message keys in the document whose `type` is another word.
SOCKET_TYPES = {"chat_lines": "chat", "chat_say": "chat"}
realtime_clock = realtime.realtime_clock  # the fixture, found here by its name


@pytest.fixture
def settings(database_url: str) -> Any:
    return make_settings(database_url, match_stream_keepalive_seconds=QUIET, person_keepalive_seconds=QUIET,
                         ws_ping_seconds=0.25, ws_dead_after_seconds=3600.0,
                         rate_limit_writes=WRITES, rate_window_seconds=3600.0)


async def fetch(client: httpx.AsyncClient) -> dict[str, Any]:
    r = await client.get("/asyncapi.json")
    assert r.status_code == 200 and r.headers["content-type"] == "application/json", r.text
    return dict(r.json())


def spec_validator() -> Any:
    raw = SPEC.read_bytes()
    assert hashlib.sha256(raw).hexdigest() == SCHEMA_SHA256  # the official file, unchanged
    return jsonschema_rs.Draft7Validator(json.loads(raw))


def refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
        return found + [r for value in node.values() for r in refs(value)]
    if isinstance(node, list):
        return [r for value in node for r in refs(value)]
    return []


def resolve(doc: dict[str, Any], pointer: str) -> Any:
    assert pointer.startswith("#/"), pointer
    node: Any = doc
    for part in pointer[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def payload_validator(doc: dict[str, Any], key: str) -> Any:
    """A validator of one message's payload, its `$ref`s resolved in the document."""
    payload = doc["components"]["messages"][key]["payload"]
    return jsonschema_rs.Draft7Validator({"allOf": [payload], "components": doc["components"]})


def server_sends(doc: dict[str, Any], channel: str) -> dict[str, str]:
    """{message type: component key} of what the server sends on `channel`."""
    sent = doc["operations"][f"{channel}Sends"]["messages"]
    keys = [m["$ref"].rsplit("/", 1)[1] for m in sent]
    return {SOCKET_TYPES.get(k, k): k for k in keys}


async def test_the_document_is_valid_asyncapi_3_and_every_ref_resolves(client: httpx.AsyncClient) -> None:
    doc = await fetch(client)
    validator = spec_validator()
    errors = [f"{list(e.instance_path)}: {e.message[:200]}" for e in validator.iter_errors(doc)]
    assert errors == []
    assert doc["asyncapi"] == "3.0.0" and doc["servers"]["socket"] == {
        "host": "testserver", "protocol": "ws", "pathname": "/"}
    for pointer in refs(doc):
        assert resolve(doc, pointer) is not None, pointer
    addresses = {c["address"] for c in doc["channels"].values()}
    assert {"/api/v1/matches/{match_id}/ws", "/api/v1/matches/{match_id}/stream",
            "/api/v1/stream/person"} <= addresses
    # The state is the OpenAPI's own schema, not a copy made by hand (only each
    # discriminator written as AsyncAPI writes one: the property's name).
    openapi = (await client.get("/openapi.json")).json()
    assert doc["components"]["schemas"]["MatchState"] == \
        json.loads(re.sub(r'"discriminator": \{"propertyName": ("[^"]+")(, "mapping": \{[^}]*\})?\}', r'"discriminator": \1',
                          json.dumps(openapi["components"]["schemas"]["MatchState"])))
    assert '"discriminator": "type"' in json.dumps(doc["components"]["schemas"])
    # Each message's example is one its schema admits.
    for key, documented in doc["components"]["messages"].items():
        for example in documented["examples"]:
            assert payload_validator(doc, key).is_valid(example["payload"]), key
    # The validator is alive: a document with a wrong action is refused.
    broken = {**doc, "operations": {**doc["operations"],
                                    "matchSocketSends": {**doc["operations"]["matchSocketSends"],
                                                         "action": "publish"}}}
    assert not validator.is_valid(broken)
    # ...and so is a payload check: a hello without its version does not fit.
    assert not payload_validator(doc, "hello").is_valid({"type": "hello", "seat": None})
    # The socket's close codes, as docs/api.md's table lists those the server closes with.
    table = API_MD.read_text().split("### Close codes", 1)[1].split("\n### ", 1)[0]
    codes = set(re.findall(r"^\| (\d{4}) \|", table, re.M)) - {"1000", "1006"}  # not the server's words
    assert codes >= {"1001", "1008", "1011"}
    assert all(code in doc["channels"]["matchSocket"]["description"] for code in codes)
    # /docs shows the link (it renders the OpenAPI's description).
    assert "(/asyncapi.json)" in openapi["info"]["description"]


class Heard:
    """Every message a socket or stream was sent, in order."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    async def socket_until(self, sock: Socket, kind: str) -> dict[str, Any]:
        while True:
            event = await asyncio.wait_for(sock.inbox.get(), DEADLINE)
            assert event["type"] == "websocket.send", event
            message = dict(json.loads(event["text"]))
            self.messages.append(message)
            if message["type"] == kind:
                return message

    async def stream_until(self, stream: Stream, kind: str) -> dict[str, Any]:
        while True:
            message = await stream.next()
            self.messages.append(message)
            if message["type"] == kind:
                return message

    def types(self) -> set[str]:
        return {m["type"] for m in self.messages}


async def test_every_message_of_a_played_match_fits_the_document(
        realtime_clock: RealtimeClock, app: Any, client: httpx.AsyncClient, api: Api) -> None:
    doc = await fetch(client)
    game = await api.start()
    other = await api.start()  # watched at the end, as the server stops (before the flood uses the writes up)
    socket, stream, person = Heard(), Heard(), Heard()
    said: list[tuple[str, dict[str, Any]]] = []  # what the client sent, by component key

    async def send(sock: Socket, key: str, message: dict[str, Any]) -> None:
        said.append((key, message))
        await sock.send(message)

    white = await Socket.open(app, ws_path(game.id, token=game.tokens["white"], legal="true"))
    seated = Stream(app, "GET", f"/api/v1/matches/{game.id}/stream?legal=true", game.auth("black"))
    page = Stream(app, "POST", "/api/v1/stream/person", body={"seats": [{"match": game.id,
                                                                         "token": game.tokens["white"]}]})
    compact_stream = Stream(app, "GET", f"/api/v1/matches/{game.id}/stream?updates=compact")
    async with seated as black, page as channel, compact_stream as compact_lines:
        await socket.socket_until(white, "hello")
        version = (await socket.socket_until(white, "snapshot"))["match"]["version"]
        await stream.stream_until(black, "snapshot")
        await person.stream_until(channel, "person")
        await person.stream_until(channel, "ping")
        watcher = await Socket.open(app, ws_path(game.id), client="10.1.1.1")
        await socket.socket_until(white, "presence")  # a spectator came
        # Setup over the socket, the rest over REST.
        await send(white, "action", {"type": "action", "action": {"type": "setup", "backrow": ROW},
                                     "version": version, "id": "w-1"})
        await socket.socket_until(white, "ack")
        await send(white, "action", said[-1][1])  # a resend: its ack says it is the first answer again
        assert (await socket.socket_until(white, "ack"))["replayed"] is True
        await api.state(game)
        compact = await Socket.open(app, ws_path(game.id, updates="compact"), client="10.1.1.2")
        await socket.socket_until(compact, "snapshot")
        rng = random.Random(21)
        for _ in range(4):
            await api.step(game, rng)
        await socket.socket_until(compact, "delta")  # what changed, to a socket that asked for it
        await stream.stream_until(compact_lines, "delta")  # and to a stream
        await compact.close()
        # A seat resumed at the match's version is told what it may play, on the socket and the stream.
        mover = game.match["to_move"]
        resumed = await Socket.open(app, ws_path(game.id, token=game.tokens[mover], since=game.version))
        await socket.socket_until(resumed, "legal")
        await resumed.close()
        async with Stream(app, "GET", f"/api/v1/matches/{game.id}/stream?since={game.version}",
                          game.auth(mover)) as again:
            await stream.stream_until(again, "legal")
        await stream.stream_until(black, "ping")  # a quiet moment on the stream
        await send(white, "ping", {"type": "ping"})
        await socket.socket_until(white, "pong")
        await send(white, "pong", {"type": "pong"})
        await white.send("not json")  # an error: no documented message, on purpose
        await socket.socket_until(white, "error")
        # The chat: follow, say a line, an admin hides it, unfollow.
        await send(white, "chat_follow", {"type": "chat_follow"})
        await socket.socket_until(white, "chat_room")
        await send(white, "chat_say", {"type": "chat", "text": "Good luck", "id": "w-2"})
        line = (await socket.socket_until(white, "chat_ack"))["line"]
        await socket.socket_until(white, "chat")
        await stream.stream_until(black, "chatLine")  # the players' room, on Black's stream
        await app.state.parts.chat.hide(line["id"], "root")
        await socket.socket_until(white, "chat_hidden")
        await send(white, "chat_unfollow", {"type": "chat_unfollow"})
        await socket.socket_until(white, "chat_unfollowed")
        realtime_clock.now += 1.0  # the socket quiet past WS_PING_SECONDS: the server asks
        await socket.socket_until(white, "ping")
        # The end: a resignation, the stream's last line.
        r = await client.post(f"/api/v1/matches/{game.id}/resign", headers=game.auth("black"))
        assert r.status_code == 200, r.text
        while (await socket.socket_until(white, "update"))["match"]["status"] != "finished":
            pass
        while (await stream.stream_until(black, "update"))["match"]["status"] != "finished":
            pass
        # Its computer analysis, told to the sockets as it goes (searched here, not in a worker).
        app.state.parts.analyses.search = Searcher()
        r = await client.post(f"/api/v1/matches/{game.id}/analysis", headers=game.auth("black"))
        assert r.status_code == 202, r.text
        while (await socket.socket_until(white, "analysis"))["status"] != "done":
            pass
        for i in range(WRITES):  # a flood, until the write limit answers with its delay
            await white.send({"type": "action", "action": {"type": "pass"}, "version": 0, "id": f"f-{i}"})
            if (await socket.socket_until(white, "error"))["error"] == "rate_limited":
                break
        await white.close()
        await watcher.close()
        # The server stopping: a stream still open ends with `closing` (its match goes on),
        # and so does a person's channel.
        held = {"seats": [{"match": other.id, "token": other.tokens["white"]}]}
        async with Stream(app, "GET", f"/api/v1/matches/{other.id}/stream") as watching, \
                Stream(app, "POST", "/api/v1/stream/person", body=held) as own:
            await stream.stream_until(watching, "snapshot")
            await person.stream_until(own, "person")
            await app.state.parts.hub.close_sockets()
            await stream.stream_until(watching, "closing")
            await person.stream_until(own, "closing")
    assert any("legal" in m for m in socket.messages) and any("legal" in m for m in stream.messages)
    assert any("retry_after" in m for m in socket.messages)
    channels = {"matchSocket": socket, "matchStream": stream, "personStream": person}
    for name, heard in channels.items():
        documented = server_sends(doc, name)
        # Nothing invented: every message the document says the server sends here, it sent.
        assert set(documented) == heard.types(), name
        for message in heard.messages:
            errors = [e.message[:200] for e in payload_validator(doc, documented[message["type"]])
                      .iter_errors(message)]
            assert errors == [], (name, message["type"], errors)
    reads = {m["$ref"].rsplit("/", 1)[1] for m in doc["operations"]["matchSocketReads"]["messages"]}
    assert reads == {key for key, _ in said}  # every documented client message, sent and answered
    for key, message in said:
        assert payload_validator(doc, key).is_valid(message), (key, message)


async def test_every_line_of_an_accounts_event_stream_fits_the_document(app: Any, client: httpx.AsyncClient) -> None:
    """Each kind of line the events channel lists, sent for real (a match started
    and finished, a challenge made, declined, canceled; quiet; the server stopping)
    and each fitting its schema."""
    doc = await fetch(client)
    ada, bo = await member(app, "Ada"), await member(app, "Bo")
    heard = Heard()
    async with Stream(app, "GET", "/api/v1/stream/events", bo.token()) as events:
        await heard.stream_until(events, "ping")  # nothing yet: quiet
        made = (await client.post("/api/v1/challenges/Bo", json={"colour": "white"}, headers=ada.token())).json()
        await heard.stream_until(events, "challenge")
        r = await client.post(f"/api/v1/challenges/{made['id']}/accept", headers=bo.token())
        match_id = r.json()["match_id"]
        await heard.stream_until(events, "matchStart")
        declined = (await client.post("/api/v1/challenges/Bo", json={}, headers=ada.token())).json()
        await heard.stream_until(events, "challenge")
        await client.post(f"/api/v1/challenges/{declined['id']}/decline", json={"reason": "later"},
                          headers=bo.token())
        await heard.stream_until(events, "challengeDeclined")
        canceled = (await client.post("/api/v1/challenges/Bo", json={}, headers=ada.token())).json()
        await heard.stream_until(events, "challenge")
        await client.post(f"/api/v1/challenges/{canceled['id']}/cancel", headers=ada.token())
        await heard.stream_until(events, "challengeCanceled")
        assert (await client.post(f"/api/v1/matches/{match_id}/resign", headers=ada.token())).status_code == 200
        await heard.stream_until(events, "matchFinish")
        arena = (await client.post("/api/v1/tournaments", json={
            "name": "Events Arena", "time_control": "5+3", "minutes": 30}, headers=ada.token())).json()
        for who in (ada, bo):
            await client.post(f"/api/v1/tournaments/{arena['id']}/join", headers=who.token())
        await heard.stream_until(events, "tournamentStart")
        await heard.stream_until(events, "matchStart")  # the arena's game, naming it
        arenas = app.state.parts.arenas
        await arenas.tick()
        later = arenas.clock() + 31 * 60
        arenas.clock = lambda: later  # the arena is over
        await arenas.tick()
        await heard.stream_until(events, "tournamentFinish")
        await app.state.parts.hub.close_sockets()
        await heard.stream_until(events, "closing")
    documented = server_sends(doc, "eventsStream")
    assert set(documented) == heard.types()
    for message in heard.messages:
        errors = [e.message[:200] for e in payload_validator(doc, documented[message["type"]]).iter_errors(message)]
        assert errors == [], (message["type"], errors)
