"""What the server answers, as typed dicts: the fields a client reads most.

The whole description is the server's /openapi.json (and /asyncapi.json for
the live messages); a field not named here is still in the dict, and a field
the server adds later is simply there too (docs/api.md: a client ignores what
it does not know).
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

Colour = Literal["white", "black"]
Match = dict[str, Any]  # the match state of docs/api.md, "Read": MatchState in /openapi.json
Action = dict[str, Any]  # an action in the JSON form of docs/notation.md: {"type": "pass"}, ...
Line = dict[str, Any]  # one line of an ndjson stream, or one message of the websocket, with its "type"


class Seat(TypedDict):
    """The answer of create and join: the match, the seat taken, and its token
    (a guest's seat token, shown once; null for an account's seat)."""

    match: Match
    seat: Colour
    token: str | None


class Legal(TypedDict):
    """GET /legal's answer: what the seat may play at `version` (`setup`: the
    eight types to order, in the setup phase; `actions` otherwise)."""

    version: int
    actions: list[Action]
    setup: list[str]
