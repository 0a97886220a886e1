"""The bot runner: plays the bots' turns as a client of the match service.

It listens to committed changes as the realtime hub does (it is one of the
service's publishers), and when a change leaves a bot to move it asks the bot's
brain (`app.bots.choose`) in a worker process, then plays the answer through the
door like any seat. Nothing starts a bot from a read or a save, and a search,
which may take seconds, never holds the event loop.

A turn left pending by a process that stopped is found again: at start, and
every `bot_resume_seconds` after, the runner looks for running matches with a
bot to move. Several processes may find the same turn; the version check lets
exactly one action land, and the others see it as stale and stop.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import multiprocessing
import random
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from app.config import Settings
from app.db.outage import database_unavailable, outage
from app.matches import Caller, Door, MatchService
from app.matches.errors import MatchIsOver, NotFound, NotYourTurn, StaleVersion
from app.matches.record import Record

from . import choose

log = logging.getLogger(__name__)


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


def _unheard(level: str, seconds: float) -> None:
    return None


class BotRunner:
    def __init__(self, door: Door, service: MatchService, settings: Settings) -> None:
        self.door, self.service = door, service
        self.delay = settings.bot_delay_seconds
        self.think = settings.bot_think_seconds
        self.workers = settings.bot_workers
        self.resume_every = settings.bot_resume_seconds
        self._turns: dict[str, asyncio.Task[None]] = {}
        self._pool: ProcessPoolExecutor | None = None
        self._resumer: asyncio.Task[None] | None = None
        self._rng = random.Random(secrets.randbits(64))
        self._closed = False
        # Told each search's level and seconds (app/ops meters them).
        self.thought: Callable[[str, float], None] = _unheard

    # ---- hearing (the service's Publisher) ---------------------------------------

    async def publish(self, match_id: str, updates: list[dict[str, Any]]) -> None:
        if updates and _bot_in(updates[-1]["match"]):
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
            while True:
                await asyncio.sleep(self.delay)
                rec = await self.service.cycle.get(match_id)
                colour = bot_to_move(rec)
                if colour is None:
                    return
                level = rec.seats[colour].bot
                assert level is not None
                action = await self._choose(level, rec)
                try:
                    await self.door.play(match_id, Caller(bot=colour), action, rec.version)
                except (StaleVersion, NotYourTurn, MatchIsOver, NotFound):
                    continue  # someone else moved on first (another process, a flag): look again
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if database_unavailable(exc):
                outage.failed("a bot", exc)  # the next resume finds the turn again
            else:
                log.exception("the bot of match %s failed", match_id)
        finally:
            self._turns.pop(match_id, None)

    async def _choose(self, level: str, rec: Record) -> dict[str, Any]:
        if self._pool is None:
            # forkserver, not fork: this process has threads (the database driver's).
            context = multiprocessing.get_context("forkserver")
            self._pool = ProcessPoolExecutor(self.workers, mp_context=context)
        loop = asyncio.get_running_loop()
        seed = self._rng.getrandbits(64)
        think = float(rec.options.get("bot_think_seconds") or self.think)
        started = time.perf_counter()
        action = await loop.run_in_executor(self._pool, choose, level, rec.state.to_json(), seed, think)
        self.thought(level, time.perf_counter() - started)
        return action

    # ---- finding turns left pending ---------------------------------------------

    async def start(self) -> None:
        """Wake the turns left pending (before the server takes requests), then
        look again every `bot_resume_seconds`."""
        await self._resume_logged()
        self._resumer = asyncio.get_running_loop().create_task(self._resume_forever())

    async def resume(self) -> int:
        """Wake every running match where a bot is to move; answers how many."""
        woken = 0
        for match_id in await self.service.reads.with_bots():
            with contextlib.suppress(NotFound):
                rec = await self.service.cycle.get(match_id, fresh=True)
                if bot_to_move(rec) is not None and match_id not in self._turns:
                    self._wake(match_id)
                    woken += 1
        return woken

    async def _resume_logged(self) -> None:
        try:
            await self.resume()
        except Exception as exc:
            if database_unavailable(exc):
                outage.failed("the bot runner", exc)
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
        """Stop: no new turns, the pending ones cancelled, the worker processes ended."""
        self._closed = True
        tasks = list(self._turns.values())
        if self._resumer is not None:
            tasks.append(self._resumer)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._pool is not None:
            pool, self._pool = self._pool, None
            # A search in a worker cannot be interrupted; its process is ended
            # instead of waited for (ProcessPoolExecutor has no public way).
            processes = list(getattr(pool, "_processes", {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                with contextlib.suppress(Exception):
                    process.terminate()
