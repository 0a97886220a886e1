"""The bot runner: plays the bots' turns as a client of the match service.

It listens to committed changes as the realtime hub does (it is one of the
service's publishers), and when a change leaves a bot to move it asks the bot's
brain (`app.bots.choose`) in a worker process (pool.py), then plays the answer
through the gateway like any seat. Nothing starts a bot from a read or a save, and
a search, which may take seconds, never holds the event loop.

Bot work is a shared resource, so a turn goes, in order:

1. **waits its turn fairly** (fair.py): the search slots (BOT_WORKERS) go round
   the owners (the addresses that made the matches), not first come, first
   served; the quick levels (random, greedy) have a slot of their own;
2. **is dropped if nobody watches**: a match whose person has had no socket and
   has not been seen for BOT_UNWATCHED_SECONDS is not searched; the turn is
   taken up when they are back (a request, a socket) or at a later resume;
3. **is claimed in the database** (app/matches/bot_store.py): one conditional
   UPDATE, so that of all the processes that found the turn exactly one
   searches it; the claim's lease lets another process take the turn over if
   this one dies;
4. **is searched** for at most BOT_MAX_THINK_SECONDS, and played through the gateway.

The time waiting for a slot and the time thinking are told apart (`metered`,
for /metrics). Turns left pending (a process stopped or died, a search was
dropped) are found again at start and every BOT_RESUME_SECONDS after, by one
query that finds them all; matches whose person left end as abandoned.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import os
import random
import secrets
import socket
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from app.config import Settings
from app.db.outage import OutageLog, database_unavailable
from app.kernel.errors import NotFound
from app.matches import Caller, Gateway, MatchService, bot_store
from app.matches.errors import MatchIsOver, NotYourTurn, StaleVersion
from app.matches.record import Record, other

from .fair import FairShare
from .pool import SearchPool

log = logging.getLogger(__name__)
MAX_DROPPED = 10_000  # dropped turns remembered for their person's return
QUICK_LEVELS = frozenset({"random", "greedy"})  # no search: a fraction of a second each
Search = Callable[[str, dict[str, Any], int, float], Awaitable[dict[str, Any]]]


def bot_to_move(rec: Record) -> str | None:
    colour = rec.seat_to_move()
    seat = rec.seats.get(colour) if colour is not None else None
    return colour if seat is not None and seat.bot is not None else None


def _bot_in(match: dict[str, Any]) -> bool:
    """Whether a published public state leaves a bot to move."""
    if match.get("status") != "active":
        return False
    player = (match.get("players") or {}).get(match.get("to_move"))
    return bool(player and player.get("bot"))


def _unheard(*_: Any) -> None:
    return None


class BotRunner:
    def __init__(self, gateway: Gateway, service: MatchService, settings: Settings,
                 outage: OutageLog | None = None, metered: Callable[[str, float, float], None] = _unheard,
                 dropped: Callable[[str], None] = _unheard) -> None:
        self.gateway, self.service = gateway, service
        self.outage = outage if outage is not None else OutageLog()
        self.delay = settings.bot_delay_seconds
        self.think = settings.bot_think_seconds
        self.max_think = settings.bot_max_think_seconds
        self.unwatched_ms = round(settings.bot_unwatched_seconds * 1000)
        self.lease_ms = round(settings.bot_lease_seconds * 1000)
        self.resume_every = settings.bot_resume_seconds
        # Two lanes: searches (`strong`) share BOT_WORKERS slots; the quick levels,
        # a fraction of a second each, one slot of their own, so a greedy bot's
        # answer never waits for a strong search to end. The pool holds both.
        self.share = FairShare(settings.bot_workers)
        self.quick_share = FairShare(1)
        self.pool = SearchPool(settings.bot_workers + 1)
        # Who this runner is in the claims: one per process, and per runner in a test.
        self.name = f"{socket.gethostname()[:32]}:{os.getpid()}:{secrets.token_hex(4)}"
        self._turns: dict[str, asyncio.Task[None]] = {}
        self._dropped: set[str] = set()  # matches whose turn was dropped, unwatched
        self._resumer: asyncio.Task[None] | None = None
        self._rng = random.Random(secrets.randbits(64))
        self._closed = False
        # What searches: a worker process; tests put a stand-in here.
        self.search: Search = self.pool.search
        # Seconds for the metered times (tests put a clock of their own here).
        self.timer: Callable[[], float] = time.perf_counter
        # Told each search's level, seconds waiting for a slot and seconds thinking,
        # and each turn dropped with why (app/ops meters them).
        self.metered, self.dropped = metered, dropped

    # ---- hearing (the service's Publisher; the seats' return) --------------------

    async def publish(self, match_id: str, updates: Sequence[Mapping[str, Any]]) -> None:
        if updates and _bot_in(updates[-1]["match"]):
            self._wake(match_id)

    def seen(self, match_id: str) -> None:
        """A person of the match is here (a request, a socket): a bot's turn
        dropped while nobody watched is taken up again."""
        if match_id in self._dropped:
            self._dropped.discard(match_id)
            self._wake(match_id)

    def _wake(self, match_id: str) -> None:
        if not self._closed and match_id not in self._turns:
            # A context of its own: the turn must not carry the request id (or any
            # other context) of the person's request that happened to wake it.
            self._turns[match_id] = asyncio.get_running_loop().create_task(
                self._play_turns(match_id), context=contextvars.Context())

    # ---- playing --------------------------------------------------------------

    async def _play_turns(self, match_id: str) -> None:
        try:
            owner = await bot_store.owner_of(self.service.engine, match_id) or f"match:{match_id}"
            while await self._play_one(match_id, owner):
                pass
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if database_unavailable(exc):
                self.outage.failed("a bot", exc)  # the next resume finds the turn again
            else:
                log.exception("the bot of match %s failed", match_id)
            with contextlib.suppress(Exception):  # let another process try it at once
                await bot_store.release(self.service.engine, self.name, match_id)
        finally:
            self._turns.pop(match_id, None)

    async def _play_one(self, match_id: str, owner: str) -> bool:
        """One turn of the bot; answers whether to look for another."""
        await asyncio.sleep(self.delay)
        first = await self.service.keeper.get(match_id)
        colour = bot_to_move(first)
        if colour is None:
            return False
        share = self.quick_share if first.seats[colour].bot in QUICK_LEVELS else self.share
        asked = self.timer()
        async with share.slot(owner):
            queued = self.timer() - asked
            rec = await self.service.keeper.get(match_id, fresh=True)  # it may have moved on meanwhile
            colour = bot_to_move(rec)
            if colour is None:
                return False
            if not self._watched(rec, colour):
                if len(self._dropped) >= MAX_DROPPED:  # the resume pass finds them all again anyway
                    self._dropped.clear()
                self._dropped.add(match_id)
                self.dropped("unwatched")
                return False
            now = self.service.keeper.now_ms()
            think = self.think_seconds(rec)
            if not await bot_store.claim(self.service.engine, match_id, rec.version, self.name, now,
                                         now + round(think * 1000) + self.lease_ms):
                self.dropped("claimed_elsewhere")  # another process searches it
                return False
            level = rec.seats[colour].bot
            assert level is not None
            started = self.timer()
            action = await self.search(level, rec.state.to_json(), self._rng.getrandbits(64), think)
            self.metered(level, queued, self.timer() - started)
        # Someone else may have moved on first (a flag, a resignation): then look again.
        with contextlib.suppress(StaleVersion, NotYourTurn, MatchIsOver, NotFound):
            await self.gateway.play(match_id, Caller(bot=colour), action, rec.version)
        return True

    def think_seconds(self, rec: Record) -> float:
        """What the match asks for, never over BOT_MAX_THINK_SECONDS (matches
        made before that bound may ask for more)."""
        return min(float(rec.options.get("bot_think_seconds") or self.think), self.max_think)

    def _watched(self, rec: Record, bot: str) -> bool:
        person = rec.seats.get(other(bot))
        if person is None:
            return True
        now = self.service.keeper.now_ms()
        return person.here(now, self.service.keeper.presence_ttl_ms) or now - person.last_seen_ms <= self.unwatched_ms

    # ---- finding turns left pending ---------------------------------------------

    async def start(self) -> None:
        """Wake the turns left pending (before the server takes requests), then
        look again every `bot_resume_seconds`."""
        await self._resume_logged()
        self._resumer = asyncio.get_running_loop().create_task(self._resume_forever())

    async def resume(self) -> int:
        """End the bot matches their person abandoned, then wake every turn left
        pending; answers how many were woken."""
        await self.service.finisher.end_abandoned_bot_matches()
        watched_since = self.service.keeper.now_ms() - self.unwatched_ms
        woken = 0
        for match_id in await self.service.reads.pending_bot_turns(watched_since):
            if match_id not in self._turns:
                self._dropped.discard(match_id)
                self._wake(match_id)
                woken += 1
        return woken

    async def _resume_logged(self) -> None:
        try:
            await self.resume()
        except Exception as exc:
            if database_unavailable(exc):
                self.outage.failed("the bot runner", exc)
            else:
                log.exception("looking for pending bot turns failed; trying again in %s s", self.resume_every)

    async def _resume_forever(self) -> None:
        while True:
            await asyncio.sleep(self.resume_every)
            await self._resume_logged()

    async def idle(self) -> None:
        """Wait until no bot has a move to make (for tests)."""
        while self._turns:
            await asyncio.gather(*list(self._turns.values()), return_exceptions=True)

    async def close(self) -> None:
        """Stop: no new turns, the pending ones cancelled and their claims given
        up (another process, or this one restarted, takes them up at once), the
        worker processes ended."""
        self._closed = True
        tasks = list(self._turns.values())
        if self._resumer is not None:
            tasks.append(self._resumer)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        try:
            await bot_store.release(self.service.engine, self.name)
        except Exception as exc:  # the lease runs out by itself
            log.warning("giving up the bot claims of %s failed: %s", self.name, type(exc).__name__)
        self.pool.close()
