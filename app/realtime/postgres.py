"""The bus across processes: Postgres LISTEN/NOTIFY, no extra server to run.

NOTIFY goes out from one dedicated connection *after* the action's transaction
has committed, never inside it: a NOTIFY in a transaction takes a database-wide
lock at commit, which serialises every writer. Whatever piled up while the last
NOTIFY was in flight leaves in one batch (one `pg_notify` per ~8 KB of payload).
Each process LISTENs on one more dedicated connection. When that link is lost the
bus reconnects (with backoff) and tells the hub, which brings every socket up to
date from the database: an announcement missed in between is never needed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable

import asyncpg

from app.db.outage import OutageLog

from .bus import Message, decode

log = logging.getLogger("magery.realtime")

CHANNEL = "magery_online"
MAX_PAYLOAD = 7900  # Postgres refuses NOTIFY payloads of 8000 bytes or more.
MAX_PENDING = 10_000  # announcements held while NOTIFY cannot be sent
# The least time between two NOTIFYs of one process. Each NOTIFY is a transaction
# that wakes every listening backend and process (about half a millisecond of CPU
# in all with three listeners here), so under load the announcements of up to
# this long share one; when it is quiet, an announcement leaves at once.
NOTIFY_INTERVAL = 0.01


def asyncpg_dsn(database_url: str) -> str:
    """`postgresql+asyncpg://…` (SQLAlchemy's form) as asyncpg wants it."""
    scheme, sep, rest = database_url.partition("://")
    return "postgresql" + sep + rest if scheme.startswith("postgres") else database_url


LISTENER_NAME = "magery listen"


class PostgresBus:
    def __init__(self, database_url: str, *, check_seconds: float = 5.0, outage: OutageLog | None = None) -> None:
        self._dsn = asyncpg_dsn(database_url)
        self.outage = outage if outage is not None else OutageLog()
        self._check_seconds = check_seconds
        self._pending: deque[str] = deque()  # oldest first; dropped from the front when full
        self._wake = asyncio.Event()
        self._listen: asyncpg.Connection | None = None
        self._notify: asyncpg.Connection | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._lost = asyncio.Event()
        self._on_message: Callable[[Message], None] = lambda m: None
        self._on_reconnect: Callable[..., None] = lambda: None
        self.reconnects = 0
        self.pause: Callable[[float], Awaitable[None]] = asyncio.sleep  # a retry's backoff (tests record it)

    async def start(self, on_message: Callable[[Message], None],
                    on_reconnect: Callable[..., None]) -> None:
        self._on_message, self._on_reconnect = on_message, on_reconnect
        await self._connect_listener()
        self._notify = await self._connect_notifier()
        self._tasks = [asyncio.create_task(self._send_loop(), name="bus-notify"),
                       asyncio.create_task(self._watch_loop(), name="bus-listen")]

    def send(self, message: Message) -> None:
        if len(self._pending) >= MAX_PENDING:
            # The database is away: drop the oldest; every process catches up
            # from the log when its link comes back (on_reconnect).
            self._pending.popleft()
        self._pending.append(message.encode())
        self._wake.set()

    def follow(self, match_id: str) -> None:
        """Every process LISTENs to every match: nothing to choose."""

    def unfollow(self, match_id: str) -> None:
        """Every process LISTENs to every match: nothing to choose."""

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        if self._tasks:  # bounded all the same: shutting down must not hang on the bus
            await asyncio.wait(self._tasks, timeout=self._check_seconds)
        if self._pending and self._notify is not None and not self._notify.is_closed():
            with contextlib.suppress(Exception):
                while self._pending:
                    await self._flush()
        for conn in (self._listen, self._notify):
            if conn is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(conn.close(), 2)

    # -- LISTEN -------------------------------------------------------------------

    async def _connect_listener(self) -> None:
        # Named, so operators (and tests) can tell it in pg_stat_activity: its last
        # query is most often the link check, not the LISTEN.
        conn = await asyncpg.connect(self._dsn, server_settings={"application_name": LISTENER_NAME})
        conn.add_termination_listener(lambda _c: self._lost.set())
        await conn.add_listener(CHANNEL, self._heard)
        self._listen = conn
        self._lost.clear()

    def _heard(self, _conn: object, _pid: int, _channel: str, payload: str) -> None:
        for line in payload.split("\n"):
            message = decode(line)
            if message is not None:
                self._on_message(message)

    async def _watch_loop(self) -> None:
        delay = 0.1
        while True:
            # asyncio.timeout, not wait_for, here and below: on Python 3.11 wait_for
            # can swallow a cancel, and close() would wait for this loop in vain.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self._check_seconds):
                    await self._lost.wait()
            if not self._lost.is_set():
                try:  # a half-open TCP link sends no termination: ask.
                    assert self._listen is not None
                    async with asyncio.timeout(self._check_seconds):
                        await self._listen.fetchval("SELECT 1")
                    continue
                except Exception:
                    self._lost.set()
            log.info("realtime: LISTEN connection lost; reconnecting")
            if self._listen is not None:
                self._listen.terminate()
            while True:
                try:
                    await self._connect_listener()
                    break
                except Exception as exc:  # the database may be restarting: counted, not logged
                    self.outage.failed("realtime LISTEN", exc)
                    await self.pause(delay)
                    delay = min(delay * 2, 5.0)
            delay = 0.1
            self.reconnects += 1
            self._on_reconnect()

    # -- NOTIFY -------------------------------------------------------------------

    async def _connect_notifier(self) -> asyncpg.Connection:
        # A NOTIFY is a transaction of its own, and a commit waits for its WAL
        # to reach the disk. An announcement needs no such wait: it is never the
        # truth (the action it names committed durably before it was sent, and a
        # process that misses one catches up from the log), so this connection
        # commits without waiting for the flush. Delivery is unchanged: Postgres
        # sends notifications at commit either way.
        return await asyncpg.connect(self._dsn, server_settings={"synchronous_commit": "off"})

    async def _send_loop(self) -> None:
        loop = asyncio.get_running_loop()
        last = -NOTIFY_INTERVAL
        backoff = 0.1
        while True:
            await self._wake.wait()
            early = last + NOTIFY_INTERVAL - loop.time()
            if early > 0:
                await asyncio.sleep(early)
            self._wake.clear()
            last = loop.time()
            try:
                await self._flush()
                backoff = 0.1
            except Exception as exc:
                # Counted by the outage log (one line when it starts, one when it
                # ends), and tried again less and less often while it lasts.
                self.outage.failed("realtime NOTIFY", exc)
                await self.pause(backoff)
                backoff = min(backoff * 2, 5.0)
                with contextlib.suppress(Exception):
                    if self._notify is not None:
                        self._notify.terminate()
                    self._notify = await self._connect_notifier()
                self._wake.set()  # what failed is still pending

    async def _flush(self) -> None:
        """Send what is pending now (in as many NOTIFYs as its size needs); what
        arrives meanwhile waits for the next turn of the send loop."""
        count = len(self._pending)
        while count > 0 and self._pending:
            batch: list[str] = []
            size = 0
            # Out of the queue before the await: `send` may drop the oldest meanwhile
            # (MAX_PENDING), and what it drops must not be what this sends.
            while count > 0 and self._pending:
                line = self._pending[0]
                if batch and size + len(line) + 1 > MAX_PAYLOAD:
                    break
                batch.append(self._pending.popleft())
                size += len(line) + 1
                count -= 1
            assert self._notify is not None
            try:
                # Bounded: a half-open link would otherwise hold every announcement
                # until TCP gives up; the send loop reconnects instead. (Not wait_for:
                # on Python 3.11 it can swallow a cancel that meets a finished NOTIFY,
                # and close() would then wait for the send loop for ever.)
                async with asyncio.timeout(self._check_seconds):
                    await self._notify.execute("SELECT pg_notify($1, $2)", CHANNEL, "\n".join(batch))
            except BaseException:
                self._pending.extendleft(reversed(batch))  # still to send, oldest first
                raise
