"""The match service: one method per verb, each guard → rules → save → publish.

Every change is a mutation of one match: under the match's in-process lock, a
draft of the current record is changed (guard, then the engine), saved in one
short transaction whose UPDATE only lands if the stored version is still the
one the draft was made from, and then published. When another process got
there first, the record is reloaded and the verb decided again. The current
record of each match lives in an in-process cache, so the hot path does no
read before its one write.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import hashlib
import hmac
import json
import logging
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncEngine

from app import bots
from app.config import Settings
from app.rules import (
    SETUP,
    IllegalAction,
    MalformedAction,
    MatchOver,
    State,
    action_json,
    apply_steps,
    commitment,
    conclude,
    legal_actions,
    parse_action,
    setup_choices,
)

from . import store
from .clock import Clock
from .errors import (
    BadRequest,
    Forbidden,
    Illegal,
    MatchIsOver,
    NotFound,
    NotYourTurn,
    SeatTaken,
    ServiceError,
    StaleVersion,
    Unauthorized,
)
from .ids import is_match_id
from .publisher import NullPublisher, Publisher
from .record import COLOURS, Entry, Record, SeatInfo, other, record_from_rows
from .replay import ending, initial_state

log = logging.getLogger(__name__)
# Log entries that change neither the position nor whose turn it is.
TALK = frozenset({"join", "draw_offer", "draw_decline", "draw_withdraw"})
T = TypeVar("T")
Decide = Callable[[Record, int], Awaitable[T]]


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(slots=True)
class Seated:
    """What create and join answer: the match, the seat taken and its token (shown once)."""

    match: dict[str, Any]
    seat: str
    token: str


@dataclass(slots=True)
class Acted:
    """What act answers: the match now, the version the action reached, and
    whether it had landed before (a resend)."""

    match: dict[str, Any]
    version: int
    duplicate: bool = False
    match_json: str | None = None  # `match` encoded already, when it is


class _Locks:
    """One asyncio.Lock per match, dropped when nobody holds or waits for it."""

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, list[int]]] = {}

    @asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[None]:
        lock, users = self._locks.setdefault(key, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if not users[0]:
                del self._locks[key]


class _Cache:
    """The newest record of recently used matches (LRU)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[str, Record] = OrderedDict()

    def get(self, key: str) -> Record | None:
        rec = self._items.get(key)
        if rec is not None:
            self._items.move_to_end(key)
        return rec

    def put(self, rec: Record) -> None:
        """Keep `rec` unless a newer version is known already."""
        old = self._items.get(rec.id)
        if old is not None and old.version > rec.version:
            return
        self._items[rec.id] = rec
        self._items.move_to_end(rec.id)
        while len(self._items) > self.size:
            self._items.popitem(last=False)


class MatchService:
    def __init__(self, engine: AsyncEngine, settings: Settings, publisher: Publisher | None = None) -> None:
        self.engine = engine
        self.settings = settings
        self.publisher: Publisher = publisher or NullPublisher()
        # Seconds since the epoch; tests replace it to move time.
        self.clock: Callable[[], float] = time.time
        self._cache = _Cache(settings.state_cache_size)
        self._locks = _Locks()
        self._touched: dict[tuple[str, str], int] = {}
        self._bots: dict[str, asyncio.Task[None]] = {}
        self._rng = random.Random(secrets.randbits(64))
        self._presence_ttl_ms = round(settings.ws_dead_after_seconds * 2000)

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    # ---- reading ----------------------------------------------------------

    async def _get(self, match_id: str, fresh: bool = False, with_seats: bool = True) -> Record:
        """The match's record: the cached one, or (`fresh`) as stored now."""
        if not is_match_id(match_id):  # never sent to the database (NUL, ...)
            raise NotFound(f"no match {match_id!r}")
        cached = self._cache.get(match_id)
        if cached is not None and not fresh:
            return cached
        rec = await store.load(self.engine, match_id, cached, with_seats)
        if rec is None:
            raise NotFound(f"no match {match_id!r}")
        self._cache.put(rec)
        self._schedule_bot(rec)  # a bot whose turn was left by a stopped process resumes
        return rec

    def present(self, rec: Record, now_ms: int | None = None) -> dict[str, Any]:
        return rec.present(self.now_ms() if now_ms is None else now_ms, self._presence_ttl_ms)

    async def _settled(self, match_id: str, with_seats: bool = True) -> Record:
        """The stored match, with a fallen flag or a join timeout applied (R16)."""
        rec = await self._get(match_id, fresh=True, with_seats=with_seats)
        if rec.due(self.now_ms()):
            rec, _ = await self._mutate(match_id, _nothing)
        return rec

    async def get(self, match_id: str) -> dict[str, Any]:
        """The public state (`GET /matches/{id}`)."""
        return self.present(await self._settled(match_id))

    async def legal(self, match_id: str, colour: str) -> dict[str, Any]:
        """The caller's legal actions now: empty when it is not their turn."""
        rec = await self._settled(match_id, with_seats=False)
        mine = rec.seat_to_move() == colour
        setup = setup_choices(rec.state) if mine else []
        actions = [action_json(a) for a in legal_actions(rec.state)] if mine else []
        return {"version": rec.version, "actions": actions, "setup": setup}

    async def log(self, match_id: str, since: int = 0) -> list[dict[str, Any]]:
        """The action log (`GET /matches/{id}/actions`)."""
        cached = self._cache.get(match_id)
        if cached is None or cached.due(self.now_ms()):
            await self._settled(match_id)
        rows = await store.log(self.engine, match_id, since)
        if rows is None:
            raise NotFound(f"no match {match_id!r}")
        return [{"version": r.version, "player": r.player, "action": r.action, "automatic": r.automatic,
                 "at": r.at.isoformat()} for r in rows]

    async def updates_since(self, match_id: str, version: int) -> list[dict[str, Any]] | None:
        """The update messages after `version`, in order, for a client that
        reconnects; None when there are too many (or `version` is unknown):
        send a snapshot instead. Raises NotFound for an unknown match."""
        if not is_match_id(match_id):
            raise NotFound(f"no match {match_id!r}")
        found = await store.updates(self.engine, match_id, version, self.settings.max_replay_updates)
        if found is None:
            raise NotFound(f"no match {match_id!r}")
        current, rows = found
        if version == current:
            return []
        if not rows or version < 0:
            return None
        return [{"type": "update", "version": r.version, "action": r.action, "player": r.player,
                 "automatic": r.automatic, "match": r.public} for r in rows]

    async def list(
        self, *, status: str | None = None, variant: str | None = None, player: str | None = None,
        limit: int = 20, cursor: str | None = None,
    ) -> dict[str, Any]:
        """Matches newest first, `limit` at a time; `next_cursor` fetches the next page."""
        after = _read_cursor(cursor) if cursor else None
        rows, seat_rows = await store.page(
            self.engine, status=status, variant=variant, player=player, limit=limit + 1, after=after)
        more = len(rows) > limit
        rows = rows[:limit]
        # Decided once, before the await: the cache may drop or move on meanwhile.
        hit = {r.id: c for r in rows if (c := self._cache.get(r.id)) is not None and c.version == r.version}
        loaded = await store.states(self.engine, [r.id for r in rows if r.id not in hit])
        now = self.now_ms()
        out = []
        for row in rows:
            cached = hit.get(row.id)
            state = cached.state if cached is not None else State.from_json(loaded[row.id])
            rec = record_from_rows(row, seat_rows[row.id], state)
            if cached is not None:
                rec.view_of, rec.view = cached.view_of, cached.view
            self._cache.put(rec)
            if rec.due(now):
                rec, _ = await self._mutate(rec.id, _nothing)
            out.append(self.present(rec, now))
        next_cursor = _make_cursor(rows[-1].created_at, rows[-1].id) if more and rows else None
        return {"matches": out, "next_cursor": next_cursor}

    # ---- seats and presence -------------------------------------------------

    async def authenticate(self, match_id: str, token: str | None) -> str:
        """The colour whose seat `token` proves; raises Unauthorized or NotFound."""
        if not token:
            raise Unauthorized("this call needs the seat's token: Authorization: Bearer <token>")
        digest = hash_token(token)
        for fresh in (False, True):
            rec = await self._get(match_id, fresh=fresh)
            for colour, seat in rec.seats.items():
                if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                    return colour
        raise Unauthorized("this token holds no seat of this match")

    async def touch(self, match_id: str, colour: str) -> None:
        """Note that the seat is here (its last_seen); written at most every
        `touch_seconds` per seat and process."""
        now = self.now_ms()
        key = (match_id, colour)
        if now - self._touched.get(key, 0) < self.settings.touch_seconds * 1000:
            return
        self._touched[key] = now
        if len(self._touched) > 4 * self.settings.state_cache_size:
            self._touched.clear()
        await store.touch(self.engine, match_id, colour, now, None)
        rec = self._cache.get(match_id)
        if rec is not None and colour in rec.seats:
            rec.seats[colour].last_seen_ms = now

    async def set_connected(self, match_id: str, colour: str, connected: bool) -> dict[str, Any]:
        """The realtime layer says a seat's socket came or went; answers the public
        state (players.*.connected). While connected, call `touch` at least every
        ws_ping_seconds: a seat counts as connected only if seen within
        2 × ws_dead_after_seconds. Does not change the version."""
        now = self.now_ms()
        await store.touch(self.engine, match_id, colour, now, connected)
        self._touched[(match_id, colour)] = now
        rec = self._cache.get(match_id)
        if rec is not None and colour in rec.seats:
            seat = rec.seats[colour]
            seat.connected, seat.last_seen_ms = connected, now
        return await self.get(match_id)

    # ---- the verbs ----------------------------------------------------------

    async def create(
        self, options: dict[str, Any], seat: str = "random", opponent: str = "human", name: str = "anonymous",
    ) -> Seated:
        # guard
        bot = _bot_level(opponent)
        if seat not in ("white", "black", "random"):
            raise BadRequest("seat is white, black or random")
        colour = secrets.choice(COLOURS) if seat == "random" else seat
        opts = self._options(options)
        chosen_seed = options.get("seed")
        chaos = options.get("chaos") or None
        seed = chosen_seed or secrets.token_hex(16)  # 128 bits (R20)
        custom = bool(chosen_seed or chaos)
        # rules
        try:
            state = initial_state(seed, opts, chaos, custom)
        except MalformedAction as error:
            raise BadRequest(str(error)) from None
        now = self.now_ms()
        token = secrets.token_urlsafe(32)
        seats = {colour: SeatInfo(name, hash_token(token), None, False, now, now)}
        if bot:
            seats[other(colour)] = SeatInfo(f"{bot} bot", None, bot, True, now, now)
        rec = Record(
            id=secrets.token_urlsafe(9), status="waiting", options=opts, seed=seed,
            seed_commitment=commitment(seed), custom=custom, chaos=chaos, state=state, version=0,
            clock=Clock.from_options(opts["time_control"]), due_at_ms=None, draw_offer=None, result=None,
            created_ms=now, updated_ms=now, finished_ms=None, seats=seats,
        )
        if bot:
            self._begin(rec, now)
        elif opts["join_timeout_seconds"] is not None:
            rec.due_at_ms = now + opts["join_timeout_seconds"] * 1000
        # save
        await store.insert(self.engine, rec)
        self._cache.put(rec)
        self._touched[(rec.id, colour)] = now
        # publish: nothing yet (version 0); a bot holding White starts
        self._schedule_bot(rec)
        return Seated(self.present(rec, now), colour, token)

    def _options(self, options: dict[str, Any]) -> dict[str, Any]:
        time_control = options.get("time_control")
        abandon = options.get("abandon_seconds")
        if abandon is None:  # correspondence matches have no claims: the clock decides
            if time_control is None:
                abandon = self.settings.abandon_untimed_seconds
            elif time_control["type"] == "realtime":
                abandon = self.settings.abandon_seconds
        join = options.get("join_timeout_seconds") or self.settings.join_timeout_seconds
        return {
            "variant": options.get("variant", "standard"),
            "no_progress_rounds": options.get("no_progress_rounds", 10),
            "time_control": time_control,
            "join_timeout_seconds": join,
            "abandon_seconds": abandon,
        }

    async def join(self, match_id: str, name: str = "anonymous") -> Seated:
        token = secrets.token_urlsafe(32)

        async def decide(rec: Record, now: int) -> str:
            if rec.status == "finished":
                raise MatchIsOver("the match is over; nobody can join it")
            free = [c for c in COLOURS if c not in rec.seats]
            if not free:
                raise SeatTaken("both seats of this match are taken")
            colour = free[0]
            rec.seats[colour] = SeatInfo(name, hash_token(token), None, False, now, now)
            rec.new_seats.append(colour)
            self._begin(rec, now)
            self._log(rec, colour, {"type": "join"}, False, now)
            return colour

        rec, colour = await self._mutate(match_id, decide, fresh=True)
        self._touched[(match_id, colour)] = rec.updated_ms
        return Seated(rec.entries[-1].public if rec.entries else self.present(rec), colour, token)

    async def act(
        self, match_id: str, colour: str, action: Any, version: int, client_id: str | None = None,
    ) -> Acted:
        """Play `action` for `colour` on `version` (`POST /matches/{id}/actions`)."""
        try:
            parsed = parse_action(action)
        except MalformedAction as error:
            raise BadRequest(str(error)) from None
        wanted = action_json(parsed)

        async def decide(rec: Record, now: int) -> Acted | None:
            if version != rec.version:
                if rec.entries:  # a flag fell just now: too late, unless it landed before
                    try:
                        return await self._resent(rec, colour, wanted, version, client_id)
                    except (StaleVersion, MatchIsOver):
                        raise MatchIsOver("time ran out before this action") from None
                if not await self._only_talk_since(rec, version):
                    return await self._resent(rec, colour, wanted, version, client_id)
            self._guard_running(rec)
            if rec.seat_to_move() != colour:
                raise NotYourTurn(f"it is {rec.seat_to_move()}'s turn, not {colour}'s")
            try:
                steps = apply_steps(rec.state, parsed)
            except MatchOver:
                raise MatchIsOver() from None
            except IllegalAction as error:
                raise Illegal(str(error)) from None
            except MalformedAction as error:
                raise BadRequest(str(error)) from None
            if rec.draw_offer == other(colour):  # moving on answers an offer: no
                rec.draw_offer = None
                rec.draw_ops.append(("lapsed", None))
            for i, (mover, step, state) in enumerate(steps):
                rec.state = state
                self._turn_done(rec, now, moved=i == 0)
                self._log(rec, COLOURS[mover], action_json(step), i > 0, now, client_id if i == 0 else None)
            return None

        # A version behind the cache may only mean another process moved on.
        cached = self._cache.get(match_id)
        fresh = cached is None or cached.version != version
        try:
            rec, answer = await self._mutate(match_id, decide, fresh=fresh)
        except store.ClientIdTaken:
            rec = await self._get(match_id, fresh=True)
            answer = await self._resent(rec, colour, wanted, version, client_id)
        if answer is not None:
            return answer
        last = rec.entries[-1]
        return Acted(last.public, rec.version, match_json=last.public_text())

    async def _resent(
        self, rec: Record, colour: str, wanted: dict[str, Any], version: int, client_id: str | None,
    ) -> Acted:
        """An action on a version that is not the current one: a resend of one
        that landed answers as it did; anything else is stale."""
        first = None
        if client_id:
            first = await store.entry_by_client_id(self.engine, rec.id, client_id)
            if first is not None and (first.player != colour or first.action != wanted):
                raise BadRequest(f"the action id {client_id!r} is used by another action of this match")
        if first is None and 0 <= version < rec.version:
            at = await store.entry_after(self.engine, rec.id, version, skip=TALK)
            if at is not None and not at.automatic and at.player == colour and at.action == wanted:
                first = at
        if first is not None:
            landed, public = await store.answer_of(self.engine, rec.id, first.version)
            await self._republish(rec.id, first.version)
            return Acted(public, landed, duplicate=True)
        if rec.status == "finished":
            raise MatchIsOver()
        raise StaleVersion(rec.version)

    async def _republish(self, match_id: str, version: int) -> None:
        """Publish again what landed from `version` on. A resend often follows an
        answer lost after its commit, and then the updates never went out: without
        this, watchers would wait for the next action to fill the gap. Each socket
        skips what it has already."""
        try:
            updates = await self.updates_since(match_id, version - 1)
            if updates:
                await self.publisher.publish(match_id, updates)
        except Exception:
            log.exception("publishing again the updates of match %s failed", match_id)

    async def _only_talk_since(self, rec: Record, version: int) -> bool:
        """Whether every entry after `version` left the game as it was (a join, a
        draw offer or its answer): an action made on `version` still fits, and
        refusing it as stale would let an opponent stall a player with offers."""
        if not 0 <= version < rec.version:
            return False
        since = await store.log(self.engine, rec.id, version)
        return since is not None and all(row.action.get("type") in TALK for row in since)

    async def resign(self, match_id: str, colour: str) -> dict[str, Any]:
        async def decide(rec: Record, now: int) -> None:
            self._guard_running(rec)
            self._end(rec, colour, {"type": "resign"}, now)

        rec, _ = await self._mutate(match_id, decide)
        return self.present(rec)

    async def draw(self, match_id: str, colour: str, offer: bool) -> dict[str, Any]:
        """Offer or accept (`offer`), decline or withdraw (not `offer`) a draw (R16)."""

        async def decide(rec: Record, now: int) -> None:
            self._guard_running(rec)
            pending = rec.draw_offer
            if offer and pending == other(colour):
                rec.draw_ops.append(("accepted", None))
                self._end(rec, colour, {"type": "draw_accept"}, now)
            elif offer and pending is None:
                rec.draw_offer = colour
                rec.draw_ops.append(("offer", colour))
                self._log(rec, colour, {"type": "draw_offer"}, False, now)
            elif not offer and pending is not None:
                mine = pending == colour
                rec.draw_offer = None
                rec.draw_ops.append(("withdrawn" if mine else "declined", None))
                self._log(rec, colour, {"type": "draw_withdraw" if mine else "draw_decline"}, False, now)
            # else: the offer stands already, or there is none to answer: nothing to do

        rec, _ = await self._mutate(match_id, decide)
        return self.present(rec)

    async def claim(self, match_id: str, colour: str, result: str) -> dict[str, Any]:
        """Claim a win or a draw once the opponent's seat has been gone longer than
        the match's abandon_seconds."""
        if result not in ("win", "draw"):
            raise BadRequest('result is "win" or "draw"')

        async def decide(rec: Record, now: int) -> None:
            self._guard_running(rec)
            absent = rec.seats[other(colour)]
            limit = rec.options.get("abandon_seconds")
            if absent.bot is not None:
                raise Forbidden("a bot never abandons its seat")
            if limit is None:
                raise Forbidden("this match has no abandonment claims; its clock decides")
            gone_ms = now - absent.last_seen_ms
            here = absent.connected and gone_ms <= self._presence_ttl_ms
            if here or gone_ms <= limit * 1000:
                raise Forbidden(
                    f"{other(colour)} was seen {gone_ms // 1000} s ago; a claim needs {limit:g} s away")
            self._end(rec, colour, {"type": "claim", "result": result}, now, abandoned=other(colour))

        rec, _ = await self._mutate(match_id, decide, fresh=True)
        return self.present(rec)

    async def abort(self, match_id: str, colour: str | None) -> dict[str, Any]:
        """Call the match off before both setups are done; `colour` None is the server."""

        async def decide(rec: Record, now: int) -> None:
            if rec.status == "finished":
                raise MatchIsOver()
            if rec.status == "active" and rec.state.phase != SETUP:
                raise Forbidden("a match can be aborted only before both setups are done")
            self._end(rec, colour, {"type": "abort"}, now, automatic=colour is None)

        rec, _ = await self._mutate(match_id, decide)
        return self.present(rec)

    async def sweep(self) -> int:
        """Apply every fallen flag and join timeout; the background sweeper's job."""
        ids = await store.due(self.engine, self.now_ms())
        for match_id in ids:
            with contextlib.suppress(ServiceError):
                await self._mutate(match_id, _nothing, fresh=True)
        return len(ids)

    # ---- the parts the verbs share -------------------------------------------

    async def _mutate(self, match_id: str, decide: Decide[T], fresh: bool = False) -> tuple[Record, T]:
        async with self._locks.hold(match_id):
            rec = await self._get(match_id, fresh=fresh)
            for _ in range(8):
                now = self.now_ms()
                draft = rec.draft()
                self._settle(draft, now)
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
                    rec = await self._get(match_id, fresh=True)
                    continue
                if error is not None:
                    raise error
                return draft, answer
        raise RuntimeError(f"match {match_id}: no change could land after 8 tries")

    async def _save(self, rec: Record, draft: Record) -> None:
        draft.updated_ms = draft.entries[-1].at_ms if draft.entries else self.now_ms()
        await store.save(self.engine, rec.version, draft)
        self._cache.put(draft)
        try:
            await self.publisher.publish(draft.id, [e.update() for e in draft.entries])
        except Exception:
            log.exception("publishing updates of match %s failed", draft.id)
        self._schedule_bot(draft)

    def _settle(self, rec: Record, now: int) -> None:
        """What falls due by itself: a flag (R16), an unjoined match's timeout."""
        if rec.status == "active" and rec.clock is not None:
            flagged = rec.clock.flagged(now)
            if flagged is not None:
                self._end(rec, flagged, {"type": "timeout"}, now, automatic=True)
        elif rec.status == "waiting" and rec.due(now):
            self._end(rec, None, {"type": "abort"}, now, automatic=True)

    def _guard_running(self, rec: Record) -> None:
        if rec.status == "finished":
            raise MatchIsOver()
        if rec.status == "waiting":
            raise Forbidden("the match waits for an opponent to join")

    def _begin(self, rec: Record, now: int) -> None:
        """Both seats are taken: the match is on and the clock of the player to move runs."""
        rec.status = "active"
        if rec.clock is not None:
            rec.clock.start(COLOURS[rec.state.to_move], now)
        rec.due_at_ms = rec.clock.deadline() if rec.clock else None

    def _turn_done(self, rec: Record, now: int, moved: bool) -> None:
        if rec.state.over:
            self._finish(rec, now)
            return
        if rec.clock is not None:
            rec.clock.stop(now, moved=moved)
            rec.clock.start(COLOURS[rec.state.to_move], now)
            rec.due_at_ms = rec.clock.deadline()

    def _end(self, rec: Record, player: str | None, action: dict[str, Any], now: int,
             automatic: bool = False, abandoned: str | None = None) -> None:
        """A service event that ends the match, applied with the engine's `conclude`."""
        end = ending(action["type"], player, action)
        assert end is not None
        rec.state = conclude(rec.state, *end)
        self._finish(rec, now)
        if abandoned is not None and rec.result is not None:
            rec.result = {**rec.result, "abandoned": abandoned}
        self._log(rec, player, action, automatic, now)

    def _finish(self, rec: Record, now: int) -> None:
        rec.status = "finished"
        rec.result = rec.state.result
        rec.finished_ms = now
        rec.due_at_ms = None
        if rec.clock is not None:
            rec.clock.stop(now)
        if rec.draw_offer is not None:
            rec.draw_offer = None
            if not any(op == "accepted" for op, _ in rec.draw_ops):
                rec.draw_ops.append(("ended", None))

    def _log(self, rec: Record, player: str | None, action: dict[str, Any], automatic: bool, now: int,
             client_id: str | None = None) -> None:
        rec.version += 1
        rec.updated_ms = now
        rec.entries.append(Entry(rec.version, player, action, automatic, now, client_id, self.present(rec, now)))

    # ---- bots -----------------------------------------------------------------

    def _bot_to_move(self, rec: Record) -> str | None:
        colour = rec.seat_to_move()
        if colour is None:
            return None
        seat = rec.seats.get(colour)
        return colour if seat is not None and seat.bot is not None else None

    def _schedule_bot(self, rec: Record) -> None:
        if rec.id not in self._bots and self._bot_to_move(rec) is not None:
            self._bots[rec.id] = asyncio.get_running_loop().create_task(self._bot_turns(rec.id))

    async def _bot_turns(self, match_id: str) -> None:
        try:
            while True:
                await asyncio.sleep(self.settings.bot_delay_seconds)
                rec = await self._get(match_id)
                colour = self._bot_to_move(rec)
                if colour is None:
                    newest = self._cache.get(match_id)
                    if newest is None or newest.version == rec.version:
                        return
                    continue
                level = rec.seats[colour].bot
                action = bots.LEVELS[level](rec.state, self._rng)  # type: ignore[index]
                try:
                    await self.act(match_id, colour, action, rec.version)
                except (StaleVersion, MatchIsOver):
                    continue
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the bot of match %s failed", match_id)
        finally:
            self._bots.pop(match_id, None)

    async def idle(self) -> None:
        """Wait until no bot has a move to make (for tests)."""
        while self._bots:
            await asyncio.gather(*list(self._bots.values()), return_exceptions=True)

    async def close(self) -> None:
        tasks = list(self._bots.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def _nothing(rec: Record, now: int) -> None:
    return None


def _bot_level(opponent: str) -> str | None:
    if opponent == "human":
        return None
    if opponent.startswith("bot:") and opponent[4:] in bots.LEVELS:
        return opponent[4:]
    raise BadRequest(
        f"opponent is \"human\" or \"bot:<level>\"; the levels are {', '.join(sorted(bots.LEVELS))}")


def _make_cursor(created_at: datetime, match_id: str) -> str:
    raw = json.dumps([created_at.isoformat(), match_id]).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _read_cursor(cursor: str) -> tuple[datetime, str]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        at, match_id = json.loads(raw)
        when = datetime.fromisoformat(at).astimezone(UTC)
        if not isinstance(match_id, str) or not is_match_id(match_id):
            raise ValueError("not a match id")
        return when, match_id
    except (ValueError, TypeError, OverflowError, binascii.Error):
        raise BadRequest("cursor is not one this server gave out") from None


__all__ = ["Acted", "MatchService", "Seated", "hash_token"]
