"""`?legal=true` on a match's socket or stream: each state a seat is sent (a
snapshot, an update, or a compact socket's delta) carries
the seat's legal actions when it is the seat's turn, so that a
client plays a turn with no `GET /legal` of its own.

It wraps the `send` the hub is handed for one socket or stream: the hub keeps
encoding each update once for the whole room, and only a seat that asked pays
for a read of its legal actions, at the moment its state goes out. The hub
sends to one socket in version order, one message at a time, so the order of
what the seat is sent is unchanged.

A seat that resumes (`?since=`) is told what to do even when it missed
nothing: once its catch-up went out, a `legal` message (`resumed`), unless a
state it was just sent carried `legal` already.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from app.realtime.room import After, dumps

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



def resumed(send: Send, legal_of: LegalOf, states_carry: bool) -> tuple[Send, After]:
    """(`send` watched, what follows a seat's catch-up): after a `?since=` at the
    match's version, or after the updates missed, `{"type": "legal", version,
    actions, setup}` when the seat has something to play at the version it holds.
    With `states_carry` (`?legal=true`) a state sent in the catch-up carried it
    already, if due: then nothing more."""
    stated = False

    async def sending(event: dict[str, Any]) -> None:
        nonlocal stated
        text = event.get("text")
        if states_carry and not stated and isinstance(text, str) and text.startswith(STATES):
            stated = True
        await send(event)

    async def after(version: int) -> dict[str, Any] | None:
        if stated:
            return None
        try:
            legal = await legal_of()
        except Exception:
            log.warning("legal actions for a resumed seat could not be read; not sent", exc_info=True)
            return None
        # Read at a newer version: that version's update follows, and the client does not hold it yet.
        if legal.get("version") != version or not (legal.get("actions") or legal.get("setup")):
            return None
        return {"type": "legal", **legal}

    return sending, after


class Reads(Protocol):
    """What a seat's legal actions are read from (the match service's reads)."""

    async def legal(self, match_id: str, colour: str) -> dict[str, Any]: ...


def for_seat(send: Send, reads: Reads, match_id: str, seat: str, legal: bool,
             resuming: bool) -> tuple[Send, After | None]:
    """A seat's `send`, and what follows its catch-up: with `legal`, each state
    carries its legal actions; `resuming` (`?since=`), a `legal` message after
    the catch-up (`resumed`)."""

    async def legal_of() -> dict[str, Any]:
        return await reads.legal(match_id, seat)

    if legal:
        send = with_legal(send, legal_of)
    if not resuming:
        return send, None
    return resumed(send, legal_of, legal)
