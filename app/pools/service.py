"""Pools: join, wait, leave, and the pairing that every waiting request drives.

A player's press puts them in a pool (a row, app/pools/store.py) and tries to
pair that pool at once, so the second player of a pair is answered with the
match by their own press. Whoever waits holds a request (`wait`) that renews
their place, tries their pools again every `pool_tick_seconds` (the range of
ratings widens as they wait) and is woken at once by the nudge `pool:<player>`
when another process paired them. The database decides: a pairing claims both
players in the transaction that makes the match (store.claim), so however
many processes pair at once, each player lands in one match. One client
cannot fill the pools: the places of one address, and of one account, are
capped (store.Caps), and two places of one address are never paired.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.accounts import playban
from app.accounts.bots import is_bot
from app.config import Settings
from app.kernel.moments import moment
from app.kernel.origins import Origins
from app.kernel.text import check as check_text
from app.matches import Gateway, hash_token
from app.matches.pairing import Paired, Player
from app.matches.seats import new_seat_token
from app.ratings import NEW
from app.realtime.nudges import Nudges

from . import store
from .catalogue import POOLS, Pool
from .computer import gap, nearest_level
from .errors import NoSuchPool, NoTicket, NotWaiting
from .rules import Range, Waiter, pairs
from .seat_key import new_place, seat_token

log = logging.getLogger(__name__)
TICKET = re.compile(r"^[A-Za-z0-9_-]{43}$")  # the shape of a ticket this server hands out
SWEEP_MS = 30_000  # how often a process clears rows of nobody


@dataclass(frozen=True, slots=True)
class Who:
    """Who presses: an account (id and name), or a guest by its ticket (None:
    a guest who has none yet, given one by its first join)."""

    account_id: int | None = None
    account: str | None = None
    ticket: str | None = None

    @property
    def player(self) -> str:
        if self.account_id is not None:
            return f"account:{self.account_id}"
        if self.ticket is None:
            raise NoTicket("waiting needs the ticket your first join gave you (Authorization: Bearer <ticket>), "
                           "or an account")
        return "guest:" + hashlib.sha256(f"pool:{self.ticket}".encode()).hexdigest()[:40]


@dataclass(slots=True)
class Answer:
    """Where a player stands: waiting (in `pools`, for `waited_seconds`, with the
    computer offered once long enough) or paired (`match`: id, seat, and a
    guest's seat token)."""

    status: str
    pools: list[str] = field(default_factory=list)
    waited_seconds: float = 0.0
    computer: dict[str, Any] | None = None
    match: dict[str, Any] | None = None
    rating_range: dict[str, int] | None = None  # an account waiting: whom it may be paired with now
    ticket: str | None = None
    lease_left_ms: int = 0  # how long the shortest of the places still runs (not sent)

    def public(self) -> dict[str, Any]:
        body: dict[str, Any] = {"status": self.status, "pools": self.pools,
                                "waited_seconds": round(self.waited_seconds, 1), "computer": self.computer,
                                "match": self.match, "rating_range": self.rating_range}
        if self.ticket is not None:
            body["ticket"] = self.ticket
        return body


Gone = Callable[[], Awaitable[bool]]


class Pools:
    def __init__(self, engine: AsyncEngine, gateway: Gateway, nudges: Nudges, settings: Settings,
                 bot_levels: Sequence[str]) -> None:
        self.engine, self.gateway, self.nudges, self.settings = engine, gateway, nudges, settings
        self.origins = Origins(engine)  # a place's address, folded: counted, never paired with its like
        self.levels = tuple(bot_levels)
        self.range = Range(settings.pool_range_start, settings.pool_range_per_second, settings.pool_range_most)
        self.clock: Callable[[], float] = time.time  # seconds since the epoch; tests move it
        self._swept_ms = 0
        self._tried_ms: dict[str, int] = {}  # when this process last tried each pool from a wait

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    @property
    def lease_ms(self) -> int:
        return round(self.settings.pool_lease_seconds * 1000)

    @property
    def caps(self) -> store.Caps:
        return store.Caps(self.settings.pool_places_per_address, self.settings.pool_places_per_account,
                          max(1, math.ceil(self.settings.pool_lease_seconds)))

    # ---- what a player does ------------------------------------------------------

    async def join(self, pool_id: str, who: Who, name: str = "anonymous", bots: bool = False,
                   address: str | None = None) -> Answer:
        """Wait in the pool (several pools at once is fine, up to the caps), and
        pair it now. `bots`: willing to be paired with a bot account (a program);
        `address`: the client's, whose places are counted and never paired together."""
        pool = find(pool_id)
        ticket = None
        if who.account_id is None and who.ticket is None:
            ticket = new_seat_token()
            who = Who(ticket=ticket)
        elif who.account_id is None and not TICKET.match(who.ticket or ""):
            raise NoTicket("that is not a pool ticket: join with none to be given one")
        name = who.account or name
        check_text("name", name, line_breaks=False)
        now = self.now_ms()
        await self._sweep(now)
        rating = None
        if who.account_id is not None:
            # An account is paired rated: one waiting after leaving rated matches waits outside.
            await playban.check(self.engine, who.account_id, moment(now))
            rating = await store.rating_in(self.engine, who.account_id, pool.variant) or NEW.rating
        bot = who.account_id is not None and await is_bot(self.engine, who.account_id)
        origin = await self.origins.of(address)
        seeker = store.Seeker(who.player, name, who.account_id, None, bot=bot, bots=bots, origin=origin)
        if who.account_id is None and who.ticket is not None:
            seeker = store.Seeker(who.player, name, None, hash_token(who.ticket), *new_place(who.ticket),
                                  origin=origin)
        await store.join(self.engine, pool.id, seeker, rating, now, self.lease_ms,
                         round(self.settings.pool_again_seconds * 1000), self.caps)
        await self.pair(pool.id)
        answer = await self._answer(who, self.now_ms())
        answer.ticket = ticket
        return answer

    async def wait(self, who: Who, timeout: float, gone: Gone | None = None) -> Answer:
        """Held until the player is paired, or `timeout` seconds (then: still
        waiting), or `gone` says the client left. Renews the player's places."""
        player = who.player
        loop = asyncio.get_running_loop()
        deadline = loop.time() + max(0.0, timeout)
        offered_before: bool | None = None
        recheck = self.settings.pool_lease_seconds / 3  # reads of one's own places, nudged or not
        with self.nudges.listen(f"pool:{player}") as bell:
            read = True
            while True:
                now = self.now_ms()
                if read:
                    answer, read_at = await self._answer(who, now), loop.time()
                    if answer.status == "paired":
                        return answer
                    if not answer.pools:
                        await self._known(who)
                        raise NotWaiting("you wait in no pool: join one first")
                    offered = answer.computer is not None
                    if offered_before is False and offered:
                        return answer  # the offer is new: shown at once
                    offered_before = offered
                    if answer.lease_left_ms <= self.lease_ms // 2:  # written about twice a lease
                        await store.renew(self.engine, player, now + self.lease_ms)
                made = 0
                for pool_id in answer.pools:
                    made += await self._try(pool_id, now)
                left = deadline - loop.time()
                if not made and (left <= 0 or (gone is not None and await gone())):
                    return answer
                rung = made > 0 or await bell.wait(min(self.settings.pool_tick_seconds, max(left, 0.0)))
                since = loop.time() - read_at
                due = not offered_before and answer.waited_seconds + since >= self.settings.pool_offer_seconds
                read = rung or due or since >= recheck or loop.time() >= deadline

    async def leave(self, who: Who, pool_id: str | None = None) -> Answer:
        """Leave `pool_id` (None: every pool). A pairing made already stands."""
        if pool_id is not None:
            find(pool_id)
        await self._known(who)
        await store.leave(self.engine, who.player, pool_id)
        return await self._answer(who, self.now_ms())

    async def _known(self, who: Who) -> None:
        """A guest's ticket this server handed out (its rows are kept a while
        after its places run out); any other is refused as no credential."""
        if who.account_id is None and not await store.rows_of(self.engine, who.player):
            raise NoTicket("this ticket is unknown here: join a pool to be given one")

    async def counts(self) -> dict[str, int]:
        return await store.counts(self.engine, self.now_ms())

    # ---- pairing -------------------------------------------------------------------

    async def pair(self, pool_id: str) -> int:
        """Make every pair the rules allow in the pool now; answers how many this
        process made (another process may have made some of them first)."""
        pool = POOLS[pool_id]
        now = self.now_ms()
        rows = {r.player: r for r in await store.waiting(self.engine, pool_id, now, pool.realtime)}
        if len(rows) < 2:
            return 0
        waiters = [Waiter(r.player, r.rating if r.account_id is not None else None, r.joined_ms, r.last_opponent,
                          r.bot, r.bots, r.origin) for r in rows.values()]
        made = 0
        for a, b in pairs(waiters, now, self.range):
            if await self._make(pool, rows[a.player], rows[b.player]):
                made += 1
        return made

    async def _try(self, pool_id: str, now: int) -> int:
        """A wait's try of its pool: once a tick per pool and process, however many
        wait there (a join always tries at once; this is for the widening range)."""
        tick_ms = round(self.settings.pool_tick_seconds * 1000)
        if now - self._tried_ms.get(pool_id, -tick_ms) < tick_ms * 0.9:
            return 0
        self._tried_ms[pool_id] = now
        return await self.pair(pool_id)

    async def _make(self, pool: Pool, a: Any, b: Any) -> bool:
        players = (Player(a.name, a.account_id, a.name if a.account_id is not None else None, a.seat_token_hash),
                   Player(b.name, b.account_id, b.name if b.account_id is not None else None, b.seat_token_hash))
        rated = a.account_id is not None and b.account_id is not None

        async def claim(conn: AsyncConnection, paired: Paired) -> None:
            await store.claim(conn, pool.id, (a.player, b.player), paired.match_id, paired.colours,
                              self.now_ms(), pool.realtime)

        try:
            await self.gateway.pair(pool.options(), players, rated, claim)
        except store.Lost:
            return False  # another process paired one of them first
        for player in (a.player, b.player):
            self.nudges.nudge(f"pool:{player}")
        return True

    # ---- reading where a player stands ------------------------------------------------

    async def _answer(self, who: Who, now: int) -> Answer:
        rows = await store.rows_of(self.engine, who.player)
        paired = [r for r in rows if r.match_id is not None]
        if paired:
            last = max(paired, key=lambda r: r.paired_ms)
            token = None  # an account plays by its account
            if last.seat_nonce is not None and who.ticket is not None:
                token = seat_token(who.ticket, last.seat_nonce)  # made again from the guest's ticket
            return Answer("paired", [last.pool], 0.0, None,
                          {"id": last.match_id, "seat": last.colour, "token": token})
        places = [r for r in rows if r.lease_until_ms >= now]
        if not places:
            return Answer("waiting")
        first = min(places, key=lambda r: r.joined_ms)
        waited = (now - first.joined_ms) / 1000
        offer = None
        if waited >= self.settings.pool_offer_seconds and self.levels:
            offer = await self._offer(places)
        answer = Answer("waiting", [r.pool for r in places], waited, offer)
        answer.lease_left_ms = min(r.lease_until_ms for r in places) - now
        rated = [r for r in places if r.rating is not None]
        if rated:  # a guest plays guests, with no range; an account is told why it still waits
            longest = min(rated, key=lambda r: r.joined_ms)  # as rules.pairs reaches: from its own wait
            answer.rating_range = {"rating": round(longest.rating), "within": round(self.range.after(now - longest.joined_ms)),
                                   "most": round(self.range.most)}
        return answer

    async def _offer(self, places: list[Any]) -> dict[str, Any]:
        """The computer, in the pool of `places` whose nearest level is nearest the
        player's rating there, the longest waited first among equals (computer.py)."""
        levels_in: dict[str, dict[str, float | None]] = {}
        best: tuple[tuple[float, int], Pool, str, Any] | None = None
        for place in places:
            pool = POOLS[place.pool]
            if pool.variant not in levels_in:
                levels_in[pool.variant] = await store.computer_ratings(self.engine, self.levels, pool.variant)
            level = nearest_level(self.levels, levels_in[pool.variant], place.rating)
            key = (gap(levels_in[pool.variant], level, place.rating), place.joined_ms)
            if best is None or key < best[0]:
                best = (key, pool, level, place)
        assert best is not None  # `places` is never empty here
        _, pool, level, place = best
        return {"level": level, "opponent": f"bot:{level}", "pool": pool.id, "options": pool.options(),
                "rated": place.account_id is not None}

    async def _sweep(self, now: int) -> None:
        if now - self._swept_ms < SWEEP_MS:
            return
        self._swept_ms = now
        try:
            await store.sweep(self.engine, now, self.lease_ms)
        except Exception:  # a sweep is housekeeping: another process's may have been in its way
            log.warning("sweeping the pools failed; the next one will", exc_info=True)


def find(pool_id: str) -> Pool:
    pool = POOLS.get(pool_id)
    if pool is None:
        raise NoSuchPool(f"no pool {pool_id!r}: GET /api/v1/pools lists them")
    return pool
