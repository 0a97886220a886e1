"""`?legal=true` on a match's socket or stream: each state a seat is sent (a
snapshot, an update, or a compact socket's delta) carries
the seat's legal actions when it is the seat's turn, so that a
client plays a turn with no `GET /legal` of its own.

It wraps the `send` the hub is handed for one socket or stream: the hub keeps
encoding each update once for the whole room, and only a seat that asked pays
for a read of its legal actions, at the moment its state goes out. The hub
sends to one socket in version order, one message at a time, so the order of
what the seat is sent is unchanged.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from app.realtime.room import dumps

log = logging.getLogger("magery.realtime")

Send = Callable[[dict[str, Any]], Awaitable[None]]
LegalOf = Callable[[], Awaitable[dict[str, Any]]]
STATES = ('{"type":"update"', '{"type":"snapshot"', '{"type":"delta"')  # how the hub encodes a state message


def with_legal(send: Send, legal_of: LegalOf) -> Send:
    """`send`, adding `"legal": {version, actions, setup}` (GET .../legal's answer)
    to each update and snapshot after which this seat has something to play.

    The legal actions are read when the message goes out: a read already at a
    newer version would answer another state's question, so it is left out
    (the newer update follows, with its own). A read that fails leaves it out
    too: the message must still go."""

    async def sending(event: dict[str, Any]) -> None:
        text = event.get("text")
        if event.get("type") == "websocket.send" and isinstance(text, str) and text.startswith(STATES):
            text = await _added(text, legal_of)
            if text is not None:
                event = {"type": "websocket.send", "text": text}
        await send(event)

    return sending


async def _added(text: str, legal_of: LegalOf) -> str | None:
    """The message with its `legal`, or None to send it as it was."""
    message = json.loads(text)
    state = message.get("match")
    if message.get("type") == "delta":  # compact: no state, but its version and status are said
        state = {"version": message.get("version"), "status": message.get("status")}
    if not isinstance(state, dict) or state.get("status") != "active":
        return None
    try:
        legal = await legal_of()
    except Exception:
        log.warning("legal actions for a socket's state could not be read; sent without them", exc_info=True)
        return None
    if legal.get("version") != state.get("version") or not (legal.get("actions") or legal.get("setup")):
        return None
    return text[:-1] + ',"legal":' + dumps(legal) + "}"

