"""Every committed action pushed live to the sockets of its match, on every process.

`Hub` (hub.py) holds this process's sockets and is one of the match service's
publishers; a `Bus` (bus.py: `MemoryBus`, `PostgresBus` in postgres.py, or
`RedisBus` in redis_bus.py)
carries small announcements between processes. app/main.py builds them and
passes them in; app/api/ws.py is the socket endpoint.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Callable
from typing import Any

from app.db.outage import OutageLog

from .bus import Bus, MemoryBus
from .hub import Hub, MatchSource
from .open_files import OpenFiles
from .per_address import PerAddress
from .service import ServiceSource

__all__ = ["Bus", "Hub", "MatchSource", "MemoryBus", "ServiceSource", "close_sockets_on_signal", "make_bus",
           "make_hub"]


def make_bus(database_url: str, kind: str = "auto", outage: OutageLog | None = None,
             redis_url: str | None = None, redis_prefix: str = "magery") -> Bus:
    """`kind` "auto": Postgres LISTEN/NOTIFY on Postgres, in-process otherwise;
    "redis": Redis pub/sub in lanes at `redis_url` (redis_bus.py)."""
    if kind == "redis":
        if not redis_url:
            raise ValueError("REALTIME_BUS=redis needs REDIS_URL")
        from .redis_bus import RedisBus

        return RedisBus(redis_url, prefix=redis_prefix, outage=outage)
    if kind == "postgres" or (kind == "auto" and database_url.startswith("postgres")):
        from .postgres import PostgresBus

        return PostgresBus(database_url, outage=outage)
    return MemoryBus()


def make_hub(source: MatchSource, settings: Any, bus: Bus | None = None, outage: OutageLog | None = None,
             by_address: PerAddress | None = None) -> Hub:
    """This process's hub (not started: `await hub.start()` in the lifespan).
    `by_address`: the sockets' counter, when it is held over every process."""
    if bus is None:
        bus = make_bus(settings.database_url, settings.realtime_bus, outage, settings.redis_url,
                       settings.redis_prefix)
    return Hub(source, bus, ping_seconds=settings.ws_ping_seconds,
               dead_after_seconds=settings.ws_dead_after_seconds,
               sockets_per_address=settings.ws_sockets_per_address,
               open_files=OpenFiles(settings.open_files_warn_share), outage=outage, by_address=by_address)


def close_sockets_on_signal(hub: Hub, wait_seconds: float = 3.0) -> Callable[[], None]:
    """Say 1001 ("going away") to every socket as soon as the server is told to stop.

    uvicorn closes websockets with 1012 the moment it sees its exit flag, before
    the lifespan shutdown runs. So the flag waits: our handler closes the hub's
    sockets first (their close frames written, at most `wait_seconds`), and only
    then passes the signal on to uvicorn's handler. Passing it on at once raced
    uvicorn's 0.1 s tick, and a loaded machine saw 1012. A second signal while
    the sockets close is passed on at once (a second Ctrl-C still forces exit).
    The bus stays open until the lifespan's end: requests still in flight may
    commit actions, and the other processes must hear of them.

    Returns what puts the earlier handlers back, for the lifespan's end: a
    process that runs many apps one after another (the tests do) would otherwise
    chain one handler per app, and a signal would recurse through them all.
    """
    loop = asyncio.get_running_loop()
    installed: dict[int, tuple[Any, Any]] = {}
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(ValueError, TypeError):  # not the main thread: no signals
            previous = signal.getsignal(signum)
            if not callable(previous):
                continue

            def handler(sig: int, frame: Any, previous: Any = previous) -> None:
                if hub.closed:  # already closing (or closed): nothing to wait for
                    previous(sig, frame)
                    return
                loop.call_soon_threadsafe(_close_then, hub, wait_seconds, lambda: previous(sig, frame))

            signal.signal(signum, handler)
            installed[signum] = (handler, previous)

    def restore() -> None:
        for signum, (handler, previous) in installed.items():
            with contextlib.suppress(ValueError, TypeError):
                if signal.getsignal(signum) is handler:  # someone else's since: leave theirs
                    signal.signal(signum, previous)

    return restore


def _close_then(hub: Hub, wait_seconds: float, then: Any) -> None:
    """Close the hub's sockets, then call `then` whatever happened (the server must stop)."""
    async def run() -> None:
        try:
            await asyncio.wait_for(hub.close_sockets(1001), wait_seconds)
        except (Exception, asyncio.CancelledError):  # a stuck socket must not keep the server up
            pass
        finally:
            then()

    task = asyncio.get_running_loop().create_task(run(), name="close-sockets-on-signal")
    _closing.add(task)  # the loop keeps only a weak reference to a task
    task.add_done_callback(_closing.discard)


_closing: set[asyncio.Task[None]] = set()
