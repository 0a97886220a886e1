"""Waiting in tests for something to happen: poll for it, never sleep a guess.

`until` (in a test's event loop) and `until_sync` (in a thread: a subprocess's
server, the browser) ask `predicate` again and again until it gives a true
value, and return that value. The deadline is long, a minute: a test that
passes never reaches it, however busy the machine, so it only bounds how long
a test that is truly stuck takes to say so, naming what it waited for.

    await until(lambda: standin.held == 1, "a search is held")
    state = await until(lambda: finished(api, game), "the clock ran out")
    until_sync(server_answers, "the server to answer", every=0.1)

A predicate may be a coroutine function (`until` awaits what it returns). In the
browser tests, `until_on(page, ...)` (tests/browser/conftest.py) pauses through
Playwright, so that a route's or a socket's handler runs meanwhile.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

DEADLINE = 60.0  # seconds: only ever reached by a test that is stuck
# A server process a test started, while it lives, is still starting: on a loaded
# machine (a fresh interpreter importing the app and the compiled engine, then
# the migrations) that has taken more than a minute. The waits for it check the
# process at every ask, so one that died fails at once; this only bounds a hang.
STARTING = 600.0
EVERY = 0.01  # seconds between two asks


class NeverHappened(AssertionError):
    """What a test waited for did not come by the deadline."""


async def until(predicate: Callable[[], T | Awaitable[T]], what: str, *, seconds: float = DEADLINE,
                every: float = EVERY) -> T:
    """Ask `predicate` until it gives a true value; return it. Fails naming `what`."""
    deadline = time.monotonic() + seconds
    while True:
        got = predicate()
        if inspect.isawaitable(got):
            got = await got
        if got:
            return got  # type: ignore[return-value]
        if time.monotonic() > deadline:
            raise NeverHappened(f"waited {seconds:g} s for {what}; the last answer was {got!r}")
        await asyncio.sleep(every)


def until_sync(predicate: Callable[[], T], what: str, *, seconds: float = DEADLINE, every: float = EVERY,
               pause: Callable[[float], object] = time.sleep) -> T:
    """`until` for code without an event loop. `pause(seconds)` waits between two
    asks: time.sleep, or a Playwright page's wait (so the browser's events are
    dispatched meanwhile)."""
    deadline = time.monotonic() + seconds
    while True:
        got = predicate()
        if got:
            return got
        if time.monotonic() > deadline:
            raise NeverHappened(f"waited {seconds:g} s for {what}; the last answer was {got!r}")
        pause(every)
