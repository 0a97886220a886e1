"""A way a notice leaves the server (web push, email): the small interface a
channel implements, and the registry of the channels this server delivers by.

    class Channel(Protocol):
        name: str                                    # "push", "email": the outbox rows' `channel`
        async def deliver(self, item: OutboxItem) -> Delivered | RetryLater | Gone

`Delivered`: done, the row goes. `RetryLater`: the channel or its far end is
down, try again later (backoff, for a day). `Gone`: the player cannot be reached
this way (no subscription, an address refused for good): the row goes, counted
as failed. An exception counts as RetryLater. A channel decides for itself
whether to send at all (a player with the match open needs no push): it answers
Delivered when it chose not to.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from .kinds import CHANNELS, INBOX, text


@dataclass(frozen=True, slots=True)
class OutboxItem:
    id: int  # the outbox row's: the same on every try, a key against delivering twice
    notification_id: int | None  # its inbox row, when the player keeps this kind there
    account_id: int
    kind: str
    data: dict[str, Any]  # `match_id` when a match is concerned
    created_ms: int
    tries: int  # tries before this one

    @property
    def match_id(self) -> str | None:
        found = self.data.get("match_id")
        return str(found) if found else None

    @property
    def text(self) -> str:
        return text(self.kind, self.data)


@dataclass(frozen=True, slots=True)
class Delivered:
    pass


@dataclass(frozen=True, slots=True)
class RetryLater:
    reason: str = ""
    after_seconds: float | None = None  # the far end said when (Retry-After); else the backoff's


@dataclass(frozen=True, slots=True)
class Gone:
    reason: str = ""


Outcome = Delivered | RetryLater | Gone


class Channel(Protocol):
    name: str

    async def deliver(self, item: OutboxItem) -> Outcome: ...


class Channels:
    """The channels this server delivers by, registered once when the app is
    made (app/wiring.py). Notices are put in the outbox for these only: a
    channel not configured here leaves nothing waiting for it."""

    def __init__(self) -> None:
        self._by_name: dict[str, Channel] = {}
        self._hearers: list[Callable[[list[int]], None]] = []

    def on_told(self, hearer: Callable[[list[int]], None]) -> None:
        """`hearer(account ids)` is called after notices to them committed (their pages wake)."""
        self._hearers.append(hearer)

    def told(self, account_ids: Iterable[int]) -> None:
        """Notices to these accounts committed: tell whoever listens. Never raises."""
        ids = sorted(set(account_ids))
        if ids:
            for hearer in self._hearers:
                try:
                    hearer(ids)
                except Exception:  # a page woken late is no reason to fail a committed change
                    logging.getLogger(__name__).exception("waking the pages of accounts told failed")

    def register(self, channel: Channel) -> None:
        if channel.name == INBOX or channel.name not in CHANNELS:
            raise ValueError(f"a channel is one of {', '.join(c for c in CHANNELS if c != INBOX)}, "
                             f"not {channel.name!r}")
        if channel.name in self._by_name:
            raise ValueError(f"a channel {channel.name!r} is registered already")
        self._by_name[channel.name] = channel

    def swap(self, channel: Channel) -> Channel | None:
        """Put `channel` where the one of its name is (or was not): answers the
        one it replaced. Tests put a recording channel where a real one stands."""
        replaced = self._by_name.pop(channel.name, None)
        self.register(channel)
        return replaced

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._by_name)

    def get(self, name: str) -> Channel | None:
        return self._by_name.get(name)

    def __iter__(self) -> Iterator[Channel]:
        return iter(list(self._by_name.values()))
