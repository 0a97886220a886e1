"""The per-address caps on long-lived connections (per_address.py), counted in
Redis over every process, so that one address cannot hold a cap's worth of
sockets on each process behind the front.

Each address's count is a Redis hash, one field per process: what that process
holds of it. A claim is one script run (its round trip awaited before the socket
is admitted): it adds up the fields of the processes still alive, and writes
this process's new count when the sum stays within the cap. A process is alive
while its key (`…:alive:<process>`) exists: it sets it again every third of
SOCKET_CLAIM_SECONDS, so the fields of a process that was killed are ignored
(and dropped) that long after its last renewal, and its places come back.

Each process's count of an address is also kept here in memory (PerAddress),
and what Redis holds for the process is always that count, written after each
change in the order of the changes (one lock per process): a lost write is made
good by the next one, or by the next renewal after Redis was away or restarted
(the whole set written again). Redis away: the cap holds per process, as without
Redis (a guard must never refuse everyone), and each process's claims are
written back when it answers again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from typing import Any

from app.db.outage import OutageLog
from app.kernel.networks import network_of

from .per_address import PerAddress

log = logging.getLogger("magery.realtime")

# How long an address's hash outlives its last write; every process writes its
# whole set again each half of it, so sockets open for days keep their count.
KEEP_SECONDS = 3600

# KEYS[1]: the address's hash. ARGV: this process, the cap, the alive keys'
# prefix, KEEP_SECONDS, this process's count with the new one.
_CLAIM = """
local total = tonumber(ARGV[5])
local fields = redis.call('HGETALL', KEYS[1])
for i = 1, #fields, 2 do
  local holder = fields[i]
  if holder ~= ARGV[1] then
    if redis.call('EXISTS', ARGV[3] .. holder) == 1 then
      total = total + tonumber(fields[i + 1])
    else
      redis.call('HDEL', KEYS[1], holder)
    end
  end
end
if total > tonumber(ARGV[2]) then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[5])
redis.call('EXPIRE', KEYS[1], ARGV[4])
return 1
"""

# KEYS[1]: this process's alive key; ARGV[1]: its life in ms. 1 when it was
# still there (nothing of ours can have been dropped), 0 when it had gone.
_RENEW = """
local was = redis.call('EXISTS', KEYS[1])
redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
return was
"""


class Claims:
    """This process's link to Redis for the held counts: its name, its alive key
    kept renewed, and the counters (`counter(kind, cap)`) that count through it."""

    def __init__(self, redis_url: str, prefix: str = "magery", claim_seconds: float = 30.0,
                 outage: OutageLog | None = None) -> None:
        from redis.asyncio import Redis

        self.prefix, self.claim_seconds = prefix, claim_seconds
        self.outage = outage if outage is not None else OutageLog()
        self.me = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.alive_prefix = f"{prefix}:alive:"
        self.redis = Redis.from_url(redis_url, decode_responses=True, socket_connect_timeout=1.0,
                                    socket_timeout=1.0, client_name=f"{prefix}:claims")
        self._claim = self.redis.register_script(_CLAIM)
        self._renew = self.redis.register_script(_RENEW)
        self.lock = asyncio.Lock()  # this process's writes, one at a time, in order
        self.up = False  # Redis answered the last renewal: claims go through it
        self.counters: list[RedisPerAddress] = []
        self._owed: set[tuple[RedisPerAddress, str]] = set()  # counts Redis may not hold right
        self._writes: set[asyncio.Task[None]] = set()
        self._renewing: asyncio.Task[None] | None = None
        self._whole_set_at = 0.0
        self.renewed = asyncio.Event()  # set after each renewal (tests wait on it)

    def counter(self, kind: str, cap: int) -> PerAddress:
        """A per-address counter with `cap`, held in Redis (a plain one for no cap)."""
        if not cap:
            return PerAddress(cap)
        counter = RedisPerAddress(cap, kind, self)
        self.counters.append(counter)
        return counter

    async def start(self) -> None:
        """Alive before the first claim (else the other processes would drop it)."""
        await self.renew()
        self._renewing = asyncio.create_task(self._renew_forever(), name="claims-renew")

    async def _renew_forever(self) -> None:
        while True:
            await asyncio.sleep(self.claim_seconds / 3)
            await self.renew()

    async def renew(self) -> None:
        try:
            async with self.lock:
                was = await self._renew(keys=[self.alive_prefix + self.me],
                                        args=[max(1, int(self.claim_seconds * 1000))])
                now = time.monotonic()
                if not was or now - self._whole_set_at >= KEEP_SECONDS / 2:
                    # Our key had gone (Redis restarted, or this process paused
                    # that long): our fields may have been dropped. Written again.
                    self._whole_set_at = now
                    self._owed.update((c, net) for c in self.counters for net in c.networks())
                if self._owed:
                    await self._write_owed()
        except Exception as exc:
            self.up = False
            self.outage.failed("the shared socket caps (Redis)", exc)
        else:
            self.up = True
        finally:
            self.renewed.set()

    async def _write_owed(self) -> None:
        owed, self._owed = self._owed, set()
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for counter, net in owed:
                    counter.write(pipe, net)
                await pipe.execute()
        except BaseException:
            self._owed |= owed
            raise

    def write_later(self, counter: RedisPerAddress, net: str) -> None:
        """Redis told this process's count of `net`, after the writes before it."""
        self.owe(counter, net)
        if not self.up:
            return  # written by the renewal that finds Redis back
        task = asyncio.get_running_loop().create_task(self._write_now())
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    async def _write_now(self) -> None:
        try:
            async with self.lock:
                if self._owed:
                    await self._write_owed()
        except Exception as exc:
            self.up = False
            self.outage.failed("the shared socket caps (Redis)", exc)

    async def claim(self, counter: RedisPerAddress, net: str, count: int) -> bool:
        answer = await self._claim(keys=[counter.key(net)],
                                   args=[self.me, counter.cap, self.alive_prefix, KEEP_SECONDS, count])
        return bool(answer)

    async def settled(self) -> None:
        """Every count given back so far written to Redis (or owed, Redis away)."""
        while self._writes:
            await asyncio.wait(set(self._writes))

    def owe(self, counter: RedisPerAddress, net: str) -> None:
        self._owed.add((counter, net))

    async def close(self) -> None:
        """Our fields and our key gone: this process's places are free at once."""
        if self._renewing is not None:
            self._renewing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._renewing
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(2):
                await self.settled()
        with contextlib.suppress(Exception):
            async with self.redis.pipeline(transaction=False) as pipe:
                for counter in self.counters:
                    for net in counter.networks():
                        pipe.hdel(counter.key(net), self.me)
                pipe.delete(self.alive_prefix + self.me)
                await pipe.execute()
        with contextlib.suppress(Exception):
            await self.redis.aclose()


class RedisPerAddress(PerAddress):
    """A PerAddress whose cap holds over every process (see the module's docstring)."""

    def __init__(self, cap: int, kind: str, claims: Claims) -> None:
        super().__init__(cap)
        self.kind, self.claims = kind, claims

    def key(self, net: str) -> str:
        return f"{self.claims.prefix}:held:{self.kind}:{net}"

    def networks(self) -> list[str]:
        return list(self._held)

    def write(self, pipe: Any, net: str) -> None:
        held = self._held.get(net, 0)
        if held:
            pipe.hset(self.key(net), self.claims.me, held)
            pipe.expire(self.key(net), KEEP_SECONDS)
        else:
            pipe.hdel(self.key(net), self.claims.me)

    async def claim(self, address: str) -> bool:
        net = network_of(address)
        if self._held.get(net, 0) >= self.cap:
            return False  # full here already: no need to ask
        claims = self.claims
        if not claims.up:  # Redis away: this process's own count, as without Redis
            taken = self.take(address)
            if taken:
                claims.write_later(self, net)
            return taken
        async with claims.lock:
            try:
                if not await claims.claim(self, net, self._held.get(net, 0) + 1):
                    return False
            except Exception as exc:
                claims.up = False
                claims.outage.failed("the shared socket caps (Redis)", exc)
                claims.owe(self, net)
            return self.take(address)

    def give_back(self, address: str) -> None:
        super().give_back(address)
        self.claims.write_later(self, network_of(address))
