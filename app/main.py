"""The ASGI application's factory, `uvicorn --factory app.main:create_app`: the app
made around the parts app/wiring.py's `build()` makes, in order:

    settings → database engine → match service → gateway → realtime hub → bot runner
    → accounts, chat, pools, profiles, challenges, the person channel, resends,
    streams, the socket, operations, the admin wing → routes

Each part is handed the parts it needs when it is made; none finds another
through `app.state`. The app holds them as `app.state.parts`, where the routes'
dependencies (app/api/deps.py, app/web/deps.py) read them, as tests and tools
do. The routes are module-level routers, one per resource (app/api, app/web,
app/admin). At start the database is migrated to head, then the hub, the sweeper
and the bot runner start; at stop they end in the reverse order. Operations
(app/ops) meter the gateway and the bus by wrapping them, and answer the probes
and /metrics in front of the HTTP stack.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from fastapi import FastAPI
from sqlalchemy.engine import make_url
from starlette.types import ASGIApp
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from app import admin, api, web
from app.accounts.limits import address_key
from app.api import ws
from app.api.asyncapi import install as install_asyncapi
from app.api.body_limit import BodyLimit
from app.api.budget import Budgets
from app.api.cors import ApiCors
from app.api.docs_page import install as install_docs_page
from app.api.errors import install as install_errors
from app.api.fast import FastPlay
from app.api.head import HeadAsGet
from app.api.operation_ids import operation_id
from app.api.response_docs import install as install_response_docs
from app.api.stream_lines import install as install_stream_lines
from app.auth import use_password_costs
from app.auth.tries_in_front import SignInsInFront
from app.config import Settings, get_settings
from app.db import head, revision, upgrade
from app.db.ticking import every
from app.mail import digests_forever
from app.matches.clock_alarm import ring_forever
from app.matches.sweeper import sweep_forever
from app.ops import OpsOutermost, configure_logs
from app.puzzles.service import read_seed
from app.realtime import close_sockets_on_signal
from app.redact import install as install_redaction
from app.security import security_headers
from app.web import sign_in_front
from app.wiring import Parts, build

__all__ = ["MageryApp", "Parts", "build", "create_app"]

DESCRIPTION = """Magery Online: play Magery, the chess variant with worker placement, over HTTP.

A seat is proved by `Authorization: Bearer <token>`, the token handed out once by
create or join, or by the account holding it (an account token `mgo_...`, or a
signed-in session). Errors are JSON `{"error": code, "detail": sentence}`. Every action
names the `version` it was chosen on; a resend of one that landed is answered as
before and applies nothing twice. Create and join take an `Idempotency-Key` header
to the same end: a resend with the key is answered as the first, token included.
Every answer carries `X-Request-ID`; a method a path does not take is answered 405
(`#/components/responses/MethodNotAllowed`, with `Allow`).
The live parts (the match's websocket, the match and person streams) are described
in AsyncAPI 3.0 at [/asyncapi.json](/asyncapi.json).
"""
# A layer made for the parts served: `make(the app inside, parts)` gives the ASGI app around it.
Layer = Callable[[Any, Parts], Any]
log = logging.getLogger("uvicorn.error")  # the logger uvicorn shows at start


class MageryApp(FastAPI):
    """FastAPI with layers in front of its whole stack, error middleware included
    (`add_middleware` puts a layer inside it). Starlette builds the stack once, at
    the first request, by `build_middleware_stack`, its hook for that; this one
    wraps what FastAPI builds. Each front is a plain ASGI wrapper.

    The app serves one set of parts at a time (`serve`): every layer that holds
    a part (`add_front`, `add_layer`) is made for the parts served when the stack
    is built, and the routes read them through their dependencies. So one app,
    its routes and its schemas built once, can serve fresh parts again (the
    tests do, one app per configuration)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.fronts: list[Layer] = []

    @property
    def parts(self) -> Parts:
        parts: Parts = self.state.parts
        return parts

    def serve(self, parts: Parts) -> None:
        """Answer with `parts` from the next request on, the stack made again for them."""
        self.state.parts = parts  # what the routes' dependencies read (app/{api,web,admin}/deps.py)
        self.middleware_stack = None

    def add_front(self, make: Layer) -> None:
        """Put `make(app, parts)` in front of the stack and of the fronts added before."""
        if self.middleware_stack is not None:
            raise RuntimeError("the app has started: its stack is built already")
        self.fronts.append(make)

    def add_layer(self, make: Layer) -> None:
        """A middleware, `make(app, parts)`, inside the error middleware (as `add_middleware`)."""

        def made(inner: ASGIApp) -> ASGIApp:
            layer: ASGIApp = make(inner, self.parts)
            return layer

        self.add_middleware(made)

    def build_middleware_stack(self) -> ASGIApp:
        app = super().build_middleware_stack()
        for make in self.fronts:
            app = make(app, self.parts)
        return app


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


async def _after(seconds: float, loop: Callable[[], Awaitable[None]]) -> None:
    """`loop()` once `seconds` have passed (made only then: a task cancelled while it
    waits leaves no coroutine never awaited)."""
    if seconds > 0:
        await asyncio.sleep(seconds)
    await loop()


@contextlib.asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    parts: Parts = app.state.parts  # the parts the app serves
    settings = parts.settings
    await upgrade(parts.engine)
    log.info("Database: %s, migrated to %s (head %s)",
             make_url(settings.database_url).render_as_string(hide_password=True),
             await revision(parts.engine), head())
    await parts.puzzles.load(read_seed())  # the shipped puzzles, those not held yet
    if parts.claims is not None:
        await parts.claims.start()  # alive in Redis before the first socket is counted there
    await parts.hub.start()
    restore_signals = close_sockets_on_signal(parts.hub)
    first = settings.ticks_wait_first
    sweeper = asyncio.create_task(_after(settings.sweep_seconds if first else 0.0, lambda: sweep_forever(
        parts.service.finisher, settings.sweep_seconds, parts.outage)))
    arena_ticks = asyncio.create_task(every(settings.tournament_tick_seconds, parts.arenas.tick, parts.outage,
                                             "the arenas' tick", wait_first=first))
    swiss_ticks = asyncio.create_task(every(settings.tournament_tick_seconds, parts.swisses.tick, parts.outage,
                                             "the Swiss events' tick", wait_first=first))
    # The notifications' outbox, delivered from every process (app/notify/sender.py).
    notify_sender = asyncio.create_task(parts.sender.run_forever(parts.outage) if settings.notify_sender
                                        else asyncio.sleep(0))
    alarms = asyncio.create_task(_after(settings.clock_alarm_tick_seconds if first else 0.0, lambda: ring_forever(
        parts.engine, parts.channels, settings.clock_alarm_tick_seconds, parts.outage)))
    digests = asyncio.create_task(digests_forever(parts.mail, parts.service.reads.get,
                                                  settings.mail_digest_tick_seconds, parts.outage))
    await parts.bots.start()
    await parts.analyses.start()
    _freeze_startup_objects()
    try:
        yield
    finally:
        await parts.bots.close()
        await parts.analyses.close()
        await parts.relay.close()
        for task in (sweeper, arena_ticks, swiss_ticks, notify_sender, alarms, digests):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await parts.arena_live.close()
        await parts.arenas.close()
        await parts.swisses.close()
        await parts.push.channel.close()
        await parts.hub.close(1001)
        if parts.claims is not None:
            await parts.claims.close()  # this process's places free at once
        restore_signals()
        await parts.gateway.limiter.close()  # its last flush needs the engine
        await parts.oauth.limiter.close()
        await parts.reads.close()
        await parts.engine.dispose()


def create_app(settings: Settings | None = None) -> MageryApp:
    settings = settings or get_settings()
    configure_logs(settings.log_format, settings.log_level)  # JSON lines, secrets redacted
    install_redaction()  # seat tokens in websocket URLs never reach the logs
    use_password_costs(*settings.password_costs)  # argon2id's costs, for the whole process
    parts = build(settings)
    app = MageryApp(
        title="Magery Online", version="1.0.0", description=DESCRIPTION, lifespan=_lifespan,
        docs_url=None, redoc_url=None, openapi_url="/openapi.json",
        generate_unique_id_function=operation_id,  # chosen ids, not the path's
    )
    app.serve(parts)
    install_errors(app)
    install_response_docs(app)  # headers and the middlewares' refusals, in /openapi.json
    api.oauth.declare_flow(app)  # the OAuth flow beside the Bearer token, in /openapi.json
    install_stream_lines(app)  # what each line of an ndjson stream is, in /openapi.json
    install_docs_page(app)  # /docs and /redoc from local files: they work offline
    install_asyncapi(app)  # /asyncapi.json: the websocket and the streams
    app.include_router(api.router)
    app.router.routes.append(api.SOCKET_ROUTE)
    if settings.fast_path:
        app.add_layer(lambda inner, p: FastPlay(inner, gateway=p.gateway, outage=p.outage))  # added first: the innermost
    app.add_middleware(HeadAsGet)  # HEAD wherever GET is, as a GET without its body
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes,  # outside the fast path too
                       timeout=settings.body_timeout_seconds)
    # Every request counted before its body is read (the 413s and the 408s too).
    app.add_layer(lambda inner, p: Budgets(inner, gateway=p.gateway, reads=p.reads))
    if settings.allowed_origins:  # the API's CORS, outside the budgets: a 429 is readable by the page too
        app.add_middleware(ApiCors, allowed=settings.allowed_origins)
    # Sign-in tries of a locked address refused ahead of the whole stack, one try per
    # address let in at a time, at every sign-in form, the locks learnt by the account
    # service (app/auth/tries_in_front.py); inside the request ids and metrics.
    forms = {sign_in_front.PATH: sign_in_front.answer, admin.front.PATH: admin.front.answer}
    app.add_front(lambda inner, p: SignInsInFront(inner, p.accounts.sign_ins, address_key, p.accounts.now,
                                                  settings.body_timeout_seconds, forms, security_headers()))
    # Probes, request ids and HTTP metrics ahead of every middleware and limit, and
    # of the error middleware: a bug's 500 is counted and carries its request id.
    # Only the socket bypass (worth 27% of an idle socket's memory) stands in front.
    app.add_front(lambda inner, p: OpsOutermost(inner, p.ops, lambda: app.routes,
                                                lambda: app.openapi().get("paths", {})))
    app.add_front(lambda inner, p: ws.SocketsInFront(inner, p.socket))
    admin.install(app)  # the dashboard: its routes read parts.admin
    web.install(app)  # pages, /static, headers, the players' account pages, profiles, the leaderboard
    if settings.trusted_proxies:  # outermost: every route and socket sees the client it names
        app.add_front(lambda inner, _: ProxyHeadersMiddleware(inner, settings.trusted_proxies))

    return app
