"""The match service as the hub needs it (a thin adapter: `MatchSource` of hub.py)."""

from __future__ import annotations

from typing import Any

from app.matches import MatchService
from app.matches.errors import NotFound


class ServiceSource:
    def __init__(self, service: MatchService) -> None:
        self.service = service

    async def snapshot(self, match_id: str) -> dict[str, Any] | None:
        try:
            return await self.service.reads.get(match_id)
        except NotFound:
            return None

    async def updates_since(self, match_id: str, version: int) -> list[dict[str, Any]] | None:
        try:
            return await self.service.reads.updates_since(match_id, version)
        except NotFound:
            return None

    async def seat_presence(self, match_id: str, colour: str, connected: bool) -> None:
        await self.service.seats.set_connected(match_id, colour, connected)

    async def seats_here(self, match_ids: list[str]) -> dict[str, dict[str, bool]]:
        return await self.service.seats.here(match_ids)

    async def touch(self, seats: list[tuple[str, str]]) -> None:
        await self.service.seats.held(sorted(set(seats)))
