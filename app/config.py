"""The one settings object, read from the environment and `.env`."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    # With none, an SQLite file in the working directory (no set-up needed).
    database_url: str = "sqlite+aiosqlite:///./magery.sqlite3"
    # Connections kept open per process (overflow ones are closed after use, so
    # the pool is sized for 32 busy clients; two processes stay under Postgres's 100).
    db_pool_size: int = 32
    db_max_overflow: int = 8
    # What stands between the server and PostgreSQL: "none" (it connects to
    # PostgreSQL itself) or "pgbouncer" (PgBouncer in pool_mode=transaction, or
    # any pooler that lends a server connection per transaction). "pgbouncer"
    # keeps no statement prepared past its transaction and needs a bus other
    # than LISTEN/NOTIFY (REALTIME_BUS=redis; "auto" becomes redis when REDIS_URL
    # is set): the start stops otherwise (docs/operations.md, "Behind PgBouncer").
    database_pooler: Literal["none", "pgbouncer"] = "none"
    # Origin allow-list: pages of other sites listed here may open sockets and
    # call the REST API by CORS (app/api/cors.py) ("*" allows any). Same-host
    # pages and non-browser clients (which send no Origin) always pass.
    # ALLOWED_ORIGINS='["https://a.example"]'.
    allowed_origins: list[str] = []
    # Writes allowed per token and per address in `rate_window_seconds`: shared
    # by every process through the database on PostgreSQL (fixed windows,
    # app/kernel/limits.py), in this process's memory on SQLite.
    rate_limit_writes: int = 120
    rate_window_seconds: float = 10.0
    # A write over the limit waits this long (at most its Retry-After) before its
    # 429: a client writing as fast as answers come is slowed to a few a second
    # per connection, at no cost to the server (bench/proofs.py flood).
    rate_limit_hold_seconds: float = 0.5
    # Proxies whose X-Forwarded-For names the client (addresses or networks,
    # TRUSTED_PROXIES='["10.0.0.0/8"]'): the limits count the address it names.
    # From any other peer the header is ignored. Empty: never believed.
    trusted_proxies: list[str] = []
    # A seat gone this long lets its opponent claim: real-time
    # matches, and untimed ones, where a player may think longer; a match may
    # choose its own `abandon_seconds` (correspondence matches have none).
    abandon_seconds: float = 60.0
    abandon_untimed_seconds: float = 600.0
    # The home page's open and live lists (`GET /matches?here=true`) leave out a
    # match where no person has been at a seat for this long (docs/web.md).
    listed_away_seconds: float = 120.0
    # Setup runs no clock (docs/rules.md, "Clocks"): a side of a real-time match
    # that has not set up its backrow within this long gets the match aborted.
    setup_seconds: float = 60.0
    # A match nobody joined within this long is aborted (a match may choose).
    join_timeout_seconds: int = 24 * 3600
    # How often the background sweeper looks for flags and abandoned matches.
    sweep_seconds: float = 1.0
    # True: the sweeper, the tournaments' ticks and the clock's alarm first run one period after
    # start, not at once (tests: an app serving one short test queries only when asked).
    ticks_wait_first: bool = False
    # A seat's last_seen is written at most this often per seat and process.
    touch_seconds: float = 5.0
    # On PostgreSQL, actions saved at most this many at a time per process; the
    # saves that find them all busy are written together in one transaction by
    # the next free one (app/matches/saves_together.py). 0: each alone.
    save_writers: int = 2
    # Matches whose current state each process keeps in memory.
    state_cache_size: int = 4096
    # `updates_since` answers None (send a snapshot) when more are missed.
    max_replay_updates: int = 500
    # A bot waits this long before it acts (0 in tests and benchmarks).
    bot_delay_seconds: float = 0.3
    # How long a bot may think about one action, the worker processes its searches run in,
    # and how often each process looks for bot turns that a stopped process left pending.
    bot_think_seconds: float = 1.0
    bot_workers: int = 1
    bot_resume_seconds: float = 30.0
    # A request body over this many bytes: 413 before it is read (a legal one is a few kB).
    max_body_bytes: int = 64 * 1024
    # Websocket limits.
    ws_messages_per_10s: int = 200
    ws_max_frame_bytes: int = 16 * 1024
    ws_ping_seconds: float = 10.0
    ws_dead_after_seconds: float = 30.0
    # A match's chat is read again this often on each process with a socket
    # following it, should a nudge be lost (app/chat/relay.py).
    chat_poll_seconds: float = 10.0
    # The chat's flood window: the fifth line of one writer within it is refused.
    chat_flood_seconds: float = 10.0
    # Carries committed actions between server processes: "auto" (Postgres
    # LISTEN/NOTIFY on Postgres, in-process on SQLite), "postgres", "redis"
    # (Redis pub/sub in lanes, at REDIS_URL) or "memory".
    # Any other value stops the start, naming these: a misspelt bus once became
    # the one-process memory bus, and two processes stopped hearing each other.
    realtime_bus: Literal["auto", "postgres", "redis", "memory"] = "auto"
    # Redis, for REALTIME_BUS=redis: redis://host:6379/0 (rediss:// for TLS;
    # a password as redis://:secret@host:6379/0). None: no Redis.
    redis_url: str | None = None
    # What this deployment's channels start with: two deployments sharing one
    # Redis (staging beside production) must each have their own.
    redis_prefix: str = Field("magery", pattern=r"^[A-Za-z0-9_.-]{1,40}$")
    # With REDIS_URL, the per-address caps on sockets and streams (WS_SOCKETS_PER_ADDRESS,
    # PERSON_CHANNELS_PER_ADDRESS) are counted in Redis over every process; a
    # process renews its claim on what it holds every third of this, and what a
    # process that died held is free again this long after its last renewal.
    socket_claim_seconds: float = Field(30.0, gt=0)
    # POST …/actions answered by app/api/fast.py ahead of FastAPI's routing
    # (bench/api.py measures the server both ways).
    fast_path: bool = True
    # The admin dashboard: how long a dashboard sign-in lasts. Admins are accounts
    # (the admin role): their failed sign-ins are locked out by ACCOUNT_LOCK_AFTER
    # and the rest, below, as everyone's are.
    admin_session_hours: float = 12.0

    # ---- every sign-in under load (app/auth/checks.py) ----
    # Two pools of argon2 checks (64 MiB and tens of ms of CPU each), each with
    # its workers (checks run at once) and its line: the players' (sign-ins at
    # /login, sign-ups, password changes) and the admins' (/admin/login), so a
    # flood at one form never takes the other's. A try that finds the workers
    # busy waits its turn in a line served address by address: at most
    # PASSWORD_WAITING addresses (ADMIN_PASSWORD_WAITING) wait at once, two
    # tries each; one beyond those answers 503 at once and is counted against
    # its address as a failed sign-in. Tries from a browser or an address that
    # holds a session wait in a line of their own, besides those.
    password_workers: int = Field(1, ge=1)
    password_waiting: int = Field(64, ge=0)
    admin_password_workers: int = Field(1, ge=1)
    admin_password_waiting: int = Field(8, ge=0)
    # argon2id's costs for every password hashed from now on (admins' and
    # players'; app/auth/hashing.py): passes, memory in KiB, lanes. The defaults
    # are argon2-cffi's own, RFC 9106's low-memory profile. A hash keeps the costs
    # it was made with, so changing these never locks anyone out.
    password_time_cost: int = Field(3, ge=1)
    password_memory_kib: int = Field(65536, ge=8)
    password_parallelism: int = Field(4, ge=1)

    # ---- accounts, players' and admins' (app/accounts) ----
    # How long a player's sign-in lasts.
    account_session_days: float = 30.0
    # Accounts one address may try to make in each window (counted by every process).
    account_signups_per_address: int = 3
    account_signup_window_seconds: float = 3600.0
    # OAuth token requests (POST /api/v1/oauth/token) one address may make a
    # minute, right or wrong (counted by every process on PostgreSQL); over it: 429.
    oauth_exchanges_per_minute: int = Field(20, ge=1)
    # Failed sign-ins, at /login and /admin/login alike, locked out per address
    # after ACCOUNT_LOCK_AFTER, per name after ACCOUNT_NAME_LOCK_AFTER from any
    # addresses (above ACCOUNT_LOCK_AFTER, so one address cannot do it alone; an
    # address the account holds a session from, or its admin signed in to the
    # dashboard from, is never held by it); the wait doubles per failure up to the longest.
    account_lock_after: int = 5
    account_lock_seconds: float = 30.0
    account_lock_max_seconds: float = 3600.0
    account_name_lock_after: int = 20

    # ---- quick pairing (app/pools, docs/api.md "Quick pairing") ----
    # A waiter with nobody to pair for this long is offered the computer instead.
    pool_offer_seconds: float = 20.0
    # A place in a pool lasts this long after the player's last word (its waiting
    # request renews it while held): a closed page leaves the pool within it.
    pool_lease_seconds: float = 6.0
    # A held waiting request reads the pool again (and tries to pair) at least this
    # often, whatever nudges say: a lost nudge costs this long at most.
    pool_tick_seconds: float = 1.0
    # Each process writes the ends of arena games it did not hear end (another
    # process's, or missed) and pairs running arenas at least this often.
    tournament_tick_seconds: float = 1.0
    # The server makes its own arenas (app/tournaments/schedule.py): hourly in
    # the fastest real-time pool control and daily in the others, per variant.
    tournament_schedule: bool = True
    # An arena watched on a process is read again at most this often, however
    # many of its games end meanwhile: its watchers' standings are this fresh.
    tournament_push_seconds: float = 0.5
    # A press this soon after the player was paired (a double press, two pools
    # pressed at once) is answered with that pairing, never a second match.
    pool_again_seconds: float = 3.0
    # The longest a waiting request is held before it answers "still waiting".
    pool_wait_seconds: float = 25.0
    # Rated players are paired within a rating range that starts at this many
    # points, widens by the second per second waited, up to the most.
    pool_range_start: float = 150.0
    pool_range_per_second: float = 25.0
    pool_range_most: float = 1000.0
    # Places in the pools (a player waiting in one pool is one place) held at
    # once from one client address, and by one account from whatever addresses,
    # counted in the database by every process (0: no cap). A join over either:
    # 429 too_many_places. Two places of one address are never paired together.
    pool_places_per_address: int = Field(8, ge=0)
    pool_places_per_account: int = Field(8, ge=0)

    # ---- bots as a shared resource (docs/configuration.md) ----
    # The longest a bot may think about one action, whatever a match asks for
    # (its `bot_think_seconds` is lowered to this when it is made).
    bot_max_think_seconds: float = 3.0
    # Running bot matches one client address may hold at once, counted in the
    # database by every process (0: no cap). A creation over it: 429 too_many_bot_matches.
    bot_matches_per_address: int = 5
    # Running bot matches one signed-in account (a session or an account token)
    # may hold at once, from whatever addresses, counted in the database by every
    # process (0: no cap). A creation over it: 429 too_many_bot_matches.
    bot_matches_per_account: int = 5
    # A bot's turn whose person has had no socket open and has not been seen
    # for this long is not searched (it is taken up again when they come back).
    bot_unwatched_seconds: float = 60.0
    # A process's claim on a bot turn lasts the search's think time plus this;
    # past it another process takes the turn over (its holder died).
    bot_lease_seconds: float = 30.0

    # ---- computer analysis of finished matches (app/analysis/, docs/configuration.md) ----
    # The search's depth in actions (2: about 60 ms a position on one core, a 300-version
    # match in under 20 s; 3 takes five times as long and misses the minute:
    # bench/analysis.py), and the most one position may take however deep it goes.
    analysis_depth: int = Field(2, ge=1, le=8)
    analysis_position_seconds: float = Field(3.0, gt=0)
    # Worker processes each server process searches analyses in (its own,
    # beside BOT_WORKERS'), one analysis each at a time.
    analysis_workers: int = Field(1, ge=0)
    # Analyses waiting or running from one client address, and requested by one
    # account (or one address without an account) in 24 hours (0: no bound).
    # Over either: 429 too_many_analyses with Retry-After.
    analysis_per_address: int = Field(3, ge=0)
    analysis_per_day: int = Field(20, ge=0)
    # A claim on an analysis lasts this long past its last written plies; then another process takes it over.
    analysis_lease_seconds: float = Field(30.0, gt=0)
    analysis_tries: int = Field(3, ge=1)  # takings-up of an analysis before it is `failed`
    # How often each process looks for analyses waiting (a request wakes every
    # process at once anyway) or left by a process that died.
    analysis_poll_seconds: float = Field(10.0, gt=0)
    analysis_puzzles: bool = True  # each analysed match mined for puzzles after, in its worker

    # ---- notifications' outbox (app/notify/, docs/configuration.md) ----
    # Each process's sender looks for due deliveries this often (and at once
    # after a pass that found a full batch), taking at most `notify_batch` a pass.
    notify_poll_seconds: float = Field(1.0, gt=0)
    notify_batch: int = Field(50, ge=1)
    # A taken delivery is its sender's this long; a delivery is cut at half of it,
    # and a sender that died lets it go to another when it runs out.
    notify_lease_seconds: float = Field(60.0, gt=0)
    # A failed delivery is tried again after this, twice that the next time, up
    # to the most; one still undelivered this long after it was written is dropped.
    notify_first_retry_seconds: float = Field(30.0, gt=0)
    notify_most_retry_seconds: float = Field(3600.0, gt=0)
    notify_give_up_seconds: float = Field(86_400.0, gt=0)
    # False: this process delivers nothing from the outbox (the others do); the
    # notices are still written. Tests turn it off and run the sender's passes themselves.
    notify_sender: bool = True
    # Each process looks this often for correspondence moves past 80% of their
    # time (the clock's alarm, app/matches/clock_alarm.py); each alarm is written once.
    clock_alarm_tick_seconds: float = Field(60.0, gt=0)

    # ---- operations (app/ops/, docs/operations.md) ----
    # Log lines as JSON objects, one a line ("json"), or as plain text for a
    # person reading a terminal ("text"); the level of the app's own loggers
    # (uvicorn's follow its --log-level).
    log_format: Literal["json", "text"] = "json"
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    # /metrics and the counters behind it (bench/api.py measures the cost).
    metrics: bool = True
    # /readyz says unready when the database has not answered within this long.
    ready_timeout_seconds: float = 2.0

    # ---- what one client may take (docs/reliability.md, "What one client can take") ----
    # Reads (GET/HEAD under /api/v1/matches) allowed per address in
    # `rate_window_seconds`, in each process's memory; generous: a page polling
    # every second uses a fraction of it. Writes are counted against
    # `rate_limit_writes` whether their body is well-formed or not.
    rate_limit_reads: int = 600
    # The most finished matches one answer of a player's export streams; a
    # client goes on with `?after=` (a smaller `max` asks for fewer).
    export_max_matches: int = Field(10_000, ge=1)
    # An account is online while a page of the site or an event stream of it
    # was open within this long (app/people/presence.py), on any process.
    online_seconds: float = Field(30.0, gt=0)
    # A request's body must arrive whole within this long, or 408 and the
    # connection is closed (a client trickling a byte a second holds nothing).
    body_timeout_seconds: float = 10.0
    # Sockets one address may hold open at once (over every process with
    # REDIS_URL, per process without); one more is closed 1008
    # "too_many_sockets". Spectators are counted by distinct address.
    ws_sockets_per_address: int = 64
    # A warning is logged when this process's open files reach this share of
    # its limit (RLIMIT_NOFILE), once per crossing.
    open_files_warn_share: float = 0.8
    # Challenges: how long one waits for its answer, and how many a
    # challenger may have waiting at once (one more is refused "too_many_challenges").
    challenge_expire_seconds: float = 600.0
    challenges_pending_max: int = 5
    # A person's live channel (every page's one stream): streams one
    # address may hold open at once (over every process with REDIS_URL, per
    # process without; one more: 429
    # "too_many_channels"); how long it waits for a nudge before it reads the
    # database again all the same; a keep-alive line at least this often.
    person_channels_per_address: int = 16
    person_recheck_seconds: float = 5.0
    person_keepalive_seconds: float = 7.0
    # A match as a stream of JSON lines (GET /matches/{id}/stream): a
    # `ping` line when nothing else went out for this long.
    match_stream_keepalive_seconds: float = 7.0
    # A create, join or rematch resent with the Idempotency-Key of one still being
    # answered waits this long for that answer before it is told 409 request_in_flight.
    idempotency_wait_seconds: float = 10.0

    # ---- web push (app/push, docs/configuration.md) ----
    # The VAPID private key every process signs pushes with: the raw P-256 key,
    # 32 bytes in URL-safe base64 (as `vapid --gen` or web-push's
    # generate-vapid-keys print it). Unset: made once and kept in the database.
    vapid_private_key: str | None = None
    # Who a push service may contact about our pushes (the JWT's `sub`): a
    # mailto: or https: URL. Apple's service refuses one at localhost.
    vapid_subject: str = "mailto:push@localhost"
    # The hosts a subscription's endpoint may name (https only): exact names, or
    # "*." and a name for any one label under it. The defaults are the browsers'
    # push services: Chrome's FCM, Firefox's autopush, Safari's Apple push,
    # Edge's Windows push. "http://127.0.0.1" (tests only) adds a local stand-in.
    push_endpoint_hosts: list[str] = ["fcm.googleapis.com", "updates.push.services.mozilla.com",
                                      "*.push.apple.com", "*.notify.windows.com"]
    # The longest one push service is waited for before it counts as out of reach.
    push_timeout_seconds: float = 10.0
    # ---- email (app/mail, docs/configuration.md "Email") ----
    # The SMTP server mail is handed to: smtp://user:pass@host:port (STARTTLS
    # whenever the server offers it; port 587 unless given) or smtps://… (TLS
    # from the first byte; port 465 unless given). None: email is off (the
    # account page says so, and nothing is sent).
    smtp_url: SecretStr | None = None
    # The From of every mail.
    mail_from: str = "Magery Online <noreply@localhost>"
    # The site's address as players reach it: every link in a mail starts with it.
    public_url: str = "http://127.0.0.1:8000"
    # How long a verification link works.
    mail_verify_hours: float = 24.0
    # Verification mails sent to one address in a day, whichever accounts asked
    # (nobody can mail-bomb a stranger by naming their address), and asked by one account.
    mail_verify_per_address: int = Field(3, ge=1)
    mail_verify_per_account: int = Field(5, ge=1)
    # Notification mails (your turn, challenges, alarms, the digest) one account
    # is sent in a day; past it they are dropped until the day's window moves on.
    mail_per_account_day: int = Field(50, ge=1)
    # How long the SMTP server has to answer each step.
    smtp_timeout_seconds: float = 20.0
    # Every process looks for digests due this often.
    mail_digest_tick_seconds: float = 60.0

    @field_validator("public_url")
    @classmethod
    def _site_address(cls, value: str) -> str:
        """An http(s) address with a host; a trailing slash is dropped (links add their own)."""
        if not value.startswith(("http://", "https://")) or not value.split("://", 1)[1].split("/", 1)[0]:
            raise ValueError("public_url is the site's http:// or https:// address, e.g. https://magery.example")
        return value.rstrip("/")

    @model_validator(mode="after")
    def _bus_fits_the_database(self) -> Settings:
        """LISTEN/NOTIFY needs PostgreSQL: asked for on another database, the start stops here
        rather than at the first connection."""
        if self.realtime_bus == "postgres" and not self.database_url.startswith("postgres"):
            raise ValueError("REALTIME_BUS=postgres needs a PostgreSQL DATABASE_URL; with SQLite the bus is "
                             "in-process (auto or memory)")
        if self.realtime_bus == "redis" and not self.redis_url:
            raise ValueError("REALTIME_BUS=redis needs REDIS_URL (e.g. redis://127.0.0.1:6379/0)")
        if self.redis_url is not None and not self.redis_url.startswith(("redis://", "rediss://", "unix://")):
            raise ValueError("REDIS_URL is a redis://, rediss:// or unix:// address, e.g. redis://127.0.0.1:6379/0")
        if self.database_pooler != "none":
            self._fits_the_pooler()
        return self

    def _fits_the_pooler(self) -> None:
        """A pooler lends a server connection per transaction: LISTEN would hear
        nothing once its transaction ended, so two processes would stop hearing
        each other without a word. Refused here, at start."""
        if not self.database_url.startswith("postgres"):
            raise ValueError(f"DATABASE_POOLER={self.database_pooler} is for PostgreSQL; this DATABASE_URL is not")
        if self.realtime_bus == "postgres":
            raise ValueError(f"REALTIME_BUS=postgres (LISTEN/NOTIFY) cannot pass through DATABASE_POOLER="
                             f"{self.database_pooler}: use REALTIME_BUS=redis with REDIS_URL")
        if self.realtime_bus == "auto":
            if not self.redis_url:
                raise ValueError(f"DATABASE_POOLER={self.database_pooler} needs REALTIME_BUS=redis (with REDIS_URL), "
                                 "or memory for one process: LISTEN/NOTIFY cannot pass through a pooler")
            self.realtime_bus = "redis"

    @property
    def password_costs(self) -> tuple[int, int, int]:
        """argon2id's (time cost, memory in KiB, parallelism), for app.auth.use_password_costs."""
        return self.password_time_cost, self.password_memory_kib, self.password_parallelism

    @field_validator("log_format", "log_level", mode="before")
    @classmethod
    def _any_case(cls, value: object) -> object:
        """LOG_LEVEL=info and LOG_FORMAT=JSON mean what they say."""
        if not isinstance(value, str):
            return value
        return value.upper() if value.upper() in ("DEBUG", "INFO", "WARNING", "ERROR") else value.lower()


@lru_cache
def get_settings() -> Settings:
    return Settings()
