"""Where committed updates go: the realtime layer plugs its hub in here.

The service calls `await publisher.publish(match_id, updates)` after each
commit, never before, with the contract's websocket update messages of that
commit in version order:

    {"type": "update", "version": n, "action": {...}, "player": colour | None,
     "automatic": bool, "match": public_state_at_n}

A publisher must not raise for a slow or absent audience; the service logs
and swallows what it does raise (the commit has happened either way).
"""

from __future__ import annotations

from typing import Any, Protocol


class Publisher(Protocol):
    async def publish(self, match_id: str, updates: list[dict[str, Any]]) -> None: ...


class NullPublisher:
    """Publishes to nobody: the default until a realtime hub is plugged in."""

    async def publish(self, match_id: str, updates: list[dict[str, Any]]) -> None:
        return None


class RecordingPublisher:
    """Keeps every update it is given; for tests."""

    def __init__(self) -> None:
        self.updates: dict[str, list[dict[str, Any]]] = {}

    async def publish(self, match_id: str, updates: list[dict[str, Any]]) -> None:
        self.updates.setdefault(match_id, []).extend(updates)
