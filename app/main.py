"""The ASGI application's factory, `uvicorn --factory app.main:create_app`, and the one
place its parts are built and wired, in order:

    settings → database engine → match service → gateway → realtime hub → bot runner → routes

Each part is handed the parts it needs; none finds another through `app.state`
(which holds them only for tests and tools, as `app.state.parts`). At start the
database is migrated to head, then the hub, the sweeper and the bot runner
start; at stop they end in the reverse order. Operations (app/ops) meter the
gateway and the bus by wrapping them, and answer the probes and /metrics in front
of the HTTP stack.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.types import ASGIApp
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from app import admin, api, bots, web
from app.accounts import Accounts
from app.accounts.profiles import Profiles
from app.api import ws, ws_chat
from app.api.asyncapi import install as install_asyncapi
from app.api.body_limit import BodyLimit
from app.api.budget import Budgets
from app.api.cors import ApiCors
from app.api.docs_page import install as install_docs_page
from app.api.errors import install as install_errors
from app.api.fast import FastPlay
from app.api.head import HeadAsGet
from app.api.match_stream import MatchStreams
from app.api.operation_ids import operation_id
from app.api.resends import Resends
from app.api.response_docs import install as install_response_docs
from app.auth import PasswordChecks, use_password_costs
from app.bots.draw_answer import accepts_draw
from app.bots.runner import BotRunner
from app.challenges import Challenges
from app.chat import Chat, Relay
from app.config import Settings, get_settings
from app.db import head, make_engine, revision, upgrade
from app.db.outage import OutageLog
from app.kernel.limits import SlidingWindow, make_limiter
from app.matches import Fanout, Gateway, MatchService
from app.matches.sweeper import sweep_forever
from app.ops import MeteredGateway, Metrics, Ops, OpsOutermost, configure_logs, metered_bus
from app.people import Person, PersonChannel
from app.pools import Pools
from app.realtime import Hub, ServiceSource, close_sockets_on_signal, make_bus, make_hub
from app.realtime.service import share_claims
from app.redact import install as install_redaction
from app.web.sign_in_front import PlayersSignInsInFront

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
log = logging.getLogger("uvicorn.error")  # the logger uvicorn shows at start


@dataclass(frozen=True, slots=True)
class Parts:
    """What the app is made of, for tests and tools to reach."""

    settings: Settings
    engine: AsyncEngine
    service: MatchService
    gateway: Gateway
    hub: Hub
    bots: BotRunner
    outage: OutageLog  # what every part reports when the database is out of reach
    accounts: Accounts  # the players' accounts, sessions, tokens (app/accounts)
    metrics: Metrics | None = None  # None with METRICS=false
    chat: Chat | None = None  # the match chat (issue 20, app/chat), and its relay to the sockets
    relay: Relay | None = None
    pools: Pools | None = None  # quick pairing (issue 20, app/pools)


def build(settings: Settings) -> Parts:
    engine = make_engine(settings.database_url, settings.db_pool_size, settings.db_max_overflow)
    outage = OutageLog()  # one for the app: one line when the database goes, one when it is back
    listeners = Fanout()  # who hears each commit: the hub, then the bot runner
    service = MatchService(engine, settings, listeners, bot_levels=bots.LEVELS)
    service.finisher.computer_answers_draw = accepts_draw  # the computer answers an offer at once
    limiter = make_limiter(engine, settings.rate_limit_writes, settings.rate_window_seconds, outage)
    # Operations: the gateway and the bus metered (app/ops/meters.py): the gateway is
    # built as a counting one, the bus is wrapped.
    metrics = Metrics() if settings.metrics else None
    gateway = (Gateway(service, limiter, settings.rate_limit_hold_seconds) if metrics is None
            else MeteredGateway(service, limiter, settings.rate_limit_hold_seconds, metrics=metrics))
    bus = metered_bus(make_bus(settings.database_url, settings.realtime_bus, outage), metrics)
    hub = make_hub(ServiceSource(service), settings, bus, outage)
    runner = BotRunner(gateway, service, settings, outage)
    if metrics is not None:
        metrics.watch(hub)
        if service.keeper.together is not None:
            metrics.watch_saves(service.keeper.together)
        runner.metered = metrics.bot_searched
        runner.dropped = metrics.bot_dropped
    listeners.add(hub)
    listeners.add(runner, reads_words=False)  # it reads an update's `match` only
    service.seats.returned = runner.seen  # a person back: a bot turn dropped while away is taken up
    share_claims(service, hub.nudges)  # a claimed seat seen as the account's on every process
    # The players' passwords are checked in a small argon2 pool of their own (app/auth/checks.py).
    accounts = Accounts(engine, settings, PasswordChecks(settings.admin_password_workers,
                                                         settings.admin_password_waiting))
    # The chat writes through the gateway's write budget and wakes every process by a nudge.
    chat = Chat(engine, gateway, hub.nudges, flood_seconds=settings.chat_flood_seconds)
    relay = Relay(chat, hub.nudges, hub.reply, settings.chat_poll_seconds)
    pools = Pools(engine, gateway, hub.nudges, settings, bots.LEVELS)
    return Parts(settings, engine, service, gateway, hub, runner, outage, accounts, metrics, chat, relay, pools)


class MageryApp(FastAPI):
    """FastAPI with layers in front of its whole stack, error middleware included
    (`add_middleware` puts a layer inside it). Starlette builds the stack once, at
    the first request, by `build_middleware_stack`, its hook for that; this one
    wraps what FastAPI builds. Each front is a plain ASGI wrapper."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.fronts: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []

    def add_front(self, layer: Callable[..., Any], *args: Any) -> None:
        """Put `layer(app, *args)` in front of the stack and of the fronts added before."""
        if self.middleware_stack is not None:
            raise RuntimeError("the app has started: its stack is built already")
        self.fronts.append((layer, args))

    def build_middleware_stack(self) -> ASGIApp:
        app = super().build_middleware_stack()
        for layer, args in self.fronts:
            app = layer(app, *args)
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


def _lifespan(parts: Parts) -> Callable[[FastAPI], contextlib.AbstractAsyncContextManager[None]]:
    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        settings = parts.settings
        await upgrade(parts.engine)
        log.info("Database: %s, migrated to %s (head %s)",
                 make_url(settings.database_url).render_as_string(hide_password=True),
                 await revision(parts.engine), head())
        await parts.hub.start()
        restore_signals = close_sockets_on_signal(parts.hub)
        sweeper = asyncio.create_task(sweep_forever(parts.service.finisher, settings.sweep_seconds, parts.outage))
        await parts.bots.start()
        _freeze_startup_objects()
        try:
            yield
        finally:
            await parts.bots.close()
            if parts.relay is not None:
                await parts.relay.close()
            sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sweeper
            await parts.hub.close(1001)
            restore_signals()
            await parts.gateway.limiter.close()  # its last flush needs the engine
            await parts.engine.dispose()

    return lifespan


def create_app(settings: Settings | None = None) -> MageryApp:
    settings = settings or get_settings()
    configure_logs(settings.log_format, settings.log_level)  # JSON lines, secrets redacted
    install_redaction()  # seat tokens in websocket URLs never reach the logs
    use_password_costs(*settings.password_costs)  # argon2id's costs, for the whole process
    parts = build(settings)
    app = MageryApp(
        title="Magery Online", version="1.0.0", description=DESCRIPTION, lifespan=_lifespan(parts),
        docs_url=None, redoc_url=None, openapi_url="/openapi.json",
        generate_unique_id_function=operation_id,  # chosen ids, not the path's (issue 21)
    )
    app.state.parts = parts
    install_errors(app, parts.outage)
    install_response_docs(app)  # headers and the middlewares' refusals, in /openapi.json
    install_docs_page(app)  # /docs and /redoc from local files: they work offline
    install_asyncapi(app)  # /asyncapi.json: the websocket and the streams (issue 21)
    # The players' public read side (issue 19): API and pages, on the accounts'
    # clock (a rating's RD grows with the days since its last rated match).
    profiles = Profiles(parts.engine, lambda: parts.accounts.clock())
    # Challenges and every page's live channel (issue 20), woken by the hub's nudges.
    challenges = Challenges(parts.engine, parts.accounts, parts.gateway, parts.hub.nudges, settings)
    channel = PersonChannel(Person(parts.engine, challenges, parts.service.reads.get), parts.hub.nudges,
                            settings.person_channels_per_address, settings.person_recheck_seconds,
                            settings.person_keepalive_seconds, closing=lambda: parts.hub.closed)
    app.state.challenges, app.state.channel = challenges, channel  # for tests (their clocks), as app.state.parts
    resends = Resends(parts.engine)  # the answers kept for Idempotency-Key (issue 21)
    app.state.resends = resends  # for tests (its clock), as app.state.parts
    streams = MatchStreams(parts.hub, parts.gateway, settings.match_stream_keepalive_seconds)
    app.include_router(api.router(parts.gateway, parts.service.reads, parts.accounts, profiles, (challenges, channel),
                                  parts.chat, parts.pools, resends, streams))
    socket = ws.MatchSocket(parts.hub, parts.gateway, settings, parts.outage, parts.accounts,
                           ws_chat.SocketChat(parts.chat, parts.relay) if parts.chat and parts.relay else None)
    app.router.routes.append(ws.route(socket))
    if settings.fast_path:
        app.add_middleware(FastPlay, gateway=parts.gateway, outage=parts.outage)  # added first: the innermost middleware
    app.add_middleware(HeadAsGet)  # HEAD wherever GET is, as a GET without its body
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes,  # outside the fast path too
                       timeout=settings.body_timeout_seconds)
    # Every request counted before its body is read (the 413s and the 408s too).
    app.add_middleware(Budgets, gateway=parts.gateway,
                       reads=SlidingWindow(settings.rate_limit_reads, settings.rate_window_seconds))
    if settings.allowed_origins:  # the API's CORS, outside the budgets: a 429 is readable by the page too
        app.add_middleware(ApiCors, allowed=settings.allowed_origins)
    # Probes, request ids and HTTP metrics ahead of every middleware and limit, and
    # of the error middleware: a bug's 500 is counted and carries its request id.
    # Only the socket bypass (worth 27% of an idle socket's memory) stands in front.
    ops = Ops(parts.engine, parts.hub, head(), parts.metrics, lambda: app.routes,
              lambda: app.openapi().get("paths", {}), settings.ready_timeout_seconds)
    app.state.ops = ops  # for tests, as app.state.parts
    wing = admin.Admin(parts.engine, parts.service, parts.gateway, settings, parts.accounts, chat=parts.chat)
    app.state.admin = wing  # for tests (its clock), as app.state.parts
    # Sign-in tries of a locked address refused ahead of the whole stack, one try per
    # address let in at a time (app/admin/front.py); inside the request ids and metrics.
    app.add_front(admin.SignInsInFront, wing)
    # The same for the players' sign-in (app/web/sign_in_front.py), the locks learnt by the account service.
    app.add_front(PlayersSignInsInFront, parts.accounts, settings.body_timeout_seconds)
    app.add_front(OpsOutermost, ops)
    app.add_front(ws.SocketsInFront, socket)
    admin.install(app, wing)
    web.install(app, bot_levels=lambda: bots.LEVELS, read_match=parts.service.reads.get,  # pages, /static, headers
                accounts=parts.accounts, gateway=parts.gateway,  # and the players' account pages
                profiles=profiles)  # and their profiles and the leaderboard
    if settings.trusted_proxies:  # outermost: every route and socket sees the client it names
        app.add_front(ProxyHeadersMiddleware, settings.trusted_proxies)

    return app

