"""A person's live channel: every page's one stream of what concerns them.

    listen (nudge keys) → read the database → send if changed → wait (nudge or timeout) → again

It listens before it reads, so a nudge that lands while it reads is not lost;
it reads again after each wake and after `recheck` seconds all the same (a lost
nudge costs seconds, never forever); a keep-alive line goes out when nothing
else has for `keepalive` seconds, so that a client (and any proxy between) can
tell a quiet stream from a dead one. The keys: the person's account
(`person:a:<id>`: their challenges, a match made for them) and each of their
running matches (`person:m:<match id>`: rung by the hub on every commit of that
match, here or on another process).

Streams are bounded per client address on each process, as the match sockets are.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from app.challenges.service import person_key
from app.kernel.errors import ServiceError
from app.realtime.hub import MATCH_CHANGED
from app.realtime.nudges import Nudges
from app.realtime.per_address import PerAddress

from .person import Person, Who
from .presence import Presence


class TooManyChannels(ServiceError):
    status, code = 429, "too_many_channels"


def match_key(match_id: str) -> str:
    return MATCH_CHANGED + match_id


def _unclocked(message: dict[str, Any]) -> str:
    """The message without its running clocks, which change every read: a
    channel sends again when something happened, not when time passed."""
    return json.dumps({**message, "matches": [{**m, "clock": None} for m in message["matches"]]},
                      sort_keys=True)


class Quiet:
    """When a stream's last line went out: its keep-alive is due `keepalive` after."""

    __slots__ = ("at",)

    def __init__(self, at: float) -> None:
        self.at = at


class PersonChannel:
    def __init__(self, person: Person, nudges: Nudges, per_address: int, recheck: float, keepalive: float,
                 closing: Callable[[], bool] = lambda: False, clock: Callable[[], float] = time.monotonic,
                 by_address: PerAddress | None = None, presence: Presence | None = None) -> None:
        self.person, self.nudges = person, nudges
        self.presence = presence  # an account with a stream open is online (presence.py)
        # The server is stopping (the hub's sockets are closing): each stream ends,
        # so that no open page holds the process up; the page opens it again elsewhere.
        self.closing = closing
        self.per_address, self.recheck, self.keepalive = per_address, recheck, keepalive
        self.clock = clock
        # The sockets' counter (hub.py), with this cap; `by_address` when held over every process.
        self.by_address = by_address if by_address is not None else PerAddress(per_address)

    async def reserve(self, address: str) -> None:
        """Count one more stream of `address`, or refuse it (TooManyChannels)."""
        if not await self.by_address.claim(address):
            raise TooManyChannels(f"this address holds {self.by_address.of(address)} live channels open already, "
                                  "the most at once: close a page of the site")

    def release(self, address: str) -> None:
        self.by_address.give_back(address)

    def open_count(self) -> int:
        return self.by_address.total()

    async def stream(self, who: Who, still: Callable[[], Awaitable[bool]] | None = None,
                     seen: Callable[[dict[str, Any]], str] = _unclocked, quiet: Quiet | None = None,
                     also: tuple[str, ...] = ()) -> AsyncIterator[dict[str, Any]]:
        """The messages: `person` (all of it) whenever it changes, `ping` when quiet.

        `still()` is asked before every read after the first: the credential that
        opened the stream (a session, an account token) still holds. A sign-out, a
        revoked token or a closed account ends the stream at its next wake, within
        `recheck` seconds, and a nudge of the account's key ends it at once.

        For a reader that makes its own lines of the messages (the event stream,
        events.py): `seen` says what counts as a change, `quiet` is told by that
        reader when a line really went out (the keep-alive counts from it), and
        `also` are more nudge keys that wake the stream (so `still()` is asked)."""
        presence = self.presence if who.account_id is not None else None
        if presence is None:
            async for message in self._stream(who, still, seen, quiet, also):
                yield message
            return
        assert who.account_id is not None
        await presence.arrive(who.account_id)
        try:
            async for message in self._stream(who, still, seen, quiet, also):
                yield message
        finally:
            presence.leave(who.account_id)

    async def _stream(self, who: Who, still: Callable[[], Awaitable[bool]] | None,
                      seen: Callable[[dict[str, Any]], str], quiet: Quiet | None,
                      also: tuple[str, ...]) -> AsyncIterator[dict[str, Any]]:
        last = ""
        marks = quiet is None  # nobody else tells when a line went out: each message is one
        quiet = quiet or Quiet(self.clock())
        keys = self._keys(who, [], also)
        first = True
        while not self.closing():
            if not first and still is not None and not await still():
                return
            first = False
            if self.presence is not None:
                await self.presence.refresh()
            with self.nudges.listen(*keys) as waiter:
                if self.closing():  # asked once listening: a close while `still()` ran rang nobody
                    return
                message = await self.person.now(who)
                now_seen = seen(message)
                if now_seen != last:
                    last = now_seen
                    if marks:
                        quiet.at = self.clock()
                    yield message
                wanted = self._keys(who, [m["id"] for m in message["matches"]], also)
                if wanted != keys:
                    keys = wanted  # a match begun or ended: listen for it, and read once more
                    continue
                # Wake by the keep-alive's due time, counted from the last line (not
                # from this read: reads that changed nothing must not put it off).
                due = max(0.0, self.keepalive - (self.clock() - quiet.at))
                woke = await waiter.wait(min(self.recheck, due))
            if self.closing():
                return
            if not woke and self.clock() - quiet.at >= self.keepalive:
                quiet.at = self.clock()
                yield {"type": "ping"}

    @staticmethod
    def _keys(who: Who, match_ids: list[str], also: tuple[str, ...] = ()) -> list[str]:
        keys = [person_key(who.account_id)] if who.account_id is not None else []
        return keys + [match_key(m) for m in match_ids] + list(also)
