"""The AsyncAPI description of an arena, live (app/api/tournament_live.py): its
websocket's and stream's messages and channels, added to asyncapi.py's."""

from __future__ import annotations

from typing import Any

from .asyncapi_messages import STAMP, _kind, _object, message

ARENA_TEXT = """\
An arena, live: a `hello`, then `arena` (the standings' page, the newest
pairings, the podium once finished) and, with an account, `me` (your own line)
and `yourGame` each time you are paired; each again as it changes, on whichever
server process holds the socket. Ask another page with `{"type": "page", "page": n}`.
A `ping` after 10 s of quiet (nothing to answer). Close codes: 1008 with a
reason (`no_such_tournament: ...`, `bad_request: ...`, `unauthorized: ...`,
`too_many_sockets: ...`), 1001 the server stopping (reconnect). docs/api.md,
"An arena, live"."""

ARENA_STREAM_TEXT = """\
The arena's websocket feed as one long HTTP answer (`application/x-ndjson`):
`hello`, `arena`, `me`, `yourGame` and a `ping` line after 7 s of quiet; it
ends after the `arena` line of the finished arena, or a `closing` line when the
server process stops. `?page=` picks the standings' page. docs/api.md, "An
arena, live"."""

TOURNAMENT_ID = {"tournament_id": {"description": "the arena's id (as GET /api/v1/tournaments/{tournament_id} takes it)"}}
PAGE = {"type": "integer", "minimum": 1, "maximum": 10000, "default": 1,
        "description": "the page of the standings (10 a page; 1: the top)"}
STANDING: dict[str, Any] = _object({
    "rank": {"type": "integer", "minimum": 1}, "name": {"type": "string"}, "score": {"type": "integer"},
    "games": {"type": "integer"}, "streak": {"type": "integer", "description": "wins in a row now"},
    "fire": {"type": "boolean", "description": "a streak of 2 or more: the next game counts double (the flame)"},
    "performance": {"type": ["integer", "null"]}})
PAIRING: dict[str, Any] = _object({
    "match": {"type": "string"}, "white": {"type": ["string", "null"]}, "black": {"type": ["string", "null"]},
    "status": {"enum": ["playing", "finished"]}, "result": {"enum": ["white", "black", "draw", "aborted", None]}})
ROW = {"rank": 1, "name": "Ada", "score": 8, "games": 3, "streak": 3, "fire": True, "performance": 2066}
SUMMARY = {"id": "Tq3b0aZc1mBx", "kind": "arena", "name": "Hourly Blitz", "status": "started",
           "variant": "standard", "time_control": "5+3", "rated": True, "starts_at": "2026-11-29T09:00:00.000Z",
           "ends_at": "2026-11-29T10:00:00.000Z", "players": 23}

ARENA_HELLO = message("arena_hello", "The first message: live; `server_time` sets the client's clock", _object({
    **_kind("hello"), "tournament": {"type": "string"}, "server_time": STAMP}),
    {"type": "hello", "tournament": "Tq3b0aZc1mBx", "server_time": "2026-11-29T09:12:00.250Z"})
ARENA = message("arena", "The arena now: its summary, one page of the standings, the newest pairings, the podium "
                         "once finished (sent again when it changes; every watcher of a page gets the same)", _object({
    **_kind("arena"), "tournament": {"type": "object"}, "page": {"type": "integer", "minimum": 1},
    "pages": {"type": "integer", "minimum": 1}, "page_size": {"type": "integer", "minimum": 1},
    "standings": {"type": "array", "items": STANDING}, "pairings": {"type": "array", "items": PAIRING},
    "podium": {"type": "array", "items": STANDING, "maxItems": 3}}),
    {"type": "arena", "tournament": SUMMARY, "page": 1, "pages": 3, "page_size": 10, "standings": [ROW],
     "pairings": [{"match": "ec60lFT8BdN4", "white": "Ada", "black": "Linus", "status": "playing", "result": None}],
     "podium": []})
ME = message("me", "With an account: your own line in the arena (sent again when it changes)", _object({
    **_kind("me"), "joined": {"type": "boolean"}, "active": {"type": "boolean", "description": "false: withdrawn"},
    "standing": {"anyOf": [STANDING, {"type": "null"}]}, "page": {"type": ["integer", "null"]},
    "game": {"type": ["string", "null"], "description": "the arena game you play now"}}),
    {"type": "me", "joined": True, "active": True, "standing": {**ROW, "rank": 14}, "page": 2, "game": None})
YOUR_GAME = message("yourGame", "With an account: you were paired; open `url` to play", _object({
    **_kind("yourGame"), "tournament": {"type": "string"}, "match": {"type": "string"},
    "colour": {"enum": ["white", "black"]}, "opponent": {"type": ["string", "null"]}, "url": {"type": "string"}}),
    {"type": "yourGame", "tournament": "Tq3b0aZc1mBx", "match": "Xb3kq9aaaaaa", "colour": "white",
     "opponent": "Ada", "url": "/matches/Xb3kq9aaaaaa"})
ARENA_PAGE = message("arena_page", "Send me another page of the standings", _object({
    **_kind("page"), "page": PAGE}), {"type": "page", "page": 2})
ARENA_ERROR = message("arena_error", "A message the socket will not take, and why", _object({
    **_kind("error"), "error": {"const": "bad_request"}, "detail": {"type": "string"}}),
    {"type": "error", "error": "bad_request", "detail": "page is a whole number from 1 to 10000"})

MESSAGES: dict[str, dict[str, Any]] = {"arena_hello": ARENA_HELLO, "arena": ARENA, "me": ME, "yourGame": YOUR_GAME,
                                       "arena_page": ARENA_PAGE, "arena_error": ARENA_ERROR}
SOCKET_SENT = ["arena_hello", "arena", "me", "yourGame", "arena_error", "ping", "pong"]
SOCKET_READ = ["arena_page", "ping", "pong"]
STREAM_SENT = ["arena_hello", "arena", "me", "yourGame", "ping", "closing"]
