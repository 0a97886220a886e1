"""Nudges: "something about KEY changed, read the database again", on every process.

The wings that keep a person waiting (a pairing pool, a challenge, a chat, the
count of matches awaiting one's move) hold their truth in the database; a nudge
only wakes whoever waits on a key so that they read it at once instead of at the
next poll. A nudge is sent on the same bus as the matches' announcements and
carries nothing but its key, never a secret. A nudge may be lost (a bus that
reconnects tells every waiter to read again) or arrive twice: a waiter must
read the truth after waking, never count nudges.

Keys are short words joined by ":", e.g. ``account:42``, ``guest:<id>``,
``pool:standard:10+5``, ``chat:<match id>``, ``seats:<match id>`` (a seat
claimed into an account: every process forgets its cached record, service.py),
``closed:<account id>`` (an account closed: its matches' records forgotten).

Besides waiters, a part of the server may hear every nudge of a prefix (`on`):
called with the rest of the key for each nudge heard from another process, and
with None when the bus was away (anything may have been missed).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Callable, Iterator

from .bus import Nudge

KEY = re.compile(r"^[A-Za-z0-9_.:+-]{1,120}$")  # no "|": it separates a bus message's fields


class Waiter:
    """One listener's doorbell: set by a nudge of its key, cleared when it wakes."""

    __slots__ = ("_event",)

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def ring(self) -> None:
        self._event.set()

    async def wait(self, timeout: float | None) -> bool:
        """True if nudged (since the last wake), False when `timeout` passed first."""
        try:
            await asyncio.wait_for(self._event.wait(), timeout)
        except TimeoutError:
            return False
        self._event.clear()
        return True


class Nudges:
    """This process's waiters by key; `nudge` rings them here and on every other process."""

    def __init__(self, origin: str, send: Callable[[Nudge], None],
                 watching: Callable[[str, bool], None] = lambda key, watched: None) -> None:
        self.origin = origin
        self._send = send
        # Told when a key gains its first waiter here (True) and loses its last (False).
        self._watching = watching
        self._waiters: dict[str, set[Waiter]] = {}
        self._hearers: dict[str, Callable[[str | None], None]] = {}

    def on(self, prefix: str, hear: Callable[[str | None], None]) -> None:
        """Call `hear(rest of the key)` for each nudge of `prefix` another process
        sends, and `hear(None)` when the bus comes back."""
        self._hearers[prefix] = hear

    def nudge(self, key: str) -> None:
        """Wake every waiter on `key`, here at once and elsewhere over the bus."""
        check(key)
        self._ring(key)
        self._send(Nudge(self.origin, key))

    def here(self, key: str) -> None:
        """Wake `key`'s waiters on this process only: for what every process
        hears anyway (a match's commit, announced on the bus as it is)."""
        self._ring(key)

    def heard(self, message: Nudge) -> None:
        """A nudge from the bus (our own are rung already when sent)."""
        if message.origin != self.origin:
            self._ring(message.key)
            for prefix, hear in self._hearers.items():
                if message.key.startswith(prefix):
                    hear(message.key[len(prefix):])

    def everyone(self) -> None:
        """The bus was away: nudges may be lost, so every waiter reads again."""
        for hear in self._hearers.values():
            hear(None)
        for waiters in list(self._waiters.values()):
            for waiter in list(waiters):
                waiter.ring()

    @contextlib.contextmanager
    def listen(self, *keys: str) -> Iterator[Waiter]:
        """A waiter rung by a nudge of any of `keys` while the block runs."""
        for key in keys:
            check(key)
        waiter = Waiter()
        for key in keys:
            waiting = self._waiters.setdefault(key, set())
            if not waiting:
                self._watching(key, True)
            waiting.add(waiter)
        try:
            yield waiter
        finally:
            for key in keys:
                held = self._waiters.get(key)
                if held is not None:
                    held.discard(waiter)
                    if not held:
                        del self._waiters[key]
                        self._watching(key, False)

    def listening(self) -> int:
        """Keys with at least one waiter here (for metrics and tests)."""
        return len(self._waiters)

    def _ring(self, key: str) -> None:
        for waiter in list(self._waiters.get(key, ())):
            waiter.ring()


def check(key: str) -> None:
    if not KEY.match(key):
        raise ValueError(f"a nudge's key is 1-120 of A-Z a-z 0-9 _ . : + -, not {key!r}")
