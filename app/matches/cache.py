"""What one process keeps of matches between requests: the newest record of the
recently used ones, and a lock per match so its changes here go one at a time."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from .record import Record


class Locks:
    """One asyncio.Lock per match, dropped when nobody holds or waits for it."""

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, list[int]]] = {}

    @asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[None]:
        lock, users = self._locks.setdefault(key, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if not users[0]:
                del self._locks[key]


class Cache:
    """The newest record of recently used matches (LRU)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[str, Record] = OrderedDict()

    def get(self, key: str) -> Record | None:
        rec = self._items.get(key)
        if rec is not None:
            self._items.move_to_end(key)
        return rec

    def drop(self, key: str | None) -> None:
        """Forget `key`'s record (None: every record): the next read loads it
        again. For a change that moves no version (a claimed seat, claims.py),
        which a cached record of the same version would never see."""
        if key is None:
            self._items.clear()
        else:
            self._items.pop(key, None)

    def drop_where(self, held: Callable[[Record], bool] | None) -> None:
        """Forget every record `held` says (None: every record): a change that
        moves no version in many matches at once (a closed account's seats)."""
        if held is None:
            self._items.clear()
            return
        for key in [key for key, rec in self._items.items() if held(rec)]:
            del self._items[key]

    def put(self, rec: Record) -> None:
        """Keep `rec` unless a newer version is known already."""
        old = self._items.get(rec.id)
        if old is not None and old.version > rec.version:
            return
        self._items[rec.id] = rec
        self._items.move_to_end(rec.id)
        while len(self._items) > self.size:
            self._items.popitem(last=False)
