"""Where passwords are checked: argon2 in a small pool of threads of its own.

An argon2id check takes tens of milliseconds of CPU and 64 MiB of memory on
purpose. Run on the event loop it would stall every match; run in asyncio's
shared thread pool, a burst of sign-ins ran as many at once as the pool has
threads (113 to 499 MiB, another match's p99 from 0.3 to
6.7 s). Here at most `workers` checks run at a time, and at most `waiting`
more wait for a thread; a try beyond those is told the server is busy
(`Busy`) before anything is counted or checked. The pool's threads run at the
lowest CPU priority (`NICE`, Linux: a thread's own nice value, inherited by
the threads argon2 starts for its lanes): on a busy machine the games come
first and a sign-in waits a little longer.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")
NICE = 19


def _lower_priority() -> None:
    """Run this pool thread at the lowest priority (where the system allows it)."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICE)


class Busy(Exception):
    """Too many password checks are waiting already: try again in a moment."""


class PasswordChecks:
    def __init__(self, workers: int, waiting: int) -> None:
        self.workers = max(1, workers)
        self.limit = self.workers + max(0, waiting)
        self.taken = 0
        self._pool: ThreadPoolExecutor | None = None

    def admit(self) -> None:
        """Hold a place for one check, or raise Busy; `release` gives it back."""
        if self.taken >= self.limit:
            raise Busy()
        self.taken += 1

    def release(self) -> None:
        self.taken -= 1

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="argon2", initializer=_lower_priority)
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    @staticmethod
    async def one_off(fn: Callable[..., T], *args: Any) -> T:
        """For the command line, which hashes one password and exits."""
        return await asyncio.to_thread(fn, *args)
