"""The worker processes bots think in, which die with the server.

A search runs in a worker process so that it never holds the server's event
loop. The workers are spawned (not forked: the server has threads, the
database driver's), straight from the server process, so each one can watch
its parent: when the server dies, even by SIGKILL, which runs no cleanup, each
worker ends itself (the forkserver used before, its worker
and the resource tracker outlived a killed server, ~48 MiB each). The resource
tracker multiprocessing starts beside them ends once every process holding its
pipe has: the server and the workers.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

from . import choose

T = TypeVar("T")
WATCH_SECONDS = 1.0  # how often a worker looks whether its server is still there


def _die_with(parent: int) -> None:
    """Run in each worker as it starts: end this process when `parent` ends."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            import ctypes

            # PR_SET_PDEATHSIG (1): the kernel sends SIGKILL when the parent exits.
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)
    if os.getppid() != parent:  # it died before the line above: the signal will never come
        os._exit(0)

    def watch() -> None:  # elsewhere, and should the signal be lost: a look every second
        while os.getppid() == parent:
            time.sleep(WATCH_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="die-with-server", daemon=True).start()


class SearchPool:
    """`await pool.search(level, state, seed, think)`: `choose` in a worker process
    (`await pool.call(work, *args)`: any other search, e.g. an analysis's)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    async def search(self, level: str, state: dict[str, Any], seed: int, think: float) -> dict[str, Any]:
        return await self.call(choose, level, state, seed, think)

    async def call(self, work: Callable[..., T], *args: Any) -> T:
        """`work(*args)` in a worker process (a top-level function of plain data)."""
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_die_with, initargs=(os.getpid(),))
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, work, *args)

    def close(self) -> None:
        """End the workers now: a search in a worker cannot be interrupted, so its
        process is ended instead of waited for (ProcessPoolExecutor has no public way)."""
        if self._pool is None:
            return
        pool, self._pool = self._pool, None
        processes = list(getattr(pool, "_processes", {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            with contextlib.suppress(Exception):
                process.terminate()
