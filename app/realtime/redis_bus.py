"""The bus across processes through Redis pub/sub, in lanes.

A match's announcements and presence go on one of `LANES` channels, chosen by
its id; a process subscribes only to the lanes of the matches it follows (a
room of sockets open here, or a page waiting on the match: `follow`), so a
process that holds none of a lane's matches is not sent its traffic. Nudges
(person channels, chat, pools…) go on one site channel that every process hears.

Redis is never the truth. A message lost (Redis restarted, the link cut, a lane
subscribed a moment after a room read the database) costs a fetch, never a
move: when a lane's subscription is confirmed, its followed matches catch up
from the database (`on_reconnect(match_ids)`), and when the link itself comes
back, every room and waiter does (`on_reconnect()`). `send` only queues; one
task publishes what piled up, a PUBLISH per channel, and retries with backoff
while Redis is away (the oldest dropped past MAX_PENDING: the catch-up covers them).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import zlib
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from redis.asyncio import Redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from app.db.outage import OutageLog

from .bus import Message, Nudge, decode

log = logging.getLogger("magery.realtime")

# Lanes, fixed: every process must cut them alike, so changing this means
# restarting every process together. 64 rather than lila-ws's 16: a subscription
# costs Redis one dictionary entry and a process nothing, so more lanes only
# sharpen the filter; with M matches held, a process hears about
# 1 - (1 - 1/LANES)**M of the traffic: 14% of it for 10 matches (46% with 16
# lanes), and all of it past a few hundred matches, where only a front that
# sends each match's sockets to one process by lane would narrow it further.
LANES = 64
MAX_PENDING = 10_000  # messages held while Redis cannot be reached
MAX_PAYLOAD = 32_768  # one PUBLISH carries the lines of one channel up to about this size


def lane_of(match_id: str) -> int:
    """The match's lane: the same in every process (not Python's salted hash)."""
    return zlib.crc32(match_id.encode()) % LANES


def _no_retry() -> Retry:
    """redis-py's own retries would reconnect behind our back, re-subscribe and
    never say so: a link lost must reach us, so that the rooms catch up."""
    return Retry(NoBackoff(), 0)


class RedisBus:
    def __init__(self, url: str, *, prefix: str = "magery", check_seconds: float = 5.0,
                 outage: OutageLog | None = None) -> None:
        self.url, self.prefix, self._check_seconds = url, prefix, check_seconds
        self.outage = outage if outage is not None else OutageLog()
        self.site = f"{prefix}:site"
        self._pending: deque[tuple[str, str]] = deque()  # (channel, line), oldest first
        self._wake = asyncio.Event()
        self._followed: dict[str, int] = {}  # match id -> how many follow it here
        self._by_lane: dict[int, set[str]] = {}  # lane -> the followed matches in it
        self._lanes_changed = asyncio.Event()
        self.subscribed: set[str] = set()  # channels Redis confirmed on the live link
        self._asked: set[str] = set()  # channels asked for on the live link
        self._settling: set[str] = set()  # asked at connect, not yet confirmed
        self._returning = False  # the link came back: say so once it is settled
        self._on_message: Callable[[Message], None] = lambda m: None
        self._on_reconnect: Callable[..., None] = lambda *a: None
        self._listener: Redis | None = None
        self._pubsub: Any = None
        self._publisher: Redis | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._heard_at = 0.0
        self.reconnects = 0
        self.pause: Callable[[float], Awaitable[None]] = asyncio.sleep  # a retry's backoff (tests record it)

    # -- what the hub sees ----------------------------------------------------------

    def lane(self, match_id: str) -> str:
        return f"{self.prefix}:lane:{lane_of(match_id)}"

    async def start(self, on_message: Callable[[Message], None], on_reconnect: Callable[..., None]) -> None:
        self._on_message, self._on_reconnect = on_message, on_reconnect
        self._publisher = self._client("publish")
        await self._connect()  # refused at start when Redis is not there: said at once
        self._tasks = [asyncio.create_task(self._listen_loop(), name="bus-redis-listen"),
                       asyncio.create_task(self._send_loop(), name="bus-redis-publish")]

    def send(self, message: Message) -> None:
        channel = self.site if isinstance(message, Nudge) else self.lane(message.match_id)
        if len(self._pending) >= MAX_PENDING:
            self._pending.popleft()  # Redis is away: every process catches up when it is back
        self._pending.append((channel, message.encode()))
        self._wake.set()

    def follow(self, match_id: str) -> None:
        """Hear this match's announcements and presence (until as many `unfollow`)."""
        held = self._followed.get(match_id, 0)
        self._followed[match_id] = held + 1
        if not held:
            self._by_lane.setdefault(lane_of(match_id), set()).add(match_id)
            self._lanes_changed.set()

    def unfollow(self, match_id: str) -> None:
        held = self._followed.get(match_id, 0) - 1
        if held > 0:
            self._followed[match_id] = held
            return
        self._followed.pop(match_id, None)
        lane = lane_of(match_id)
        matches = self._by_lane.get(lane)
        if matches is not None:
            matches.discard(match_id)
            if not matches:
                del self._by_lane[lane]
                self._lanes_changed.set()

    def wanted(self) -> set[str]:
        """The channels this process should hear now."""
        return {self.site, *(f"{self.prefix}:lane:{lane}" for lane in self._by_lane)}

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=self._check_seconds)
        if self._pending and self._publisher is not None:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(self._check_seconds):
                    while self._pending:
                        await self._flush()
        await self._drop_link()
        if self._publisher is not None:
            with contextlib.suppress(Exception):
                await self._publisher.aclose()

    # -- listening ----------------------------------------------------------------

    def _client(self, role: str) -> Redis:
        # Named, so operators (and tests) can tell the bus's links in CLIENT LIST.
        return Redis.from_url(self.url, retry=_no_retry(), decode_responses=True, client_name=f"{self.prefix}:{role}",
                              socket_connect_timeout=self._check_seconds, socket_keepalive=True)

    async def _connect(self) -> None:
        self._listener = self._client("listen")
        self._pubsub = self._listener.pubsub()
        self.subscribed, self._asked = set(), self.wanted()
        self._settling = set(self._asked)
        self._lanes_changed.clear()
        async with asyncio.timeout(self._check_seconds):
            await self._pubsub.subscribe(*sorted(self._asked))
        self._heard_at = asyncio.get_running_loop().time()

    async def _drop_link(self) -> None:
        pubsub, listener = self._pubsub, self._listener
        self._pubsub = self._listener = None
        self.subscribed, self._asked = set(), set()
        for closing in (pubsub, listener):
            if closing is not None:
                with contextlib.suppress(Exception):
                    async with asyncio.timeout(2):
                        await closing.aclose()

    async def _listen_loop(self) -> None:
        delay = 0.1
        while True:
            try:
                await self._hear_until_lost()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.outage.failed("realtime Redis", exc)
            log.info("realtime: Redis link lost; reconnecting")
            await self._drop_link()
            while True:
                try:
                    self._returning = True
                    await self._connect()
                    break
                except Exception as exc:  # Redis may be restarting: counted, not logged
                    self.outage.failed("realtime Redis", exc)
                    await self._drop_link()
                    await self.pause(delay)
                    delay = min(delay * 2, 5.0)
            delay = 0.1
            self.reconnects += 1

    async def _hear_until_lost(self) -> None:
        """Read the link, keep its subscriptions to what is followed, and ask it
        for a PONG when quiet: a half-open link answers nothing, and is dropped."""
        reader = asyncio.create_task(self._read(), name="bus-redis-read")
        keeper = asyncio.create_task(self._keep_lanes(), name="bus-redis-lanes")
        loop = asyncio.get_running_loop()
        try:
            while not reader.done() and not keeper.done():
                await asyncio.wait((reader, keeper), timeout=self._check_seconds,
                                   return_when=asyncio.FIRST_COMPLETED)
                quiet = loop.time() - self._heard_at
                if quiet >= 2 * self._check_seconds:
                    raise ConnectionError(f"Redis said nothing for {quiet:.1f} s")
                if quiet >= self._check_seconds and self._pubsub is not None:
                    async with asyncio.timeout(self._check_seconds):
                        await self._pubsub.ping()
            for task in (reader, keeper):
                if task.done():
                    task.result()  # its error, if it ended with one
        finally:
            for task in (reader, keeper):
                task.cancel()
            await asyncio.wait((reader, keeper), timeout=self._check_seconds)

    async def _read(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            message = await self._pubsub.get_message(timeout=None)
            self._heard_at = loop.time()
            if message is not None:
                self._heard(message)

    def _heard(self, message: dict[str, Any]) -> None:
        kind, channel = message.get("type"), str(message.get("channel"))
        if kind == "message":
            for line in str(message["data"]).split("\n"):
                decoded = decode(line)
                if decoded is not None:
                    self._on_message(decoded)
        elif kind == "subscribe":
            self.subscribed.add(channel)
            if channel in self._settling:
                self._settling.discard(channel)
                if not self._settling and self._returning:
                    self._returning = False
                    self._on_reconnect()  # everything may have been missed
            elif channel != self.site:
                lane = int(channel.rsplit(":", 1)[1])
                followed = self._by_lane.get(lane)
                if followed:  # heard from now on: what landed before is in the database
                    self._on_reconnect(sorted(followed))
        elif kind == "unsubscribe":
            self.subscribed.discard(channel)

    async def _keep_lanes(self) -> None:
        while True:
            await self._lanes_changed.wait()
            self._lanes_changed.clear()
            wanted = self.wanted()
            more, fewer = wanted - self._asked, self._asked - wanted
            self._asked = wanted
            async with asyncio.timeout(self._check_seconds):
                if more:
                    await self._pubsub.subscribe(*sorted(more))
                if fewer:
                    await self._pubsub.unsubscribe(*sorted(fewer))

    # -- publishing -----------------------------------------------------------------

    async def _send_loop(self) -> None:
        backoff = 0.1
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                await self._flush()
                backoff = 0.1
            except Exception as exc:
                self.outage.failed("realtime PUBLISH", exc)
                await self.pause(backoff)
                backoff = min(backoff * 2, 5.0)
                with contextlib.suppress(Exception):
                    if self._publisher is not None:
                        await self._publisher.aclose()
                self._publisher = self._client("publish")
                self._wake.set()  # what failed is still pending

    async def _flush(self) -> None:
        """Publish what is pending now: one PUBLISH per channel (and per ~32 KB),
        all in one round trip. What arrives meanwhile waits for the next turn."""
        batch: list[tuple[str, str]] = []
        while self._pending:
            batch.append(self._pending.popleft())
        if not batch:
            return
        payloads: dict[str, list[list[str]]] = {}
        sizes: dict[str, int] = {}
        for channel, line in batch:
            parts = payloads.setdefault(channel, [[]])
            if parts[-1] and sizes.get(channel, 0) + len(line) > MAX_PAYLOAD:
                parts.append([])
                sizes[channel] = 0
            parts[-1].append(line)
            sizes[channel] = sizes.get(channel, 0) + len(line) + 1
        assert self._publisher is not None
        publishes = [(channel, "\n".join(lines)) for channel, parts in payloads.items() for lines in parts]
        try:
            async with asyncio.timeout(self._check_seconds):
                if len(publishes) == 1:  # the common case: no pipeline to build
                    await self._publisher.publish(*publishes[0])
                else:
                    async with self._publisher.pipeline(transaction=False) as pipe:
                        for channel, payload in publishes:
                            pipe.publish(channel, payload)
                        await pipe.execute()
        except BaseException:
            self._pending.extendleft(reversed(batch))  # still to send, oldest first
            raise
