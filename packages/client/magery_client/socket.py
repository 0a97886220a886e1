"""A match's websocket (docs/api.md, "Websocket: a match, live"), with what
every client must do done here: answer the server's `ping`, keep the version
held, reconnect with `?since=` after a close that says to (1001, 1006, 1011,
1012, 1013), and apply compact updates.

    async with client.socket(match_id, legal=True) as sock:
        async for message in sock:          # hello, snapshot, update, ack, ...
            if "legal" in message: await sock.act(choice, message["legal"]["version"])

The iteration ends after the message that shows the match finished.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlencode

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from .compact import DeltaMismatch, apply_delta
from .shapes import Action, Line, Match

RECONNECT_AFTER = {1001, 1006, 1011, 1012, 1013}  # never after 1008 or 1009: the same request is refused again
RECONNECT_PAUSE = 0.5


class SocketRefused(Exception):
    """The server closed the socket for good (1008, 1009): `code` and its `reason`."""

    def __init__(self, code: int | None, reason: str) -> None:
        self.code, self.reason = code, reason
        super().__init__(f"closed {code}: {reason}")


class MatchSocket:
    def __init__(self, server: str, match_id: str, token: str | None, *, legal: bool, since: int | None,
                 compact: bool) -> None:
        self._base = server.replace("http://", "ws://", 1).replace("https://", "wss://", 1)
        self.match_id, self._token = match_id, token
        self._legal, self._compact = legal, compact
        self.since = since  # the version held: a reconnection resumes after it
        self.state: Match | None = None  # the state held, once a snapshot or update came
        self._ws: ClientConnection | None = None

    async def __aenter__(self) -> MatchSocket:
        await self._open()
        return self

    async def __aexit__(self, *_: object) -> None:
        if self._ws is not None:
            await self._ws.close()

    async def _open(self) -> None:
        query: dict[str, str] = {"legal": "true" if self._legal else "false",
                                 "updates": "compact" if self._compact else "full"}
        if self.since is not None:
            query["since"] = str(self.since)
        headers = {"Authorization": f"Bearer {self._token}"} if self._token else {}
        url = f"{self._base}/api/v1/matches/{self.match_id}/ws?{urlencode(query)}"
        self._ws = await connect(url, additional_headers=headers)

    async def send(self, message: dict[str, Any]) -> None:
        assert self._ws is not None, "use `async with`"
        await self._ws.send(json.dumps(message))

    async def act(self, action: Action, version: int, *, action_id: str | None = None) -> str:
        """Sends an action chosen on `version`; its `ack` (or an `error`) comes among the
        messages, with the id answered here (a fresh one when not given)."""
        action_id = action_id or uuid.uuid4().hex
        await self.send({"type": "action", "action": action, "version": version, "id": action_id})
        return action_id

    async def _reconnect(self) -> None:
        await asyncio.sleep(RECONNECT_PAUSE)
        await self._open()

    def __aiter__(self) -> AsyncIterator[Line]:
        return self._messages()

    async def _messages(self) -> AsyncIterator[Line]:
        while True:
            assert self._ws is not None, "use `async with`"
            try:
                raw = await self._ws.recv()
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd else 1006
                if code not in RECONNECT_AFTER:
                    raise SocketRefused(code, closed.rcvd.reason if closed.rcvd else "") from None
                await self._reconnect()
                continue
            message: Line = json.loads(raw)
            kind = message.get("type")
            if kind == "ping":
                await self.send({"type": "pong"})
                continue
            if kind == "delta":
                try:
                    message = {**message, "match": apply_delta(self.state or {}, message)}
                except DeltaMismatch:
                    await self._ws.close()
                    await self._reconnect()  # with ?since=: the updates after it come whole
                    continue
            if kind in ("snapshot", "update", "delta"):
                self.state = message["match"]
                self.since = self.state["version"]
            yield message
            if kind in ("snapshot", "update", "delta") and self.state and self.state.get("status") == "finished":
                return
