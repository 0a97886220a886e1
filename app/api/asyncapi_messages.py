"""The messages of the live channels, as AsyncAPI message objects:
what the match's websocket, the match's stream and a person's channel carry.

The states, legal actions, chat lines and challenges inside them are not
written here: they are `$ref`s to the component schemas that asyncapi.py takes
from the app's OpenAPI description (made from the pydantic models of
app/api/schemas.py, chat.py, challenges.py), so the two cannot drift apart. What is
written here is the envelope each message is sent in (app/realtime/hub.py's
`hello`, room.py's snapshot and presence, ws.py's ack and error, ws_chat.py and
app/chat/relay.py's chat messages, app/people/person.py's `person`).
"""

from __future__ import annotations

from typing import Any

from app.rules import COLOURS

from .match_example import MATCH_EXAMPLE

STAMP: dict[str, Any] = {"type": "string", "format": "date-time",
                         "description": "RFC 3339, UTC, milliseconds", "examples": ["2026-11-22T13:20:02.118Z"]}
SEAT: dict[str, Any] = {"enum": [*COLOURS, None]}
CLIENT_ID: dict[str, Any] = {"type": "string", "pattern": "^[!-~]{1,64}$",
                             "description": "chosen by the client: 1-64 printable ASCII characters, no space"}


SCHEMAS = ("MatchState", "Players", "Legal", "Action", "ChatLine", "Challenge", "Challenges_", "Result",
           "Notification", "AnalysisPly", "Accuracy")  # the OpenAPI's, by name


def ref(name: str) -> dict[str, Any]:
    assert name in SCHEMAS, name
    return {"$ref": f"#/components/schemas/{name}"}


def _object(required: dict[str, Any], optional: dict[str, Any] | None = None) -> dict[str, Any]:
    """An object with these fields (`type` first). Open to new fields: the
    contract lets the server add some, and a client ignores what it does not know."""
    return {"type": "object", "properties": {**required, **(optional or {})}, "required": list(required)}


def _kind(name: str) -> dict[str, Any]:
    return {"type": {"const": name}}


def message(name: str, summary: str, payload: dict[str, Any], example: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "title": name, "summary": summary, "contentType": "application/json",
            "payload": payload, "examples": [{"name": name, "payload": example}]}


def _state_message(kind: str, fields: dict[str, Any]) -> dict[str, Any]:
    return _object({**_kind(kind), **fields, "match": ref("MatchState")}, {"legal": {
        **ref("Legal"), "description": "with `?legal=true`, a seat's: its legal actions when it is its turn "
                                       "(GET /legal's answer at this version)"}})


# -- sent by the server: the match's websocket and stream ---------------------------

HELLO = message("hello", "The socket's first message, always: live, at `version`, as `seat`", _object({
    **_kind("hello"), "version": {"type": "integer", "minimum": 0}, "seat": SEAT,
    "connected": {"type": "object", "properties": {c: {"type": "boolean"} for c in COLOURS},
                  "required": list(COLOURS)},
    "spectators": {"type": "integer", "minimum": 0}, "server_time": STAMP}),
    {"type": "hello", "version": 17, "seat": "white", "connected": {"white": True, "black": False},
     "spectators": 3, "server_time": "2026-11-22T13:20:02.118Z"})

SNAPSHOT = message("snapshot", "The match's state now (replace what you hold)", _state_message("snapshot", {}),
                   {"type": "snapshot", "match": {**MATCH_EXAMPLE, "spectators": 3}})

UPDATE = message("update", "One version: the log entry that made it and the state right after it",
                 _state_message("update", {
                     "version": {"type": "integer", "minimum": 1},
                     "action": {"type": "object", "properties": {"type": {"type": "string"}}, "required": ["type"],
                                "description": "the log entry's action: a seat's play (below), or one of the "
                                               "match's own (join, resign, draw_offer, timeout, abort, ...)",
                                "examples": [{"type": "place", "mage": "animist", "minion": "beast"},
                                             {"type": "resign"}]},
                     "player": SEAT, "automatic": {"type": "boolean"},
                     "words": {"type": "string", "description": "the entry in one sentence, told by the engine"},
                     "at": STAMP}),
                 {"type": "update", "version": 1, "action": {"type": "join"}, "player": "black",
                  "automatic": False, "words": "Black joins the match.", "at": MATCH_EXAMPLE["created_at"],
                  "match": {**MATCH_EXAMPLE, "spectators": 0}})

_PATH = {"type": "array", "minItems": 1, "items": {"type": ["string", "integer"]},
         "description": "object keys and array indices from the state's root"}
DELTA = message(
    "delta", "With `?updates=compact`: one version as what changed in the state since `base` (= version - 1); "
             "apply `changes` in order to the state you hold, then set the live fields it says in full",
    _object({
        **_kind("delta"), "version": {"type": "integer", "minimum": 2}, "base": {"type": "integer", "minimum": 1},
        "format": {"const": 1, "description": "the form of `changes`; another form gets another number"},
        "action": UPDATE["payload"]["properties"]["action"], "player": SEAT, "automatic": {"type": "boolean"},
        "at": STAMP,
        "status": {"type": "string", "enum": ["waiting", "active", "finished"],
                   "description": "the match's status after it (also among `changes` when it changed)"},
        "changes": {"type": "array", "items": {"oneOf": [
            {"type": "array", "prefixItems": [_PATH, {}], "minItems": 2, "maxItems": 2,
             "description": "[path, value]: set (or add) the value there"},
            {"type": "array", "prefixItems": [_PATH], "minItems": 1, "maxItems": 1,
             "description": "[path]: remove the key there"},
            {"type": "array", "prefixItems": [_PATH, {"type": "integer", "minimum": 0},
                                              {"type": "integer", "minimum": 0}, {"type": "string"}],
             "minItems": 4, "maxItems": 4,
             "description": "[path, start, count, text]: in the (ASCII) string there, the `count` "
                            "characters from `start` become `text`"}]}},
        "clock": {"anyOf": [{"type": "object"}, {"type": "null"}], "description": "the state's `clock`, whole"},
        "connected": {"type": "object", "properties": {c: {"type": "boolean"} for c in COLOURS},
                      "description": "each seat's `players.<colour>.connected`"},
        "spectators": {"type": "integer", "minimum": 0}},
        {"words": UPDATE["payload"]["properties"]["words"],
         "server_time": {**STAMP, "description": "the state's `server_time` when it is not `at` (absent: `at`)"},
         "legal": {**ref("Legal"), "description": "with `?legal=true`, a seat's, as on an update"}}),
    {"type": "delta", "version": 19, "base": 18, "format": 1, "action": {"type": "pass"}, "player": "black",
     "automatic": False, "words": "Black passes.", "at": "2026-11-22T13:20:05.400Z", "status": "active",
     "changes": [[["to_move"], "white"], [["passed", "black"], True]],
     "clock": {"white": 287000, "black": 291400, "running": "white"},
     "connected": {"white": True, "black": True}, "spectators": 3})

PRESENCE = message("presence", "Who is connected and how many watch, as it changes", _object({
    **_kind("presence"), "players": ref("Players"), "spectators": {"type": "integer", "minimum": 0},
    "version": {"type": "integer", "minimum": 0}}),
    {"type": "presence", "players": {c: {"name": n, "connected": True, "bot": None}
                                     for c, n in zip(COLOURS, ("Ada", "Bo"), strict=True)},
     "spectators": 4, "version": 18})

ACK = message("ack", "The socket's own action landed, at `version` (after its update)", _object({
    **_kind("ack"), "id": {"anyOf": [CLIENT_ID, {"type": "null"}]}, "version": {"type": "integer", "minimum": 1}},
    {"replayed": {"const": True, "description": "a resend of an action that landed before (the same `id`, action "
                                                "and version): its first answer again, nothing applied twice; "
                                                "absent otherwise"}}),
    {"type": "ack", "id": "c-42", "version": 18})

LEGAL = message("legal", "A seat resumed with `?since=`: what it may play at the version it now holds, once "
                         "what it missed went out (right after `hello` when it missed nothing); only when it has "
                         "something to play, and not when a state it was just sent carried `legal`", _object({
                             **_kind("legal"), "version": {"type": "integer", "minimum": 0},
                             "actions": {"type": "array", "items": ref("Action")},
                             "setup": {"type": "array", "items": {"type": "string"},
                                       "description": "in the setup phase: any order of these is a legal backrow"}}),
                {"type": "legal", "version": 17, "actions": [{"type": "pass"},
                                                             {"type": "place", "mage": "oracle", "minion": "fey"}],
                 "setup": []})

ERROR = message("error", "What the server will not do, and why; to that socket alone", _object({
    **_kind("error"), "id": {"anyOf": [CLIENT_ID, {"type": "null"}],
                             "description": "the message's id; null when it had none or could not be read"},
    "error": {"type": "string", "description": "a code of the REST error table, or the chat's",
              "examples": ["stale_version", "bad_request", "rate_limited", "guest_phrases_only"]},
    "detail": {"type": "string", "description": "a sentence for a person"},
    "version": {"type": ["integer", "null"], "description": "the match's version now"}},
    {"retry_after": {"type": "integer", "minimum": 0,
                     "description": "with `rate_limited`: the seconds to wait, as REST's Retry-After"},
     "used_on": {"type": "integer", "minimum": 0,
                 "description": "with `id_taken`: the version the action id was first used on"}}),
    {"type": "error", "id": "c-44", "error": "rate_limited", "detail": "too many writes; try again in 7 s",
     "version": 18, "retry_after": 7})

PING = message("ping", "Are you there? On the socket: answer `pong` within WS_DEAD_AFTER_SECONDS or be "
                       "closed 1011. On a stream: a keep-alive line, needing no answer", _object(_kind("ping")),
               {"type": "ping"})
CLOSING = message("closing", "A stream's last line when the server process stops (a socket is closed 1001 "
                             "then): the stream ended, the match did not. Resume with `?since=` (another "
                             "process answers)", _object({
                                 **_kind("closing"), "code": {"const": 1001, "description": "as the socket's close"},
                                 "reason": {"type": "string"}}),
                  {"type": "closing", "code": 1001, "reason": "server shutting down"})
PONG = message("pong", "The answer to a `ping`", _object(_kind("pong")), {"type": "pong"})

ANALYSIS = message(
    "analysis", "A computer analysis of the (finished) match progressing: the plies written since this process "
                "last told its sockets, and where it stands (as GET /matches/{id}/analysis answers)",
    _object({**_kind("analysis"), "match_id": {"type": "string"},
             "status": {"enum": ["queued", "running", "done", "failed"]},
             "progress": {"type": "number", "minimum": 0, "maximum": 1},
             "engine": {"type": "string"}, "accuracy": ref("Accuracy"),
             "plies": {"type": "array", "items": ref("AnalysisPly")}},
            {"failure": {"type": "string", "description": "while failed: why, in a few words"}}),
    {"type": "analysis", "match_id": "Xb3kq9", "status": "running", "progress": 0.42, "engine": "strong depth 2",
     "accuracy": {"white": 84.0, "black": 90.2},
     "plies": [{"version": 40, "eval": 0.12, "best": {"type": "pass"}, "judgement": None, "drop": None,
                "mover": "black"}]})

# -- sent by the server: the chat on the websocket ------------------------------------

ROOM: dict[str, Any] = {"enum": ["players", "spectators"]}
CHAT_ROOM = message("chat_room", "The answer to `chat_follow`: the room this socket reads and writes", _object({
    **_kind("chat_room"), "room": ROOM, "guest": {"type": "boolean"},
    "phrases": {"type": "array", "items": {"type": "string"}},
    "muted_until": {"anyOf": [STAMP, {"type": "null"}]}}),
    {"type": "chat_room", "room": "spectators", "guest": True, "phrases": ["Hello", "Good luck"],
     "muted_until": None})
CHAT_LINES = message("chat", "Lines said in the followed room (the backlog first, then each new one)", _object({
    **_kind("chat"), "room": ROOM, "lines": {"type": "array", "items": ref("ChatLine")}}),
    {"type": "chat", "room": "spectators", "lines": [
        {"id": 13, "room": "spectators", "author": "Guest", "seat": None, "text": "Hello",
         "at": "2026-11-27T01:02:05.120Z"}]})
CHAT_HIDDEN = message("chat_hidden", "Lines an admin hid: take them down", _object({
    **_kind("chat_hidden"), "room": ROOM, "ids": {"type": "array", "items": {"type": "integer"}}}),
    {"type": "chat_hidden", "room": "spectators", "ids": [13]})
CHAT_LINE = message("chatLine", "On a match's stream: a line said while it is open, in the room the caller "
                                 "reads (the players' for a seat, the spectators' for a watcher)", _object({
                                     **_kind("chatLine"), "room": ROOM,
                                     "username": {"type": "string", "description": "the writer's shown name: an "
                                                  "account's, a guest seat's, or \"Guest\""},
                                     "text": {"type": "string", "description": "plain text, never markup"},
                                     "id": {"type": "integer", "description": "the line's number (as GET /chat's)"},
                                     "seat": SEAT, "at": STAMP}),
                    {"type": "chatLine", "room": "players", "username": "Ada", "text": "Good luck", "id": 14,
                     "seat": "white", "at": "2026-11-27T01:02:06.000Z"})
CHAT_ACK = message("chat_ack", "The socket's own line was said", _object({
    **_kind("chat_ack"), "id": {"anyOf": [CLIENT_ID, {"type": "null"}]}, "line": ref("ChatLine")}),
    {"type": "chat_ack", "id": "c-45", "line": {"id": 14, "room": "players", "author": "Ada", "seat": "white",
                                                "text": "Good luck", "at": "2026-11-27T01:02:06.000Z"}})
CHAT_UNFOLLOWED = message("chat_unfollowed", "The answer to `chat_unfollow`: no chat line from now on",
                          _object(_kind("chat_unfollowed")), {"type": "chat_unfollowed"})

# -- sent by the client on the websocket ----------------------------------------------

ACTION_MESSAGE = message("action", "A seat plays, exactly as POST /matches/{id}/actions", _object({
    **_kind("action"), "action": ref("Action"), "version": {"type": "integer", "minimum": 0}}, {"id": CLIENT_ID}),
    {"type": "action", "action": {"type": "pass"}, "version": 18, "id": "c-44"})
CHAT_FOLLOW = message("chat_follow", "Send me this match's chat (its room's lines, then each new one)",
                      _object(_kind("chat_follow")), {"type": "chat_follow"})
CHAT_UNFOLLOW = message("chat_unfollow", "Stop sending me chat lines", _object(_kind("chat_unfollow")),
                        {"type": "chat_unfollow"})
CHAT_SAY = message("chat", "Say a line, as POST /matches/{id}/chat", _object({
    **_kind("chat"), "text": {"type": "string", "minLength": 1, "maxLength": 140}},
    {"id": CLIENT_ID, "room": ROOM}), {"type": "chat", "text": "Good luck", "id": "c-45"})

# -- a person's channel -----------------------------------------------------------------

PERSON_MATCH: dict[str, Any] = _object({
    "id": {"type": "string"}, "colour": {"enum": list(COLOURS)}, "status": {"enum": ["waiting", "active"]},
    "variant": {"type": "string"}, "opponent": {"type": ["string", "null"]},
    "opponent_computer": {"type": "boolean"}, "awaiting": {"type": "boolean"},
    "phase": {"type": ["string", "null"]}, "clock": {"type": ["object", "null"]},
    "time_control": {"type": ["object", "null"]}, "version": {"type": "integer", "minimum": 0}}, {
    "tournament": {"type": ["string", "null"], "description": "an arena game's arena (its id); null otherwise"}})
ARENA: dict[str, Any] = _object({
    "id": {"type": "string"}, "kind": {"const": "arena"}, "name": {"type": "string"},
    "status": {"enum": ["created", "started", "finished"]}, "variant": {"type": "string"},
    "time_control": {"type": "string", "examples": ["5+3"]}, "rated": {"type": "boolean"},
    "starts_at": STAMP, "ends_at": STAMP, "private": {"type": "boolean"},
    "min_rating": {"type": ["integer", "null"]}, "max_rating": {"type": ["integer", "null"]},
    "bots": {"type": "boolean"}})
PERSON_ARENA: dict[str, Any] = _object({
    **ARENA["properties"], "joined": {"type": "boolean", "description": "playing (false: withdrawn, a pause)"},
    "player": {"type": "string", "description": "your name in its standings"}})
ARENA_EXAMPLE: dict[str, Any] = {
    "id": "Tq3b0aZc1mBx", "kind": "arena", "name": "Hourly Blitz", "status": "started", "variant": "standard",
    "time_control": "5+3", "rated": True, "starts_at": "2026-11-29T09:00:00.000Z",
    "ends_at": "2026-11-29T10:00:00.000Z", "private": False, "min_rating": None, "max_rating": None, "bots": False}
PERSON = message("person", "Everything the person's pages show, as it is now (sent again when it changes)", _object({
    **_kind("person"), "challenges": ref("Challenges_"),
    "matches": {"type": "array", "items": PERSON_MATCH, "maxItems": 50},
    "awaiting": {"type": "integer", "minimum": 0}}, {
    "tournaments": {"type": "array", "items": PERSON_ARENA, "maxItems": 20,
                    "description": "the arenas you joined, not over for more than an hour, the latest first"},
    "inbox": _object({
        "unread": {"type": "integer", "minimum": 0, "description": "unread notices (the bell's count)"},
        "latest": {"type": "integer", "minimum": 0, "description": "the newest notice's id (0: none)"}})}),
    {"type": "person", "challenges": {"in": [], "out": []}, "inbox": {"unread": 1, "latest": 41}, "matches": [
        {"id": "ec60lFT8BdN4", "colour": "black", "status": "active", "variant": "standard", "opponent": "Ada",
         "opponent_computer": False, "awaiting": True, "phase": "decision", "clock": None,
         "time_control": {"type": "correspondence", "days": 3}, "version": 12, "tournament": None}], "awaiting": 1,
     "tournaments": []})

# -- an account's event stream ----------------------------------------------------------

OPPONENT: dict[str, Any] = {
    "opponent": {"type": ["string", "null"], "description": "the opponent's name"},
    "opponent_computer": {"type": "boolean", "description": "the opponent is a computer level"},
    "opponent_title": {"enum": ["BOT", None], "description": "BOT: the opponent is a bot account"}}
STARTED_MATCH: dict[str, Any] = _object({
    **PERSON_MATCH["properties"], "status": {"const": "active"}, **OPPONENT})
FINISHED_MATCH: dict[str, Any] = _object({
    "id": {"type": "string"}, "colour": {"enum": list(COLOURS)}, **OPPONENT, "variant": {"type": "string"},
    "status": {"const": "finished"},
    "result": {"anyOf": [ref("Result"), {"type": "null"}],
               "description": "as in the match's state (null if it is gone)"},
    "version": {"type": "integer", "minimum": 0}})
MATCH_START = message("matchStart", "A match of yours is under way (both seats taken); on opening, one per running match",
                      _object({**_kind("matchStart"), "match": STARTED_MATCH}),
                      {"type": "matchStart", "match": {
                          "id": "ec60lFT8BdN4", "colour": "black", "status": "active", "variant": "standard",
                          "opponent": "Ada", "opponent_computer": False, "opponent_title": None, "awaiting": False,
                          "phase": "setup", "clock": None, "time_control": None, "version": 1,
                          "tournament": "Tq3b0aZc1mBx"}})
MATCH_FINISH = message("matchFinish", "A match told by `matchStart` is over",
                       _object({**_kind("matchFinish"), "match": FINISHED_MATCH}),
                       {"type": "matchFinish", "match": {
                           "id": "ec60lFT8BdN4", "colour": "black", "opponent": "Ada", "opponent_computer": False,
                           "opponent_title": None, "variant": "standard", "status": "finished",
                           "result": {"winner": "black", "reason": "resigned"}, "version": 9}})
CHALLENGE_EXAMPLE: dict[str, Any] = {
    "id": "q3VtX0aZc1mB", "challenger": "Ada", "challenged": "Grace", "open": False,
    "url": "/challenges/q3VtX0aZc1mB", "computer": False, "variant": "standard",
    "time_control": {"type": "realtime", "minutes": 10, "increment": 5}, "colour": "random", "rated": True,
    "no_progress_rounds": 10, "status": "pending", "reason": None, "reason_text": None, "match_id": None,
    "created_at": "2026-11-27T01:00:00.000Z", "expires_at": "2026-11-27T01:10:00.000Z"}
CHALLENGE = message("challenge", "A challenge to you or by you awaits its answer; on opening, one per pending "
                    "challenge. An open challenge (to nobody) is told to its challenger alone",
                    _object({**_kind("challenge"), "challenge": ref("Challenge")}),
                    {"type": "challenge", "challenge": CHALLENGE_EXAMPLE})
CHALLENGE_DECLINED = message("challengeDeclined", "A pending challenge was declined (with its reason)",
                             _object({**_kind("challengeDeclined"), "challenge": ref("Challenge")}),
                             {"type": "challengeDeclined", "challenge": {
                                 **CHALLENGE_EXAMPLE, "status": "declined", "reason": "later",
                                 "reason_text": "asks you to challenge them later"}})
CHALLENGE_CANCELED = message("challengeCanceled", "A pending challenge was canceled by its challenger, or expired",
                             _object({**_kind("challengeCanceled"), "challenge": ref("Challenge")}),
                             {"type": "challengeCanceled", "challenge": {**CHALLENGE_EXAMPLE, "status": "canceled"}})

STANDING: dict[str, Any] = _object({
    "rank": {"type": "integer", "minimum": 1}, "name": {"type": "string"}, "score": {"type": "integer"},
    "games": {"type": "integer"}, "streak": {"type": "integer"}, "performance": {"type": ["integer", "null"]}})
TOURNAMENT_START = message(
    "tournamentStart", "An arena you joined (and did not withdraw from) is under way: it began, or you joined it "
                       "running; on opening, one per such arena. Its games' `matchStart` follow",
    _object({**_kind("tournamentStart"), "tournament": ARENA}),
    {"type": "tournamentStart", "tournament": ARENA_EXAMPLE})
TOURNAMENT_FINISH = message(
    "tournamentFinish", "An arena told by `tournamentStart` is over: its podium and your own standing",
    _object({**_kind("tournamentFinish"), "tournament": _object({
        **ARENA["properties"], "podium": {"type": "array", "items": STANDING, "maxItems": 3},
        "standing": {"anyOf": [STANDING, {"type": "null"}], "description": "yours"}})}),
    {"type": "tournamentFinish", "tournament": {
        **ARENA_EXAMPLE, "status": "finished",
        "podium": [{"rank": 1, "name": "Ada", "score": 8, "games": 3, "streak": 3, "performance": 2066}],
        "standing": {"rank": 1, "name": "Ada", "score": 8, "games": 3, "streak": 3, "performance": 2066}}})
NOTIFICATION = message("notification", "A new notice in the account's inbox (GET /account/notifications lists them)",
                       _object({**_kind("notification"), "notification": ref("Notification")}),
                       {"type": "notification", "notification": {
                           "id": 41, "kind": "your_turn", "text": "Your move against Grace.", "read": False,
                           "created_at": "2026-11-29T10:00:00.000Z",
                           "data": {"match_id": "ec60lFT8BdN4", "colour": "white", "opponent": "Grace",
                                    "variant": "standard"}}})

# Keys of components/messages: a name unique in the document (two messages are "chat").
MESSAGES: dict[str, dict[str, Any]] = {
    "hello": HELLO, "snapshot": SNAPSHOT, "update": UPDATE, "delta": DELTA, "presence": PRESENCE, "ack": ACK,
    "legal": LEGAL, "chatLine": CHAT_LINE, "error": ERROR, "ping": PING, "closing": CLOSING, "pong": PONG, "analysis": ANALYSIS, "chat_room": CHAT_ROOM,
    "chat_lines": CHAT_LINES, "chat_hidden": CHAT_HIDDEN,
    "chat_ack": CHAT_ACK, "chat_unfollowed": CHAT_UNFOLLOWED, "action": ACTION_MESSAGE,
    "chat_follow": CHAT_FOLLOW, "chat_unfollow": CHAT_UNFOLLOW, "chat_say": CHAT_SAY, "person": PERSON,
    "matchStart": MATCH_START, "matchFinish": MATCH_FINISH, "challenge": CHALLENGE,
    "challengeDeclined": CHALLENGE_DECLINED, "challengeCanceled": CHALLENGE_CANCELED,
    "tournamentStart": TOURNAMENT_START, "tournamentFinish": TOURNAMENT_FINISH,
    "notification": NOTIFICATION,
}
