"""Every part of the application, made in one place and in order by `build()`:

    settings → database engine → match service → gateway → realtime hub → bot runner
    → accounts → chat → pools → arenas → profiles → challenges → person channel → resends
    → streams → the socket → operations → the admin wing

Each part is handed the parts it needs when it is made; a part that must hear
of another's doings subscribes to it here, by name (`listeners.add`,
`seats.on_return`, `share_claims`, `accounts.on_close`), and nothing is set on a part afterwards.
The routes find the parts through `app.state.parts` (app/api/deps.py), as
tests and tools do; app/main.py makes the app around them.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncEngine

from app import admin, bots
from app.accounts import Accounts
from app.accounts.oauth import OAuth
from app.accounts.profiles import Profiles
from app.analysis import Analyses
from app.api import ws, ws_chat
from app.api.kept_states import Replays
from app.api.match_stream import MatchStreams
from app.api.resends import Resends
from app.auth import PasswordChecks
from app.bots.draw_answer import accepts_draw
from app.bots.runner import BotRunner
from app.challenges import Challenges
from app.challenges.service import person_key
from app.chat import Chat, Relay
from app.config import Settings
from app.db import head, make_engine
from app.db.outage import OutageLog
from app.kernel.limits import RedisWindow, SlidingWindow, make_limiter, make_read_limiter
from app.mail import Mailer
from app.mail.notices import MailNotices
from app.matches import Fanout, Gateway, MatchService
from app.notify import Channels, Inbox, Sender
from app.ops import MeteredGateway, Metrics, Ops, metered_bus
from app.people import Person, PersonChannel
from app.people.events import OneEach
from app.people.presence import Presence
from app.pools import Pools
from app.pools.catalogue import CONTROLS
from app.push.notices import PushNotices
from app.push.parts import Push, make_push
from app.puzzles.service import Puzzles
from app.realtime import Hub, ServiceSource, make_bus, make_hub
from app.realtime.bus import MemoryBus
from app.realtime.held_in_redis import Claims
from app.realtime.service import share_claims, share_closings
from app.rules import VARIANTS
from app.tournaments import Arenas
from app.tournaments.live import ArenaLive
from app.tournaments.schedule import Schedule, plan
from app.tournaments.swiss import Swisses


@dataclass(frozen=True, slots=True)
class Parts:
    """What the app is made of: what its routes, tests and tools reach."""

    settings: Settings
    engine: AsyncEngine
    outage: OutageLog  # what every part reports when the database is out of reach
    metrics: Metrics | None  # None with METRICS=false
    service: MatchService
    gateway: Gateway
    hub: Hub
    bots: BotRunner
    accounts: Accounts  # the players' accounts, sessions, tokens (app/accounts)
    oauth: OAuth  # apps' OAuth codes traded for account tokens (app/accounts/oauth.py)
    chat: Chat  # the match chat (app/chat)
    relay: Relay  # the chat's lines to the sockets
    pools: Pools  # quick pairing (app/pools)
    arenas: Arenas  # tournaments (app/tournaments)
    swisses: Swisses  # Swiss events (app/tournaments/swiss)
    arena_live: ArenaLive  # an arena's standings pushed to its watchers, on every process
    profiles: Profiles  # the players' public read side: profiles, leaderboard
    challenges: Challenges
    channel: PersonChannel  # every page's live channel
    event_streams: OneEach  # one event stream per credential (GET /api/v1/stream/events)
    resends: Resends  # the answers kept for Idempotency-Key
    streams: MatchStreams  # a match as a stream of JSON lines
    replays: Replays  # the replay answers that can no longer change, kept
    socket: ws.MatchSocket  # the match's websocket
    ops: Ops  # the probes and /metrics
    admin: admin.Admin  # the admins' wing
    # Notifications (app/notify): the channels registered (push, email), the
    # inbox, and this process's sender of the outbox.
    channels: Channels
    inbox: Inbox
    sender: Sender
    push: Push  # web push: the VAPID key, the push channel (app/push)
    mail: Mailer  # email: addresses, preferences, the email channel (app/mail)
    analyses: Analyses  # computer analyses of finished matches, searched in worker processes (app/analysis)
    puzzles: Puzzles  # puzzles and the players' puzzle ratings (app/puzzles)
    reads: SlidingWindow | RedisWindow  # the read budget per address (app/api/budget.py)
    # With Redis: the caps on sockets and streams per address, counted over every process.
    claims: Claims | None = None


def build(settings: Settings) -> Parts:
    engine = make_engine(settings.database_url, settings.db_pool_size, settings.db_max_overflow,
                         settings.database_pooler)
    outage = OutageLog()  # one for the app: one line when the database goes, one when it is back
    listeners = Fanout()  # who hears each commit: the hub, then the bot runner
    # The ways a notice leaves besides the inbox: each registers here, by name
    # (`channels.register`); notices are written for the registered ones only.
    channels = Channels()
    # The computer answers a draw offer at once.
    service = MatchService(engine, settings, listeners, bot_levels=bots.LEVELS, computer_answers_draw=accepts_draw,
                           channels=channels)
    limiter = make_limiter(engine, settings.rate_limit_writes, settings.rate_window_seconds, outage)
    # Operations: the gateway and the bus metered (app/ops/meters.py): the gateway is
    # built as a counting one, the bus is wrapped.
    metrics = Metrics() if settings.metrics else None
    gateway = (Gateway(service, limiter, settings.rate_limit_hold_seconds) if metrics is None
               else MeteredGateway(service, limiter, settings.rate_limit_hold_seconds, metrics=metrics))
    carrier = make_bus(settings.database_url, settings.realtime_bus, outage, settings.redis_url,
                       settings.redis_prefix)
    bus = metered_bus(carrier, metrics)
    claims = Claims(settings.redis_url, settings.redis_prefix, settings.socket_claim_seconds, outage) \
        if settings.redis_url else None
    hub = make_hub(ServiceSource(service), settings, bus, outage,
                   claims.counter("sockets", settings.ws_sockets_per_address) if claims else None)
    runner = (BotRunner(gateway, service, settings, outage) if metrics is None
              else BotRunner(gateway, service, settings, outage,
                             metered=metrics.bot_searched, dropped=metrics.bot_dropped))
    if metrics is not None:
        metrics.watch(hub)
        if service.keeper.together is not None:
            metrics.watch_saves(service.keeper.together)
    listeners.add(hub)
    listeners.add(runner, reads_words=False)  # it reads an update's `match` only
    service.seats.on_return(runner.seen)  # a person back: a bot turn dropped while away is taken up
    share_claims(service, hub.nudges)  # a claimed seat seen as the account's on every process
    share_closings(service, hub.nudges)  # a closed account's seat tokens refused on every process
    # A match its sockets hold at the newest version is answered from the cache, but
    # only where no other process writes: across processes a lost bus message (a
    # Redis restart) would leave the held record behind until the next one came.
    if isinstance(carrier, MemoryBus) and carrier.alone:
        service.keeper.vouch = hub.vouched
    service.seats.held_here = hub.holds_seat  # a seat whose socket is here is written seen by the heartbeat
    # Passwords are checked in small argon2 pools (app/auth/checks.py): the players' and the admins'.
    accounts = Accounts(engine, settings, PasswordChecks(settings.password_workers, settings.password_waiting),
                        admin_checks=PasswordChecks(settings.admin_password_workers, settings.admin_password_waiting))
    accounts.on_close(service.leaving.account_closed)  # its running matches end, by every path that closes
    # The chat writes through the gateway's write budget and wakes every process by a nudge.
    chat = Chat(engine, gateway, hub.nudges, flood_seconds=settings.chat_flood_seconds, channels=channels)
    relay = Relay(chat, hub.nudges, hub.reply, settings.chat_poll_seconds)
    pools = Pools(engine, gateway, hub.nudges, settings, bots.LEVELS)

    def wake_people(account_ids: list[int]) -> None:  # their pages read their inbox again, on every process
        for account_id in account_ids:
            hub.nudges.nudge(person_key(account_id))

    channels.on_told(wake_people)
    # The server's own arenas (hourly and daily, in the pools' real-time controls), unless turned off.
    schedule = Schedule(engine, plan(VARIANTS, [(c, clock) for c, _, clock in CONTROLS])) \
        if settings.tournament_schedule else None
    arenas = Arenas(engine, gateway, hub.nudges, schedule, channels)
    listeners.add(arenas, reads_words=False)  # a game's end pairs its arena's players again at once
    swisses = Swisses(engine, gateway)
    listeners.add(swisses, reads_words=False)  # a game's end written at once: its round may be over
    # Each change of an arena nudges every process; each reads it once for all its watchers.
    arena_live = ArenaLive(arenas, hub.nudges, settings.tournament_push_seconds)
    # The players' public read side, on the accounts' clock (a rating's RD grows
    # with the days since its last rated match).
    profiles = Profiles(engine, lambda: accounts.clock())
    # Challenges and every page's live channel, woken by the hub's nudges.
    challenges = Challenges(engine, accounts, gateway, hub.nudges, settings, channels=channels)
    arenas.nudges = hub.nudges  # a join, a pairing, an arena's start and end wake the players' channels
    channel = PersonChannel(Person(engine, challenges, service.reads.get, arenas), hub.nudges,
                            settings.person_channels_per_address, settings.person_recheck_seconds,
                            settings.person_keepalive_seconds, closing=lambda: hub.closed,
                            by_address=claims.counter("channels", settings.person_channels_per_address)
                            if claims else None,
                            presence=Presence(engine, settings.online_seconds, lambda: accounts.clock()))
    sender = Sender(engine, channels, poll_seconds=settings.notify_poll_seconds,
                    lease_seconds=settings.notify_lease_seconds,
                    first_retry_seconds=settings.notify_first_retry_seconds,
                    most_retry_seconds=settings.notify_most_retry_seconds,
                    give_up_seconds=settings.notify_give_up_seconds, most=settings.notify_batch)
    channels.on_told(lambda _: sender.wake())  # a notice committed here: delivered now, not at the next poll
    if metrics is not None:
        metrics.watch_outbox(sender)
    # Web push always; email when the server has an SMTP server to send by.
    push = make_push(engine, settings)
    channels.register(PushNotices(push.channel))
    mail = Mailer(engine, settings, clock=lambda: accounts.clock())  # the accounts' clock: tests move it
    if mail.enabled:
        channels.register(MailNotices(mail))
    socket = ws.MatchSocket(hub, gateway, settings, outage, accounts, ws_chat.SocketChat(chat, relay))
    # Analyses tell a match's sockets and streams of their progress, on every process.
    puzzles = Puzzles(engine, lambda: accounts.clock())
    analyses = Analyses(engine, service.reads, hub.nudges, hub.tell, settings, watched=hub.watched,
                        puzzles=puzzles if settings.analysis_puzzles else None)
    return Parts(
        settings=settings, engine=engine, outage=outage, metrics=metrics, service=service, gateway=gateway,
        hub=hub, bots=runner, accounts=accounts, chat=chat,
        oauth=OAuth(engine, lambda: accounts.now(),
                    make_limiter(engine, settings.oauth_exchanges_per_minute, 60.0, outage)), relay=relay, pools=pools, arenas=arenas, swisses=swisses,
        arena_live=arena_live, profiles=profiles,
        challenges=challenges, channel=channel, event_streams=OneEach(hub.nudges), resends=Resends(engine, settings.idempotency_wait_seconds),
        streams=MatchStreams(hub, gateway, settings.match_stream_keepalive_seconds, chat=chat, relay=relay), replays=Replays(),
        socket=socket, ops=Ops(engine, hub, head(), metrics, settings.ready_timeout_seconds),
        admin=admin.Admin(engine, service, gateway, settings, accounts, chat=chat),
        channels=channels, inbox=Inbox(engine), sender=sender,
        push=push, mail=mail, analyses=analyses, puzzles=puzzles,
        reads=make_read_limiter(settings.rate_limit_reads, settings.rate_window_seconds, settings.redis_url,
                                settings.redis_prefix, outage),
        claims=claims,
    )
