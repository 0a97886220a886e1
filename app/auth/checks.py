"""Where passwords are checked: argon2 in a small pool of threads of its own,
the tries waiting for it served address by address.

An argon2id check takes tens of milliseconds of CPU and 64 MiB of memory on
purpose. Run on the event loop it would stall every match; run in asyncio's
shared thread pool, a burst of sign-ins ran as many at once as the pool has
threads (113 to 499 MiB, another match's p99 from 0.3 to 6.7 s). Here at most
`workers` checks run at a time. The pool's threads run at the lowest CPU
priority (`NICE`, Linux: a thread's own nice value, inherited by the threads
argon2 starts for its lanes): on a busy machine the games come first and a
sign-in waits a little longer.

A try that finds every worker busy waits in a fair line (app/auth/fair_line.py):
a place per address, the addresses served in turn, so a dozen addresses
looping sign-ins cannot keep a thirteenth out (a first-come line of nine was
full at every try of the thirteenth). At most `waiting` addresses wait, and
`per_address` tries of each; a try beyond those is told the server is busy
(`Busy`) at once. Tries of a browser or an address that already holds a
session (`known`) wait in a line of their own, with its own room, and the two
lines take turns: a flood of strangers never fills the place of someone known.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from .fair_line import FairLine

T = TypeVar("T")
NICE = 19
PER_ADDRESS = 2  # tries of one address waiting at once: a sign-in and a sign-up or password change
KNOWN_WAITING = 16  # addresses of known tries waiting at once, besides the strangers'


def _lower_priority() -> None:
    """Run this pool thread at the lowest priority (where the system allows it)."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICE)


class Busy(Exception):
    """No room to wait for a password check: try again in a moment."""


class PasswordChecks:
    def __init__(self, workers: int, waiting: int, per_address: int = PER_ADDRESS,
                 known_waiting: int = KNOWN_WAITING) -> None:
        self.workers = max(1, workers)
        self.running = 0  # turns held now, at most `workers`
        self._lines: dict[bool, FairLine[asyncio.Future[None]]] = {
            False: FairLine(per_address, waiting), True: FairLine(per_address, known_waiting)}
        self._known_last = False  # whom the last turn handed over went to, when both lines waited
        self._pool: ThreadPoolExecutor | None = None

    @property
    def waiting(self) -> int:
        return len(self._lines[False]) + len(self._lines[True])

    @property
    def taken(self) -> int:
        """Tries checking or waiting now."""
        return self.running + self.waiting

    @contextlib.asynccontextmanager
    async def turn(self, address: str, known: bool = False) -> AsyncIterator[None]:
        """A worker for the address's check(s), held until the block ends: at once
        when one is free and nobody waits, else after a place in the address's
        line and its turn. Busy, at once, when the address has no place."""
        if self.running < self.workers and not self.waiting:
            self.running += 1
        else:
            line = self._lines[known]
            called: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            if not line.push(address, called):
                raise Busy()
            try:
                await called
            except asyncio.CancelledError:
                line.drop(address, called)
                if called.done() and not called.cancelled():
                    self._hand_on()  # the turn came as the try gave up: the next one takes it
                raise
        try:
            yield
        finally:
            self._hand_on()

    def _hand_on(self) -> None:
        """A turn ends: the worker goes to the next in line, or rests."""
        while (called := self._next()) is not None:
            if not called.done():  # a try that gave up is still in line until its task runs again
                called.set_result(None)
                return
        self.running -= 1

    def _next(self) -> asyncio.Future[None] | None:
        strangers, known = self._lines[False], self._lines[True]
        if known and (not strangers or not self._known_last):
            self._known_last = bool(strangers)
            return known.pop()
        self._known_last = False
        return strangers.pop()

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in one of the pool's threads: within a `turn`, which keeps
        the threads' work to `workers` at once."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="argon2", initializer=_lower_priority)
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    @staticmethod
    async def one_off(fn: Callable[..., T], *args: Any) -> T:
        """For the command line, which hashes one password and exits."""
        return await asyncio.to_thread(fn, *args)
