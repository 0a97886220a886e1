"""Every committed action pushed live to the sockets of its match, on every process.

`Hub` (hub.py) holds this process's sockets; a `Bus` (bus.py: `MemoryBus`, or
`PostgresBus` in postgres.py) carries small announcements between processes.
`install` wires them into the FastAPI app; app/api/ws.py is the socket endpoint.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from typing import Any

from .bus import Bus, MemoryBus
from .hub import Hub, MatchSource

__all__ = ["Bus", "Hub", "MatchSource", "MemoryBus", "install", "make_bus", "start", "stop"]


def make_bus(database_url: str, kind: str = "auto") -> Bus:
    """`kind` "auto": Postgres LISTEN/NOTIFY on Postgres, in-process otherwise."""
    if kind == "postgres" or (kind == "auto" and database_url.startswith("postgres")):
        from .postgres import PostgresBus

        return PostgresBus(database_url)
    return MemoryBus()


def install(app: Any) -> None:
    """Wire the realtime layer into an app made by `app.main.create_app`: the socket
    route, and a hub started once the match service is up (stopped before it)."""
    from app.api.ws import fast_path, route

    from .service import ServiceSource

    app.router.routes.append(route)
    fast_path(app)
    inner = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> Any:
        async with inner(app) as state:
            source = ServiceSource(app.state.matches, getattr(app.state, "write_limiter", None))
            await start(app, source, source, app.state.settings)
            try:
                yield state
            finally:
                await stop(app)

    app.router.lifespan_context = lifespan


async def start(app: Any, source: MatchSource, gate: Any, settings: Any,
                bus: Bus | None = None) -> Hub:
    """Make and start this process's hub: the service's publisher from now on.

    `gate` answers the socket endpoint: `authorize(match_id, token) -> (seat, version)`,
    `act(match_id, token, action, version, id) -> version`, `version(match_id)`.
    """
    if bus is None:
        bus = make_bus(settings.database_url, getattr(settings, "realtime_bus", "auto"))
    hub = Hub(source, bus,
              ping_seconds=settings.ws_ping_seconds,
              dead_after_seconds=settings.ws_dead_after_seconds)
    await hub.start()
    app.state.hub = hub
    app.state.publisher = hub
    app.state.realtime_gate = gate
    _close_sockets_on_signal(hub)
    return hub


async def stop(app: Any) -> None:
    hub: Hub | None = getattr(app.state, "hub", None)
    if hub is not None:
        await hub.close(1001)


def _close_sockets_on_signal(hub: Hub) -> None:
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
