"""The ASGI application: `uvicorn app.main:app`.

At start it applies the Alembic migrations to DATABASE_URL (an SQLite file in
the working directory by default), opens the match service and starts the
background sweeper; at stop it ends them in the reverse order.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI

from app import api, bots, realtime, web
from app.api.errors import install as install_errors
from app.api.fast import install as install_fast_path
from app.api.ratelimit import SlidingWindow
from app.config import Settings, get_settings
from app.db import make_engine, upgrade
from app.matches import MatchService, NullPublisher
from app.matches.sweeper import sweep_forever
from app.redact import install as install_redaction

DESCRIPTION = """Magery Online: play Magery, the chess variant with worker placement, over HTTP.

A seat is proved by `Authorization: Bearer <token>`, the token handed out once by
create or join. Errors are JSON `{"error": code, "detail": sentence}`. Every action
names the `version` it was chosen on; a resend of one that landed is answered as
before and applies nothing twice.
"""


class AppPublisher:
    """Forwards to whatever publisher `app.state.publisher` holds now (the realtime
    hub, once it is started; a no-op before)."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app

    async def publish(self, match_id: str, updates: list[dict[str, Any]]) -> None:
        await self.app.state.publisher.publish(match_id, updates)


_frozen = False


def _freeze_startup_objects() -> None:
    """Leave what startup made (modules, the app, its schemas: ~100k objects) out
    of every later garbage collection, once per process. Without this, each full
    collection walks them all, a pause of tens of milliseconds that every request
    in flight waits out; with it, collections walk only what requests made."""
    global _frozen
    if not _frozen:
        _frozen = True
        gc.collect()
        gc.freeze()


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    install_redaction()  # seat tokens in websocket URLs never reach the logs

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(settings.database_url, settings.db_pool_size, settings.db_max_overflow)
        await upgrade(engine)
        service = MatchService(engine, settings, AppPublisher(app))
        app.state.engine = engine
        app.state.matches = service
        sweeper = asyncio.create_task(sweep_forever(service, settings.sweep_seconds))
        _freeze_startup_objects()
        try:
            yield
        finally:
            sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sweeper
            await service.close()
            await engine.dispose()

    app = FastAPI(
        title="Magery Online", version="1.0.0", description=DESCRIPTION, lifespan=lifespan,
        docs_url="/docs", openapi_url="/openapi.json",
    )
    app.state.settings = settings
    app.state.publisher = NullPublisher()
    app.state.write_limiter = SlidingWindow(settings.rate_limit_writes, settings.rate_window_seconds)
    install_errors(app)
    app.include_router(api.router)
    realtime.install(app)  # issue 4: the hub as publisher, and /api/v1/matches/{id}/ws
    install_fast_path(app)  # POST /api/v1/matches/{id}/actions past FastAPI's per-request machinery
    web.install(app, bot_levels=lambda: sorted(bots.LEVELS))  # issue 9: the pages, /static, security headers
    return app


app = create_app()
