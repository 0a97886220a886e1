"""The match service as the hub and the socket endpoint need it (a thin adapter).

A socket's action goes through `MatchService.act`, the very function the REST
route calls, after the same seat check and the same write limits.
"""

from __future__ import annotations

from typing import Any

from app.api.deps import count_write
from app.matches.errors import NotFound, Unauthorized


class ServiceSource:
    def __init__(self, service: Any, limiter: Any = None) -> None:
        self.service, self.limiter = service, limiter

    # -- MatchSource (hub.py) ------------------------------------------------------

    async def snapshot(self, match_id: str) -> dict[str, Any] | None:
        try:
            state: dict[str, Any] = await self.service.get(match_id)
            return state
        except NotFound:
            return None

    async def updates_since(self, match_id: str, version: int) -> list[dict[str, Any]] | None:
        try:
            found: list[dict[str, Any]] | None = await self.service.updates_since(match_id, version)
            return found
        except NotFound:
            return None

    async def seat_presence(self, match_id: str, colour: str, connected: bool) -> None:
        await self.service.set_connected(match_id, colour, connected)

    async def touch(self, seats: list[tuple[str, str]]) -> None:
        for match_id, colour in set(seats):
            await self.service.touch(match_id, colour)

    # -- the socket endpoint's gate (app/api/ws.py) ------------------------------

    async def authorize(self, match_id: str, token: str | None) -> tuple[str | None, int]:
        """The seat `token` proves (None: a watcher) and the match's version now.
        Raises NotFound, or Unauthorized for a token that proves no seat."""
        state = await self.service.get(match_id)
        if token is None:
            return None, state["version"]
        if not token:
            raise Unauthorized("an empty token proves no seat; leave it out to watch")
        return await self.service.authenticate(match_id, token), state["version"]

    async def act(self, match_id: str, token: str, action: dict[str, Any], version: int,
                  client_id: str | None, address: str = "-") -> int:
        # The REST route's steps in its order: count the write, then prove the seat.
        if self.limiter is not None:
            count_write(self.limiter, address, token)
        colour = await self.service.authenticate(match_id, token)
        acted = await self.service.act(match_id, colour, action, version, client_id)
        return int(acted.version)

    async def version(self, match_id: str) -> int:
        return int((await self.service.get(match_id))["version"])
