"""The send events the hub hands its sockets: a message's JSON encoded once, the
same event shared by every socket of a room.

A state message (a snapshot, an update, a compact socket's delta) goes out as a
`StateFrame`: the event with what the state said, read before it was encoded,
its version and the seat with something to play after it. A seat's socket
opened with `?legal=true` (app/api/legal_lines.py) asks exactly that of each
state it is sent, and parsing the text again for it was most of the work:
`json.loads` of a whole state for each of a match's two seats at every version.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.kernel.jsontext import compact


def dumps(message: dict[str, Any]) -> str:
    """A message's compact JSON text, by orjson where it can (app/kernel/jsontext.py):
    the standard library's encoder was a fifth of a version's fan-out."""
    return compact(message)


def frame(message: dict[str, Any]) -> dict[str, Any]:
    """The ASGI send event for `message`: encoded once, shareable by every socket."""
    return {"type": "websocket.send", "text": dumps(message)}


class StateFrame(dict[str, Any]):
    """The send event of a state message, an ASGI event like any other (a dict),
    with `version` (the state's) and `acting` (the seat to play after it: the
    state's `to_move` while the match is active, else None)."""

    __slots__ = ("version", "acting")

    def __init__(self, text: str, state: Mapping[str, Any]) -> None:
        super().__init__(type="websocket.send", text=text)
        self.version: int = state["version"]
        self.acting: str | None = state.get("to_move") if state.get("status") == "active" else None


def state_frame(message: dict[str, Any], state: Mapping[str, Any]) -> StateFrame:
    """`frame` of a state message, `state` being the match state it says (a delta's after)."""
    return StateFrame(dumps(message), state)
