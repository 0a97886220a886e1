"""Every committed action pushed live to the sockets of its match, on every process.

`Hub` (hub.py) holds this process's sockets and is one of the match service's
publishers; a `Bus` (bus.py: `MemoryBus`, or `PostgresBus` in postgres.py)
carries small announcements between processes. app/main.py builds them and
passes them in; app/api/ws.py is the socket endpoint.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from typing import Any

from .bus import Bus, MemoryBus
from .hub import Hub, MatchSource
from .service import ServiceSource

__all__ = ["Bus", "Hub", "MatchSource", "MemoryBus", "ServiceSource", "close_sockets_on_signal", "make_bus",
           "make_hub"]


def make_bus(database_url: str, kind: str = "auto") -> Bus:
    """`kind` "auto": Postgres LISTEN/NOTIFY on Postgres, in-process otherwise."""
    if kind == "postgres" or (kind == "auto" and database_url.startswith("postgres")):
        from .postgres import PostgresBus

        return PostgresBus(database_url)
    return MemoryBus()


def make_hub(source: MatchSource, settings: Any, bus: Bus | None = None) -> Hub:
    """This process's hub (not started: `await hub.start()` in the lifespan)."""
    if bus is None:
        bus = make_bus(settings.database_url, settings.realtime_bus)
    return Hub(source, bus, ping_seconds=settings.ws_ping_seconds,
               dead_after_seconds=settings.ws_dead_after_seconds)


def close_sockets_on_signal(hub: Hub) -> None:
    """Say 1001 ("going away") to every socket as soon as the server is told to stop.

    uvicorn closes websockets with 1012 before it runs the lifespan shutdown; a
    signal handler placed in front of its own gets 1001 out first.
    """
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(ValueError, TypeError):  # not the main thread: no signals
            previous = signal.getsignal(signum)
            if not callable(previous):
                continue

            def handler(sig: int, frame: Any, previous: Any = previous) -> None:
                loop.call_soon_threadsafe(lambda: loop.create_task(hub.close(1001)))
                previous(sig, frame)

            signal.signal(signum, handler)
