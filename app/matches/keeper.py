"""The match keeper: the way every change of a match goes, and the reads it rests on.

    lock → draft → decide (guard, then the engine) → save → publish

Under the match's in-process lock, a draft of the current record is changed by
the verb's `decide`, saved in one short transaction whose UPDATE lands only if
the stored version is still the one the draft was made from, and then
published. When another process got there first, the record is reloaded and the
verb decided again. The current record of each match lives in an in-process
cache, so the hot path does no read before its one write.

The small helpers that change a draft the same way for every verb (begin, a
turn done, an ending, a log entry) live here too, so each verb's module holds
only what that verb decides.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncEngine

from app.config import Settings
from app.kernel.errors import Forbidden, NotFound, ServiceError
from app.kernel.ids import is_match_id
from app.notify import Channels, Told
from app.rules import SETUP, MatchOver, conclude

from . import store, stored_states
from .cache import Cache, Locks
from .errors import MatchIsOver
from .notices import notices_of
from .publisher import Publisher, hears_words
from .record import COLOURS, Entry, Record
from .replay import ending
from .saves_together import SavesTogether
from .shapes import MatchState, Update

log = logging.getLogger(__name__)
T = TypeVar("T")
Decide = Callable[[Record, int], Awaitable[T]]
TRIES = 8  # conflicts with other processes before a change gives up


class MatchKeeper:
    def __init__(self, engine: AsyncEngine, settings: Settings, publisher: Publisher,
                 channels: Channels | None = None) -> None:
        self.engine = engine
        # The channels notices leave by besides the inbox (app/notify): what a
        # change tells its players is saved with it (notices.py).
        self.channels = channels or Channels()
        self.settings = settings
        self.publisher = publisher
        # Seconds since the epoch; tests replace it to move time.
        self.clock: Callable[[], float] = time.time
        self.cache = Cache(settings.state_cache_size)
        self.together = (SavesTogether(engine, settings.save_writers)
                         if settings.save_writers > 0 and engine.dialect.name == "postgresql" else None)
        self.locks = Locks()
        # How long a seat counts as here after its last word (record.seat_here): as
        # long as a silent socket is given before it is closed as dead.
        self.presence_ttl_ms = round(settings.ws_dead_after_seconds * 1000)
        # The version this process may answer a match at from its cached record
        # without a read, or None (the realtime hub's `vouched`, set by the wiring):
        # the version its sockets hold, when the bus announced nothing newer.
        self.vouch: Callable[[str], int | None] = lambda match_id: None

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    # ---- reading ----------------------------------------------------------

    async def get(self, match_id: str, fresh: bool = False, with_seats: bool = True) -> Record:
        """The match's record: the cached one, or (`fresh`) as stored now."""
        if not is_match_id(match_id):  # never sent to the database (NUL, ...)
            raise NotFound(f"no match {match_id!r}")
        cached = self.cache.get(match_id)
        if cached is not None and not fresh:
            return cached
        rec = await store.load(self.engine, match_id, cached, with_seats)
        if rec is None:
            raise NotFound(f"no match {match_id!r}")
        self.cache.put(rec)
        return rec

    def present(self, rec: Record, now_ms: int | None = None) -> MatchState:
        return rec.present(self.now_ms() if now_ms is None else now_ms, self.presence_ttl_ms)

    async def current(self, match_id: str, with_seats: bool = True) -> Record:
        """The stored match, with a fallen flag or a join timeout applied (R16)."""
        rec = await self.get(match_id, fresh=True, with_seats=with_seats)
        if rec.due(self.now_ms()):
            rec, _ = await self.mutate(match_id, nothing)
        return rec

    async def newest(self, match_id: str, with_seats: bool = True) -> Record:
        """`current`, answered from the cached record when the stored version is
        its version and nothing has fallen due: then a read would give the same
        record (every change of a match's row moves its version on). The version
        is the hub's (`vouch`) where it may answer for it, else, when the seats'
        presence (last seen, connected: not versioned) is not asked for, the
        database's, in one small statement (stored_states.version_now) rather than the
        record's read: the database stays the truth, a lost bus message or not."""
        held = self.cache.get(match_id)
        if held is not None and not held.due(self.now_ms()):
            if self.vouch(match_id) == held.version:
                return held
            if not with_seats and await stored_states.version_now(self.engine, match_id) == held.version:
                return held
        return await self.current(match_id, with_seats)

    # ---- changing -----------------------------------------------------------

    async def mutate(self, match_id: str, decide: Decide[T], fresh: bool = False) -> tuple[Record, T]:
        """Run `decide` on a draft of the match and land what it changed; answers
        the record as it stands after, and what `decide` answered. A refusal
        raised by `decide` is raised again, after saving what fell due by itself."""
        async with self.locks.hold(match_id):
            rec = await self.get(match_id, fresh=fresh)
            for _ in range(TRIES):
                now = self.now_ms()
                draft = rec.draft()
                self.apply_due(draft, now)
                error: ServiceError | None = None
                try:
                    answer = await decide(draft, now)
                except ServiceError as refused:
                    error = refused  # what fell due by itself is kept all the same
                if draft.version == rec.version:
                    if error is not None:
                        raise error
                    return rec, answer
                try:
                    await self._save(rec, draft)
                except store.Conflict:
                    rec = await self.get(match_id, fresh=True)
                    continue
                if error is not None:
                    raise error
                return draft, answer
        raise RuntimeError(f"match {match_id}: no change could land after {TRIES} tries")

    async def _save(self, rec: Record, draft: Record) -> None:
        draft.updated_ms = draft.entries[-1].at_ms if draft.entries else self.now_ms()
        notices = notices_of(rec, draft)
        draft.told = Told(notices, self.channels.names) if notices else None
        await store.save(self.engine, rec.version, draft, self.together)
        if notices:
            self.channels.told(n.account_id for n in notices)
        self.cache.put(draft)
        updates: list[Update] = []
        before: Mapping[str, Any] = rec.engine_view()
        told = hears_words(self.publisher, draft.id)  # no await from here to the publishing
        for entry in draft.entries:
            updates.append(entry.update(before, told))
            before = entry.public
        await self.publish(draft.id, updates)

    async def publish(self, match_id: str, updates: Sequence[Mapping[str, Any]]) -> None:
        """Hand committed updates on; never raises (the commit has happened either way)."""
        try:
            await self.publisher.publish(match_id, updates)
        except Exception:
            log.exception("publishing updates of match %s failed", match_id)

    def apply_due(self, rec: Record, now: int) -> None:
        """What falls due by itself: a flag (R16), a setup not made in time, an
        unjoined match's timeout."""
        if rec.status == "active" and rec.state.phase == SETUP:
            if rec.due(now):  # no loser: setup runs no clock (docs/rules.md, "Clocks")
                late = COLOURS[rec.state.to_move]
                self.end(rec, None, {"type": "abort", "late": late}, now, automatic=True)
                if rec.result is not None:
                    rec.result = {**rec.result, "late": late}
        elif rec.status == "active" and rec.clock is not None:
            flagged = rec.clock.flagged(now)
            if flagged is not None:
                self.end(rec, flagged, {"type": "timeout"}, now, automatic=True)
        elif rec.status == "waiting" and rec.due(now):
            self.end(rec, None, {"type": "abort"}, now, automatic=True)

    # ---- what every verb does to a draft the same way -------------------------

    @staticmethod
    def guard_running(rec: Record) -> None:
        if rec.status == "finished" or rec.state.over:
            raise MatchIsOver()
        if rec.status == "waiting":
            raise Forbidden("the match waits for an opponent to join")

    def begin(self, rec: Record, now: int) -> None:
        """Both seats are taken: the match is on. Setup runs no clock (as a chess
        clock starts with a side's first move); the side to set up has the
        match's setup time, after which the match is aborted (`settle`)."""
        rec.status = "active"
        self._start_turn(rec, now)

    def turn_done(self, rec: Record, now: int, moved: bool) -> None:
        if rec.state.over:
            self.finish(rec, now)
            return
        if rec.clock is not None:
            rec.clock.stop(now, moved=moved)  # a setup stops nothing: no clock ran
        self._start_turn(rec, now)

    def _start_turn(self, rec: Record, now: int) -> None:
        if rec.state.phase == SETUP:
            limit = setup_seconds(rec.options, self.settings.setup_seconds)
            rec.due_at_ms = None if limit is None else now + round(limit * 1000)
        elif rec.clock is not None:
            rec.clock.start(COLOURS[rec.state.to_move], now)
            rec.due_at_ms = rec.clock.deadline()
        else:
            rec.due_at_ms = None

    def end(self, rec: Record, player: str | None, action: dict[str, Any], now: int,
            automatic: bool = False, abandoned: str | None = None) -> None:
        """A service event that ends the match, applied with the engine's `conclude`."""
        end = ending(action["type"], player, action)
        assert end is not None
        try:
            rec.state = conclude(rec.state, *end)
        except MatchOver:  # every verb answers a finished match the same way: 409
            raise MatchIsOver() from None
        self.finish(rec, now)
        if abandoned is not None and rec.result is not None:
            rec.result = {**rec.result, "abandoned": abandoned}
        self.log(rec, player, action, automatic, now)

    @staticmethod
    def finish(rec: Record, now: int) -> None:
        rec.status = "finished"
        rec.ended = True  # a rated match's change of ratings is saved with this (store.save)
        rec.result = rec.state.result
        rec.finished_ms = now
        rec.due_at_ms = None
        if rec.clock is not None:
            rec.clock.stop(now)
        if rec.draw_offer is not None:
            rec.draw_offer = None
            if not any(op == "accepted" for op, _ in rec.draw_ops):
                rec.draw_ops.append(("ended", None))
        if rec.takeback_offer is not None:
            rec.takeback_offer, rec.takeback_changed = None, True

    def log(self, rec: Record, player: str | None, action: dict[str, Any], automatic: bool, now: int,
            client_id: str | None = None) -> None:
        rec.version += 1
        rec.updated_ms = now
        rec.entries.append(Entry(rec.version, player, action, automatic, now, client_id, self.present(rec, now)))


def setup_seconds(options: dict[str, Any], default: float) -> float | None:
    """How long a side has to set up: the match's own figure, else the server's
    for a real-time match, a move's allowance in a correspondence one; none
    without a clock."""
    if options.get("setup_seconds") is not None:
        return float(options["setup_seconds"])
    control = options.get("time_control")
    if not control:
        return None
    if control["type"] == "realtime":
        return default
    return float(control["days"]) * 86_400


async def nothing(rec: Record, now: int) -> None:
    """A decision that changes nothing: what falls due by itself still lands."""
    return None
