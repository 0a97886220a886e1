"""A warning in the log before this process runs out of file descriptors.

Every socket and every HTTP connection holds one. At the limit (RLIMIT_NOFILE,
1,024 by default on many systems) the server can accept nothing more, its
health probe included, and says nothing. So the count is
looked at as sockets open and at every heartbeat, at most once a second, and a
warning goes out once each time it crosses `warn_share` of the limit (and again
only after it has fallen back below `rearm_share`).
"""

from __future__ import annotations

import logging
import os
import resource
import time
from collections.abc import Callable

log = logging.getLogger("magery.realtime")


def open_now() -> int | None:
    """This process's open file descriptors (None where /proc is not there)."""
    try:
        return len(os.listdir("/proc/self/fd"))
    except OSError:
        return None


def raise_soft_limit() -> None:
    """Take the whole of the hard limit: the soft one (often 1,024) is what a
    socket flood meets first, and nothing is gained by keeping below the hard one
    (the image and docker-compose.yml set both; docs/operations.md)."""
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft != resource.RLIM_INFINITY and (hard == resource.RLIM_INFINITY or soft < hard):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            log.info("open files: the limit raised from %d to %s", soft,
                     "unlimited" if hard == resource.RLIM_INFINITY else hard)
    except (OSError, ValueError) as exc:
        log.warning("open files: the limit could not be raised: %s", exc)


def soft_limit() -> int | None:
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else soft


class OpenFiles:
    def __init__(self, warn_share: float = 0.8, *, count: Callable[[], int | None] = open_now,
                 limit: Callable[[], int | None] = soft_limit, every_seconds: float = 1.0) -> None:
        self.warn_share, self.rearm_share = warn_share, warn_share * 0.875
        self.count, self.limit, self.every = count, limit, every_seconds
        self.warned = False
        self._next = 0.0

    def check(self, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now < self._next:
            return
        self._next = now + self.every
        held, limit = self.count(), self.limit()
        if held is None or not limit:
            return
        if held >= limit * self.warn_share:
            if not self.warned:
                self.warned = True
                log.warning("open files: %d of this process's limit of %d (%d%%): new connections, "
                            "the health probe's included, are refused at the limit; raise nofile "
                            "(docs/operations.md)", held, limit, round(100 * held / limit))
        elif held < limit * self.rearm_share:
            self.warned = False
