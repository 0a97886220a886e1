"""Where committed changes go: the realtime hub and the bot runner plug in here.

The service calls `await publisher.publish(match_id, messages)` after each
commit, never before. `messages` are the contract's websocket update messages
of that commit in version order,

    {"type": "update", "version": n, "action": {...}, "player": colour | None,
     "automatic": bool, "match": public_state_at_n}

or, once when a match is made, `[{"type": "created", "version": 0, "match": state}]`.
A publisher must not raise for a slow or absent audience; the service logs and
swallows what it does raise (the commit has happened either way).

An update's `"words"` (its sentence, told by the engine) is written only when
`hears_words(match_id)` says someone will read them, asked just before
`publish` with no await between: telling a removal rebuilds a position, work
wasted on the many matches no socket of this process watches. A
publisher without the method is taken to read them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol


class Publisher(Protocol):
    async def publish(self, match_id: str, updates: Sequence[Mapping[str, Any]]) -> None: ...


def hears_words(publisher: Any, match_id: str) -> bool:
    """Whether `publisher` reads the words of `match_id`'s updates (yes, unless it says not)."""
    asked = getattr(publisher, "hears_words", None)
    return True if asked is None else bool(asked(match_id))


class NullPublisher:
    """Publishes to nobody."""

    def hears_words(self, match_id: str) -> bool:
        return False

    async def publish(self, match_id: str, updates: Sequence[Mapping[str, Any]]) -> None:
        return None


class Fanout:
    """Publishes to each of its listeners in turn, in the order they were added;
    one that raises does not keep the others from hearing."""

    def __init__(self, *listeners: Publisher) -> None:
        self.listeners: list[Publisher] = list(listeners)
        self.wordless: list[Publisher] = []  # listeners said, when added, to read no words

    def add(self, listener: Publisher, reads_words: bool = True) -> None:
        self.listeners.append(listener)
        if not reads_words:
            self.wordless.append(listener)

    def hears_words(self, match_id: str) -> bool:
        return any(hears_words(listener, match_id) for listener in self.listeners
                   if listener not in self.wordless)

    async def publish(self, match_id: str, updates: Sequence[Mapping[str, Any]]) -> None:
        failed: BaseException | None = None
        for listener in self.listeners:
            try:
                await listener.publish(match_id, updates)
            except Exception as exc:
                failed = exc
        if failed is not None:
            raise failed


class RecordingPublisher:
    """Keeps every update it is given; for tests."""

    def __init__(self) -> None:
        self.updates: dict[str, list[dict[str, Any]]] = {}

    async def publish(self, match_id: str, updates: Sequence[Mapping[str, Any]]) -> None:
        self.updates.setdefault(match_id, []).extend(dict(u) for u in updates if u["type"] == "update")
