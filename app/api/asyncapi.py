"""`GET /asyncapi.json`: the live parts of the API described in AsyncAPI 3.0,
as /openapi.json describes the rest.

One channel per live address, each made by a function of its own below; the
messages are asyncapi_messages.py's. The document describes the server: an
operation `send` is what the server sends, `receive` what it reads. The schemas
of what the OpenAPI types too (the match state, legal actions, chat lines,
challenges) are taken from the app's own OpenAPI description (made from the
pydantic models of schemas.py, chat.py and challenges.py) at the first
request: never a copy to keep in step. Only `servers` is per request: the host
the document was fetched from.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from . import asyncapi_arena as arena
from .asyncapi_messages import MESSAGES, SCHEMAS

URL = "/asyncapi.json"
MATCH_ID = {"match_id": {"description": "the match's id (as GET /api/v1/matches/{match_id} takes it)"}}

SOCKET_TEXT = """\
One match, live: a `hello`, then a `snapshot` (or, with `?since=`, the updates
missed, and a seat's `legal` when it has something to play), then every
`update` in version order with no gap and none twice, on
whichever server process holds the socket. One JSON object per text frame; a
client ignores a `type` it does not know. The server sends `ping` after
WS_PING_SECONDS (10) of silence: answer `pong` (any message counts) or the
socket is closed 1011 after WS_DEAD_AFTER_SECONDS (30).

Close codes: 1001 server going away (reconnect with `since`); 1008 policy, with
a reason `unauthorized: ...`, `not_found: ...`, `bad_request: ...`,
`message budget exceeded` or `too_many_sockets: ...` (do not reconnect as is);
1009 a frame over WS_MAX_FRAME_BYTES (do not reconnect); 1011 no answer to pings
(reconnect); 1012 the server restarting (reconnect); 1013 the database out of
reach at opening (reconnect after a pause). A refused `Origin` is answered HTTP
403 before the upgrade. docs/api.md, "Websocket: a match, live", says it all."""

STREAM_TEXT = """\
The websocket's feed as one long HTTP answer (`application/x-ndjson`), one JSON
object a line: the match's state (`snapshot`; with `?since=`, the updates
missed, and a seat's `legal` when it has something to play), then each
`update` and `presence`, a `chatLine` for each chat line said in the caller's
room, and a `ping` line (no answer needed) after
MATCH_STREAM_KEEPALIVE_SECONDS (7) of quiet. No `hello`: the 200 says it is
live. It ends after the line showing the match finished, or after a `closing`
line when the server process stops (resume with `since`). A seat's token or
account goes in `Authorization: Bearer`; refusals (400, 401, 404, 429, 503) are
JSON errors before any line, as /openapi.json lists. docs/api.md, "A match as
a stream (ndjson)"."""

PERSON_TEXT = """\
What concerns a person, pushed as it changes (`application/x-ndjson`): a
`person` message first and whenever it changes, and a `ping` line (no answer
needed) after PERSON_KEEPALIVE_SECONDS (7) of quiet; a `closing` line when
the server process stops (open the stream again). GET with an account's
credential; POST `{"seats": [{"match", "token"}]}` adds the guest seats a
browser holds. docs/api.md, "A person's channel"."""

EVENTS_TEXT = """\
What happens to an account, for a bot or any client that is not a browser
(`application/x-ndjson`, one JSON object a line). On opening, the whole
picture: a `matchStart` per running match, then a `challenge` per pending
challenge (a reconnecting client rebuilds from these). Then each as it happens,
with `matchFinish`, `challengeDeclined` and `challengeCanceled`; an accepted
challenge has no line of its own (its match's `matchStart` follows). An arena
you joined: `tournamentStart` when it begins (or on opening while it runs),
`tournamentFinish` when it ends; an arena game's `matchStart` names its
`tournament`. A `notification` line for each new notice of the account's
inbox. A `ping`
line (no answer needed) after PERSON_KEEPALIVE_SECONDS (7) of quiet; a `closing`
line when the server process stops (open the stream again). An account token of
either scope in `Authorization: Bearer`, or a session's cookie; one stream per
credential (a newer one ends the older). docs/api.md, "Your events, as a stream
(ndjson)"."""


def _query(**fields: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": fields}


SINCE = {"type": "integer", "minimum": 0, "description": "the last version you hold: resume after it"}
LEGAL = {"type": "string", "enum": ["true", "false"], "default": "false",
         "description": "a seat only: each state after which it has something to play carries `legal`"}
UPDATES = {"type": "string", "enum": ["full", "compact"], "default": "full",
           "description": "compact: an update may come as a `delta` (what changed) instead of the whole state"}
BEARER = {"type": "string", "pattern": "^Bearer .+$",
          "description": "a seat's token, or an account token (mgo_...) holding a seat of the match"}


def _refs(names: list[str], where: str) -> dict[str, Any]:
    return {name: {"$ref": f"{where}/{name}"} for name in names}


def _channel(address: str, title: str, text: str, servers: list[str], sent: list[str], read: list[str],
             parameters: dict[str, Any] | None = None, bindings: dict[str, Any] | None = None,
             ) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """A channel (its messages: those sent and those read) and its operations' messages by action."""
    channel: dict[str, Any] = {
        "address": address, "title": title, "description": text,
        "servers": [{"$ref": f"#/servers/{s}"} for s in servers],
        "messages": _refs(list(dict.fromkeys([*sent, *read])), "#/components/messages")}
    if parameters:
        channel["parameters"] = parameters
    if bindings:
        channel["bindings"] = bindings
    return channel, {"send": sent, "receive": read}


def match_socket() -> tuple[dict[str, Any], dict[str, list[str]]]:
    return _channel(
        "/api/v1/matches/{match_id}/ws", "A match, live (websocket)", SOCKET_TEXT, ["socket"],
        sent=["hello", "snapshot", "update", "delta", "legal", "presence", "ack", "error", "ping", "pong", "analysis",
              "chat_room", "chat_lines", "chat_hidden", "chat_ack", "chat_unfollowed"],
        read=["action", "ping", "pong", "chat_follow", "chat_unfollow", "chat_say"],
        parameters=MATCH_ID,
        bindings={"ws": {"method": "GET", "bindingVersion": "0.1.0", "query": _query(
            token={"type": "string", "description": "a seat's token: the socket plays for that seat "
                                                     "(one that proves no seat is closed 1008, never a watcher)"},
            since=SINCE, legal=LEGAL, updates=UPDATES), "headers": {"type": "object", "properties": {
                "Authorization": {**BEARER, "description": "instead of ?token=: a seat's token, or an "
                                                           "account token (mgo_...) holding a seat"}}}}})


def match_stream() -> tuple[dict[str, Any], dict[str, list[str]]]:
    return _channel(
        "/api/v1/matches/{match_id}/stream", "A match, live (ndjson stream)", STREAM_TEXT, ["http"],
        sent=["snapshot", "update", "delta", "legal", "presence", "chatLine", "ping", "closing"], read=[],
        parameters=MATCH_ID)


def person_stream() -> tuple[dict[str, Any], dict[str, list[str]]]:
    return _channel("/api/v1/stream/person", "A person's channel (ndjson stream)", PERSON_TEXT, ["http"],
                    sent=["person", "ping", "closing"], read=[])


def events_stream() -> tuple[dict[str, Any], dict[str, list[str]]]:
    return _channel("/api/v1/stream/events", "An account's events (ndjson stream)", EVENTS_TEXT, ["http"],
                    sent=["matchStart", "matchFinish", "challenge", "challengeDeclined", "challengeCanceled",
                          "tournamentStart", "tournamentFinish", "notification",
                          "ping", "closing"], read=[])


def arena_socket() -> tuple[dict[str, Any], dict[str, list[str]]]:
    return _channel(
        "/api/v1/tournaments/{tournament_id}/ws", "An arena, live (websocket)", arena.ARENA_TEXT, ["socket"],
        sent=arena.SOCKET_SENT, read=arena.SOCKET_READ, parameters=arena.TOURNAMENT_ID,
        bindings={"ws": {"method": "GET", "bindingVersion": "0.1.0", "query": _query(page=arena.PAGE),
                         "headers": {"type": "object", "properties": {"Authorization": {
                             "type": "string", "pattern": "^Bearer .+$",
                             "description": "optional: an account token (mgo_...): `me` and `yourGame` too"}}}}})


def arena_stream() -> tuple[dict[str, Any], dict[str, list[str]]]:
    return _channel("/api/v1/tournaments/{tournament_id}/stream", "An arena, live (ndjson stream)",
                    arena.ARENA_STREAM_TEXT, ["http"], sent=arena.STREAM_SENT, read=[],
                    parameters=arena.TOURNAMENT_ID)


# One function per live address.
CHANNELS: dict[str, Callable[[], tuple[dict[str, Any], dict[str, list[str]]]]] = {
    "matchSocket": match_socket, "matchStream": match_stream, "personStream": person_stream,
    "eventsStream": events_stream, "arenaSocket": arena_socket, "arenaStream": arena_stream,
}
# The HTTP method and query of each stream (AsyncAPI's http binding sits on operations).
STREAM_QUERIES: dict[str, dict[str, Any]] = {
    "matchStream": {"method": "GET", "bindingVersion": "0.3.0", "query": _query(since=SINCE, legal=LEGAL, updates=UPDATES)},
    "personStream": {"method": "GET", "bindingVersion": "0.3.0", "query": _query()},
    "eventsStream": {"method": "GET", "bindingVersion": "0.3.0", "query": _query()},
    "arenaStream": {"method": "GET", "bindingVersion": "0.3.0", "query": _query(page=arena.PAGE)},
}


def components(openapi: dict[str, Any]) -> dict[str, Any]:
    """The messages, and the OpenAPI's schemas they name (with those these name in turn)."""
    known = openapi["components"]["schemas"]
    wanted, schemas = list(SCHEMAS), {}
    while wanted:
        name = wanted.pop()
        if name not in schemas:
            schemas[name] = _asyncapi_schema(known[name])
            wanted += [r.rsplit("/", 1)[1] for r in _names(known[name])]
    return {"schemas": dict(sorted(schemas.items())), "messages": {**MESSAGES, **arena.MESSAGES}}


def _asyncapi_schema(node: Any) -> Any:
    """An OpenAPI schema as AsyncAPI's schema object takes it: the same but for the
    discriminator, which OpenAPI writes as an object (`propertyName`, `mapping`) and
    AsyncAPI as the property's name alone."""
    if isinstance(node, dict):
        return {key: (value["propertyName"] if key == "discriminator" and isinstance(value, dict)
                      else _asyncapi_schema(value)) for key, value in node.items()}
    if isinstance(node, list):
        return [_asyncapi_schema(value) for value in node]
    return node


def _names(node: Any) -> list[str]:
    """The `$ref`s in a schema."""
    if isinstance(node, dict):
        found = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
        return found + [r for value in node.values() for r in _names(value)]
    if isinstance(node, list):
        return [r for value in node for r in _names(value)]
    return []


def document(openapi: dict[str, Any]) -> dict[str, Any]:
    """The whole document but its `servers`."""
    channels, operations = {}, {}
    for name, make in CHANNELS.items():
        channel, by_action = make()
        channels[name] = channel
        for action, names in by_action.items():
            if not names:
                continue
            operation: dict[str, Any] = {
                "action": action, "channel": {"$ref": f"#/channels/{name}"},
                "summary": f"what the server {'sends' if action == 'send' else 'reads'} on {channel['title']}",
                "messages": [{"$ref": f"#/channels/{name}/messages/{m}"} for m in names]}
            if name in STREAM_QUERIES:
                operation["bindings"] = {"http": STREAM_QUERIES[name]}
            operations[f"{name}{'Sends' if action == 'send' else 'Reads'}"] = operation
    return {
        "asyncapi": "3.0.0",
        "info": {"title": "Magery Online: the live API", "version": "1.0.0",
                 "description": "The match's websocket and the ndjson streams. The REST API is at "
                                "/openapi.json; docs/api.md is the contract both follow."},
        "defaultContentType": "application/json",
        "channels": channels, "operations": operations, "components": components(openapi),
    }


def servers(request: Request) -> dict[str, Any]:
    """The host the document was fetched from: the websocket and the streams are on it."""
    host = request.headers.get("host") or "localhost"
    secure = request.url.scheme == "https"
    root = request.scope.get("root_path", "") or "/"
    return {"socket": {"host": host, "protocol": "wss" if secure else "ws", "pathname": root},
            "http": {"host": host, "protocol": "https" if secure else "http", "pathname": root}}


def install(app: FastAPI) -> None:
    made: list[dict[str, Any]] = []  # built at the first request, then kept

    @app.get(URL, include_in_schema=False)
    async def asyncapi(request: Request) -> JSONResponse:
        if not made:
            made.append(document(app.openapi()))
        return JSONResponse({**made[0], "servers": servers(request)})
