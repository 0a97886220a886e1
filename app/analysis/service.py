"""Computer analyses: requested through the API, searched in worker processes,
pushed to the match's sockets as their plies are written.

The queue is fair and bounded (store.py): one analysis of a requester (an
account, or an address without one) is searched at a time whoever else
waits, so one account never holds every worker; an address holds at most
ANALYSIS_PER_ADDRESS waiting or running, a requester ANALYSIS_PER_DAY a day.

Each process searches in ANALYSIS_WORKERS worker processes of its own, beside
the bots' (a bot's turn never waits behind an analysis), in batches of a few
positions: the event loop only awaits the worker, and each batch's plies are
written with the lease renewed, so a process that dies leaves its analysis to
another (or to itself restarted) from the last batch written, once the lease
runs out. An analysis is taken up at most ANALYSIS_TRIES times (store.py
says what counts as a try), then given up as `failed` with a short reason:
a search that raises on some position is not run for ever; requesting it
again gives it fresh tries. A request, and every batch written, is a nudge on the bus: every
process looks for work at once, and tells the sockets and streams it holds on
that match what is new (`{"type": "analysis", ...}`).

A finished analysis hands the match to the puzzle miner (app/puzzles), in
the same worker processes, MINE_PART positions per call: before each part it
waits while this process's analyses fill its workers, so an analysis asked for
meanwhile waits behind one part (about a second), not the whole match (about
12 s). Its puzzles join the server's set.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from app.bots.pool import SearchPool
from app.config import Settings
from app.db.outage import database_unavailable
from app.matches.reads import Reads
from app.puzzles.mining import mine_part
from app.puzzles.service import Puzzles
from app.realtime.nudges import Nudges

from . import plies as shaping
from . import store
from .answers import answer
from .engine import Found, Item, search_positions
from .errors import NoAnalysis
from .store import Asker, Bounds

log = logging.getLogger(__name__)
BATCH = 4  # positions searched per call to a worker: about a quarter of a second at the default depth
QUEUE_KEY = "analysis:queue"  # a nudge: an analysis was requested or let go
MATCH_KEY = "analysis:m:"  # a nudge: plies of this match's analysis were written
# Positions mined per call to a worker: about a second of CPU on average (a
# part of 8 took 0.7 s on average in matches of 90 random legal actions, 0.01 s
# at the median: the mean is a few positions of seconds each, which no part splits).
MINE_PART = 8

Search = Callable[[list[Item], int, float], Awaitable[list[Found]]]
Tell = Callable[[str, dict[str, Any]], int]  # a message to every socket of a match here; how many
Mined = tuple[list[dict[str, Any]], int]  # the puzzle records of a part, the index to go on from
Mine = Callable[[list[tuple[int, dict[str, Any]]], str, int, int], Awaitable[Mined]]


def engine_name(depth: int) -> str:
    return f"strong depth {depth}"


class Analyses:
    def __init__(self, engine: AsyncEngine, reads: Reads, nudges: Nudges, tell: Tell, settings: Settings,
                 watched: Callable[[str], bool] = lambda _: True, puzzles: Puzzles | None = None) -> None:
        self.engine, self.reads, self.nudges, self.tell, self.watched = engine, reads, nudges, tell, watched
        self.puzzles = puzzles  # where a finished analysis's puzzles go (None: not mined)
        self.depth = settings.analysis_depth
        self.position_seconds = settings.analysis_position_seconds
        self.workers = settings.analysis_workers
        self.bounds = Bounds(settings.analysis_per_address, settings.analysis_per_day)
        self.lease_ms = round(settings.analysis_lease_seconds * 1000)
        self.poll_seconds = settings.analysis_poll_seconds
        self.tries = settings.analysis_tries
        self.pool = SearchPool(max(1, self.workers))
        # What searches a batch: a worker process; tests put a stand-in here.
        self.search: Search = self._in_worker
        # What mines a part of a finished match for puzzles: a worker process; tests put a stand-in here.
        self.mine: Mine = self._mine_in_worker
        self.mine_part = MINE_PART
        # Milliseconds since the epoch (tests move it).
        self.clock: Callable[[], float] = time.time
        self.name = f"{socket.gethostname()[:32]}:{os.getpid()}:{secrets.token_hex(4)}"
        self._running: dict[int, asyncio.Task[None]] = {}
        self._sent: dict[str, int] = {}  # per match, the last version pushed to its sockets here
        self._telling: set[asyncio.Task[None]] = set()  # pushes under way (held: a task not referenced may vanish)
        self._mining: set[asyncio.Task[None]] = set()  # finished matches being mined for puzzles
        self._one_telling = asyncio.Lock()  # one push at a time: no older reading told after a newer one
        self._wake = asyncio.Event()
        self._freed = asyncio.Event()  # an analysis here ended: a worker may be free to mine
        self._looker: asyncio.Task[None] | None = None
        self._closed = False
        nudges.on("analysis:", self._heard)

    def now_ms(self) -> int:
        return round(self.clock() * 1000)

    async def _in_worker(self, items: list[Item], depth: int, seconds: float) -> list[Found]:
        return await self.pool.call(search_positions, items, depth, seconds)

    async def _mine_in_worker(self, items: list[tuple[int, dict[str, Any]]], match_id: str, start: int,
                              count: int) -> Mined:
        # Only the part crosses to the worker, not the whole match again at every part.
        found, after = await self.pool.call(mine_part, items[start:start + count], match_id, 0, count)
        return found, start + after

    # ---- the API's side ------------------------------------------------------

    async def request(self, match_id: str, asker: Asker) -> tuple[dict[str, Any], bool]:
        """(the match's analysis as `GET` shows it, whether it is waiting or
        running). A failed analysis waits again, with fresh tries. Raises
        NotFound, MatchRunning (only a finished match is analysed: an opinion
        on a running one would help a player), TooManyAnalyses."""
        found = await store.find(self.engine, match_id)
        if found is None or found.status == "failed":
            again = found is not None
            version, _, _ = await self.reads.finished_log(match_id)
            found, made = await store.request(self.engine, match_id, asker, self.bounds, self.now_ms(),
                                              self.depth, engine_name(self.depth), version + 1)
            if made:
                self.nudges.nudge(QUEUE_KEY)
                self._wake.set()
                if again:  # the match's other pages showed it failed
                    self._told(match_id)
        return await self._answer(found), found.status in store.PENDING

    async def read(self, match_id: str) -> dict[str, Any]:
        found = await store.find(self.engine, match_id)
        if found is None:
            raise NoAnalysis(f"match {match_id!r} has no analysis: POST to request one (once it is over)")
        return await self._answer(found)

    async def _answer(self, row: Any) -> dict[str, Any]:
        return await answer(self.engine, row)

    # ---- looking for work ----------------------------------------------------

    async def start(self) -> None:
        """Look for analyses now (left by a stopped process, or waiting), then on
        every request and every ANALYSIS_POLL_SECONDS."""
        if self.workers > 0:
            self._looker = asyncio.get_running_loop().create_task(self._look_forever())

    def _heard(self, rest: str | None) -> None:
        if rest is None or rest == QUEUE_KEY.removeprefix("analysis:"):
            self._wake.set()
        if rest is None:
            return
        if rest.startswith(MATCH_KEY.removeprefix("analysis:")):
            self._tell_soon(rest[len(MATCH_KEY.removeprefix("analysis:")):])

    async def _look_forever(self) -> None:
        while not self._closed:
            try:
                await self.look()
            except Exception as exc:
                if not database_unavailable(exc):
                    log.exception("looking for analyses failed; trying again in %s s", self.poll_seconds)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll_seconds)
            self._wake.clear()

    async def look(self) -> int:
        """Claim analyses while this process has a worker free; how many it took."""
        taken = 0
        while not self._closed and len(self._running) < self.workers:
            now = self.now_ms()
            for match_id in await store.give_up(self.engine, now, self.tries):
                log.warning("the analysis of match %s is given up: its search stopped %d times", match_id, self.tries)
                self._given_up(match_id)
            for row in await store.claimable(self.engine, now, self.tries):
                if row.id not in self._running and await store.claim(
                        self.engine, row.id, row.requester, self.name, now, now + self.lease_ms, self.tries):
                    self._running[row.id] = asyncio.get_running_loop().create_task(self._work(row.id, row.match_id))
                    taken += 1
                    break
            else:
                return taken
        return taken

    async def idle(self) -> None:
        """Wait until this process searches nothing (for tests)."""
        while self._running:
            await asyncio.gather(*list(self._running.values()), return_exceptions=True)

    async def close(self) -> None:
        """Stop: the searches cancelled and their leases given up at once (the
        plies written stay: another process, or this one restarted, goes on)."""
        self._closed = True
        tasks = [*self._running.values(), *self._telling, *self._mining,
                 *([self._looker] if self._looker is not None else [])]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        try:
            await store.release(self.engine, self.name)
        except Exception as exc:  # the lease runs out by itself
            log.warning("giving up the analyses of %s failed: %s", self.name, type(exc).__name__)
        self.pool.close()

    # ---- the work ------------------------------------------------------------

    async def _work(self, analysis_id: int, match_id: str) -> None:
        try:
            if await self._search_all(analysis_id, match_id):
                self.nudges.nudge(QUEUE_KEY)  # a requester's next one may go now, anywhere
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if database_unavailable(exc):  # not the analysis's fault: its try given back
                with contextlib.suppress(Exception):
                    await store.release(self.engine, self.name, analysis_id)
            else:
                log.exception("the analysis of match %s failed", match_id)
                reason = f"given up after {self.tries} tries (the last one's search raised {type(exc).__name__})"
                with contextlib.suppress(Exception):
                    if await store.failed_try(self.engine, analysis_id, self.name, self.tries, reason, self.now_ms()):
                        self._given_up(match_id)
        finally:
            self._running.pop(analysis_id, None)
            self._wake.set()
            self._freed.set()

    async def _search_all(self, analysis_id: int, match_id: str) -> bool:
        """Search every version not written yet, batch by batch; answers whether
        it finished (False: the lease was lost to another process)."""
        _, start, log_entries = await self.reads.finished_log(match_id)
        planned = await asyncio.to_thread(shaping.plan, start, log_entries)
        written = {r.version: r for r in await store.plies(self.engine, analysis_id)}
        judged: dict[int, tuple[float, dict[str, Any] | None, int]] = {
            v: (r.eval, r.best, r.choices) for v, r in written.items()}
        todo = [i for i, p in enumerate(planned) if p.version not in written]
        for batch in _batches(planned, todo):
            wanted = [planned[i] for i in batch if planned[i].searched and not _same_as_before(planned, i)]
            items = [(p.version, p.state.to_json(), shaping.seed_of(match_id, p.version)) for p in wanted]
            found = {v: (e, best, n) for v, e, best, n in
                     (await self.search(items, self.depth, self.position_seconds) if items else [])}
            rows = []
            for i in batch:
                p = planned[i]
                if not p.searched:
                    judged[p.version] = (shaping.at_once(p.state), None, 0)
                elif p.version in found:
                    judged[p.version] = found[p.version]
                else:  # the same position as the version before (a join, a draw offer...)
                    judged[p.version] = judged[planned[i - 1].version]
                value, best, choices = judged[p.version]
                before = judged.get(p.version - 1)
                as_best = None if p.played is None or before is None or before[1] is None \
                    else p.played == before[1]
                rows.append({"version": p.version, "eval": value, "best": best, "choices": choices,
                             "mover": p.mover, "as_best": as_best})
            if not await store.save(self.engine, analysis_id, self.name, rows, self.now_ms() + self.lease_ms):
                return False
            self._told(match_id)
        shown = shaping.shown(await store.plies(self.engine, analysis_id))
        accuracy = shaping.accuracies(shown)
        finished = await store.finish(self.engine, analysis_id, self.name, self.now_ms(),
                                      accuracy["white"], accuracy["black"])
        if finished:
            self._told(match_id)
            self._mine_soon(match_id, planned)
        return finished

    def _given_up(self, match_id: str) -> None:
        """An analysis failed: its sockets hear it, and its requester's next one may go."""
        self._told(match_id)
        self.nudges.nudge(QUEUE_KEY)

    # ---- puzzles ---------------------------------------------------------------

    def _mine_soon(self, match_id: str, planned: list[shaping.Position]) -> None:
        """The finished match's puzzles looked for, after the analysis (whose
        worker is free again): the process that finished it, once. A process
        stopped meanwhile loses only these puzzles, never the analysis."""
        if self.puzzles is None or self._closed:
            return
        items = [(p.version, p.state.to_json()) for i, p in enumerate(planned) if not _same_as_before(planned, i)]
        task = asyncio.get_running_loop().create_task(self._mine_match(match_id, items))
        self._mining.add(task)
        task.add_done_callback(self._mining.discard)

    async def _mine_match(self, match_id: str, items: list[tuple[int, dict[str, Any]]]) -> None:
        assert self.puzzles is not None
        try:
            found: list[dict[str, Any]] = []
            at = 0
            while at < len(items):
                await self._worker_spare()
                part, at = await self.mine(items, match_id, at, self.mine_part)
                found += part
            added = await self.puzzles.load(found, source="analysis")
            if added:
                log.info("match %s gave %d new puzzles", match_id, added)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if not database_unavailable(exc):
                log.exception("mining match %s for puzzles failed", match_id)

    async def _worker_spare(self) -> None:
        """Wait while this process's analyses fill its workers: they were asked
        for, the mining was not (the pool is first come, first served)."""
        while len(self._running) >= max(1, self.workers):
            self._freed.clear()
            await self._freed.wait()

    async def mined(self) -> None:
        """Wait until the matches being mined are (for tests)."""
        while self._mining:
            await asyncio.gather(*list(self._mining), return_exceptions=True)

    # ---- pushing -------------------------------------------------------------

    def _told(self, match_id: str) -> None:
        """Plies written: every process's sockets on the match hear of them."""
        self.nudges.nudge(MATCH_KEY + match_id)
        self._tell_soon(match_id)

    def _tell_soon(self, match_id: str) -> None:
        if self._closed:
            return
        task = asyncio.get_running_loop().create_task(self._relay(match_id))
        self._telling.add(task)
        task.add_done_callback(self._telling.discard)

    async def _relay(self, match_id: str) -> None:
        async with self._one_telling:
            await self._tell(match_id)

    async def _tell(self, match_id: str) -> None:
        """Tell this process's sockets on the match what is new since the last telling."""
        if not self.watched(match_id):
            self._sent.pop(match_id, None)
            return
        try:
            body = await self.read(match_id)
        except Exception as exc:
            if not database_unavailable(exc):
                log.exception("telling the analysis of match %s failed", match_id)
            return
        after = self._sent.get(match_id, -1)
        new = [p for p in body["plies"] if p["version"] > after]
        if new:
            self._sent[match_id] = new[-1]["version"]
        if body["status"] not in store.PENDING:
            self._sent.pop(match_id, None)
        message = {"type": "analysis", "match_id": match_id, "status": body["status"],
                   "progress": body["progress"], "engine": body["engine"], "plies": new,
                   "accuracy": body["accuracy"]}
        if "failure" in body:
            message["failure"] = body["failure"]
        self.tell(match_id, message)


def _same_as_before(planned: list[shaping.Position], i: int) -> bool:
    return i > 0 and planned[i].state is planned[i - 1].state


def _batches(planned: list[shaping.Position], todo: list[int]) -> list[list[int]]:
    """`todo` cut into runs of at most BATCH positions to search (the positions
    judged at once ride along with them)."""
    out: list[list[int]] = []
    run: list[int] = []
    searched = 0
    for i in todo:
        run.append(i)
        if planned[i].searched and not _same_as_before(planned, i):
            searched += 1
            if searched == BATCH:
                out.append(run)
                run, searched = [], 0
    if run:
        out.append(run)
    return out
