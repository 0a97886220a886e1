"""`?legal=true` on a match's socket or stream: each state a seat is sent (a
snapshot, an update, or a compact socket's delta) carries
the seat's legal actions when it is the seat's turn, so that a
client plays a turn with no `GET /legal` of its own.

It wraps the `send` the hub is handed for one socket or stream: the hub keeps
encoding each update once for the whole room, and only a seat that asked pays
for its legal actions, at the moment its state goes out, and only when that
state says it is the seat's turn (the hub's `StateFrame` says whose, with no
parse); the record this process holds at that version answers them with no
read of the database when it can (`Reads.legal_at`). The hub
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

from app.realtime.frames import StateFrame
from app.realtime.room import After

log = logging.getLogger("magery.realtime")

Send = Callable[[dict[str, Any]], Awaitable[None]]
LegalOf = Callable[[], Awaitable[dict[str, Any]]]
# The seat's legal actions at a version as the text of GET .../legal's answer, or None
# when they are not at that version any more or give it nothing to play.
LegalAt = Callable[[int], Awaitable[str | None]]
STATES = ('{"type":"update"', '{"type":"snapshot"', '{"type":"delta"')  # how the hub encodes a state message


def with_legal(send: Send, seat: str, legal_at: LegalAt) -> Send:
    """`send`, adding `"legal": {version, actions, setup}` (GET .../legal's answer)
    to each update and snapshot after which `seat` has something to play.

    Only a state that says it is the seat's turn in an active match is asked
    about: the other seat has nothing to play there, and is sent the message
    with no read. The hub's state messages say so beside their text
    (`StateFrame`); another's text is parsed for it. The legal actions are
    those at the message's version: a read already at a newer version would
    answer another state's question, so they are left out then (the newer
    update follows, with its own). A read that fails leaves them out too: the
    message must still go."""

    async def sending(event: dict[str, Any]) -> None:
        if isinstance(event, StateFrame):
            if event.acting == seat:
                event = await _added(event, event.version, legal_at)
        elif event.get("type") == "websocket.send":
            text = event.get("text")
            if isinstance(text, str) and text.startswith(STATES):
                version = _maybe_acting(text, seat)
                if version is not None:
                    event = await _added(event, version, legal_at)
        await send(event)

    return sending


def _maybe_acting(text: str, seat: str) -> int | None:
    """The version of a state message's text after which `seat` may have something
    to play, else None. A delta says no turn when its turn did not change: asked."""
    message = json.loads(text)
    state = message.get("match")
    if message.get("type") == "delta":
        state = {"version": message.get("version"), "status": message.get("status"), "to_move": seat}
    if not isinstance(state, dict) or state.get("status") != "active" or state.get("to_move") != seat:
        return None
    version = state.get("version")
    return version if isinstance(version, int) else None


async def _added(event: dict[str, Any], version: int, legal_at: LegalAt) -> dict[str, Any]:
    """The event with its `legal`, or as it was."""
    try:
        legal = await legal_at(version)
    except Exception:
        log.warning("legal actions for a socket's state could not be read; sent without them", exc_info=True)
        return event
    if legal is None:
        return event
    return {"type": "websocket.send", "text": event["text"][:-1] + ',"legal":' + legal + "}"}


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

    async def legal_at(self, match_id: str, colour: str, version: int) -> str | None: ...


def for_seat(send: Send, reads: Reads, match_id: str, seat: str, legal: bool,
             resuming: bool) -> tuple[Send, After | None]:
    """A seat's `send`, and what follows its catch-up: with `legal`, each state
    carries its legal actions; `resuming` (`?since=`), a `legal` message after
    the catch-up (`resumed`)."""

    async def legal_of() -> dict[str, Any]:
        return await reads.legal(match_id, seat)

    async def legal_at(version: int) -> str | None:
        return await reads.legal_at(match_id, seat, version)

    if legal:
        send = with_legal(send, seat, legal_at)
    if not resuming:
        return send, None
    return resumed(send, legal_of, legal)
