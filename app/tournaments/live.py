"""An arena, live: its standings, pairings and clock pushed to whoever watches
it on this process (a socket or a stream), never polled.

Every change of an arena (a join, a withdrawal, a game made, a game's end, its
start and end; service.py's `on_change`) rings the nudge `arena:<id>` here and
on every other process (the realtime bus: PostgreSQL LISTEN/NOTIFY between
processes). One task per arena watched here wakes on it, reads the arena once,
makes each page's message once (board.py), and offers the same text to every
watcher of that page; then it waits at least `every` seconds before reading
again, so that a burst of endings costs one reading. Nothing rings at the
moment an arena starts or ends by itself: the task wakes then by its own
timer, and reads again every `recheck` seconds should a nudge be lost.

A watcher holds one slot per kind of message: a slow reader is sent the newest
standings, never a backlog. A player who joined is also sent their own line
(`me`), and `yourGame` each time they are paired: their page opens the game.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from app.kernel.moments import now_stamp
from app.realtime.nudges import Nudges, Waiter

from . import store
from .board import Board, board_of, dumps
from .errors import NoSuchTournament
from .service import Arenas, standings, summary

log = logging.getLogger("magery.tournaments")
PREFIX = "arena:"


def key_of(tournament_id: str) -> str:
    return PREFIX + tournament_id


class Watcher:
    """One socket or stream of an arena: the messages waiting for it, newest of each kind."""

    __slots__ = ("account_id", "game", "page", "ready", "seen", "sent", "slots")

    def __init__(self, account_id: int | None, page: int) -> None:
        self.account_id, self.page = account_id, page
        self.slots: dict[str, str] = {}
        self.ready = asyncio.Event()
        self.sent: dict[str, str] = {}  # kind → the text last offered, so the same is not sent twice
        self.game: str | None = None  # the arena game it was last told of
        self.seen = False  # it was sent a board: a game after that is a new pairing

    def offer(self, kind: str, text: str) -> None:
        if self.sent.get(kind) == text:
            return
        self.sent[kind] = text
        self.slots[kind] = text
        self.ready.set()

    def tell(self, kind: str, text: str) -> None:
        """Send `text` even when it was sent before (an answer: `pong`, `error`)."""
        self.slots[kind] = text
        self.ready.set()

    async def next(self, timeout: float | None = None) -> list[str]:
        """What waits for it, oldest kind first ([] when `timeout` passed first)."""
        if not self.slots:
            try:
                await asyncio.wait_for(self.ready.wait(), timeout)
            except TimeoutError:
                return []
        self.ready.clear()
        out = list(self.slots.values())
        self.slots.clear()
        return out


class _Watched:
    __slots__ = ("board", "task", "waiter", "watchers")

    def __init__(self) -> None:
        self.watchers: set[Watcher] = set()
        self.board: Board | None = None
        self.task: asyncio.Task[None] | None = None
        self.waiter: Waiter | None = None


class ArenaLive:
    def __init__(self, arenas: Arenas, nudges: Nudges, every: float = 0.5, recheck: float = 15.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.arenas, self.nudges, self.every, self.recheck, self.clock = arenas, nudges, every, recheck, clock
        self._watched: dict[str, _Watched] = {}
        self.readings = 0  # arenas read to push (for tests and bench/)
        self.pause: Callable[[float], Awaitable[None]] = asyncio.sleep  # the wait between readings; tests hold it
        arenas.on_change(self.changed)

    def changed(self, tournament_id: str) -> None:
        """An arena changed here: every process's watchers of it hear."""
        self.nudges.nudge(key_of(tournament_id))

    async def watch(self, tournament_id: str, account_id: int | None, page: int = 1) -> Watcher:
        """A new watcher of the arena (NoSuchTournament when there is none), sent
        a `hello` and what the arena shows now as soon as it is known."""
        watched = self._watched.get(tournament_id)
        if watched is None or watched.board is None:
            if await store.arena(self.arenas.engine, tournament_id) is None:
                raise NoSuchTournament(f"no tournament {tournament_id!r}: GET /api/v1/tournaments lists them")
            watched = self._watched.get(tournament_id)
        if watched is None:
            watched = self._watched[tournament_id] = _Watched()
        watcher = Watcher(account_id, max(1, page))
        watcher.offer("hello", dumps({"type": "hello", "tournament": tournament_id, "server_time": now_stamp()}))
        watched.watchers.add(watcher)
        if watched.board is not None:
            self._send(watched.board, watcher)
        if watched.task is None or watched.task.done():
            watched.task = asyncio.create_task(self._run(tournament_id, watched), name=f"arena-live-{tournament_id}")
        return watcher

    def turn(self, tournament_id: str, watcher: Watcher, page: int) -> None:
        """The watcher asks for another page of the standings."""
        watcher.page = max(1, page)
        watched = self._watched.get(tournament_id)
        if watched is not None and watched.board is not None:
            watcher.offer("arena", watched.board.page_text(watcher.page))

    def leave(self, tournament_id: str, watcher: Watcher) -> None:
        watched = self._watched.get(tournament_id)
        if watched is None:
            return
        watched.watchers.discard(watcher)
        if not watched.watchers and watched.waiter is not None:
            watched.waiter.ring()  # its task ends

    def watching(self) -> int:
        """Arenas with a watcher here (for tests)."""
        return sum(1 for w in self._watched.values() if w.watchers)

    async def close(self) -> None:
        tasks = [w.task for w in self._watched.values() if w.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._watched.clear()

    async def _run(self, tournament_id: str, watched: _Watched) -> None:
        try:
            with self.nudges.listen(key_of(tournament_id)) as waiter:
                watched.waiter = waiter
                while watched.watchers:
                    began = self.clock()
                    try:
                        await self._refresh(tournament_id, watched)
                    except Exception:  # the database away: the next wake or recheck reads again
                        log.warning("arena %s could not be read for its watchers", tournament_id, exc_info=True)
                    if not watched.watchers:
                        break
                    # At most one reading per `every`: the nudges of a burst wait for the next.
                    rest = self.every - (self.clock() - began)
                    if rest > 0:
                        await self.pause(rest)
                    await waiter.wait(self._timeout(watched.board))
        finally:
            watched.waiter = None
            if self._watched.get(tournament_id) is watched and not watched.watchers:
                del self._watched[tournament_id]

    def _timeout(self, board: Board | None) -> float:
        """Until the arena starts or ends by itself (read then), or the recheck."""
        if board is None:
            return self.recheck
        now = self.arenas.now_ms()
        moments = [m for m in board.moments if m > now]
        if not moments:
            return self.recheck
        return max(0.0, min(self.recheck, (min(moments) - now) / 1000 + 0.01))

    async def _refresh(self, tournament_id: str, watched: _Watched) -> None:
        board = await self.read(tournament_id)
        self.readings += 1
        watched.board = board
        for watcher in list(watched.watchers):
            self._send(board, watcher)

    async def read(self, tournament_id: str) -> Board:
        arena = await store.arena(self.arenas.engine, tournament_id)
        if arena is None:
            raise NoSuchTournament(f"no tournament {tournament_id!r}")
        joined = await store.players_of(self.arenas.engine, arena.id)
        played = await store.games_of(self.arenas.engine, arena.id)
        shown = summary(arena, self.arenas.now_ms())
        board = board_of(shown, standings(joined, played), joined, played)
        board.moments = (arena.starts_ms, arena.ends_ms)
        return board

    def _send(self, board: Board, watcher: Watcher) -> None:
        watcher.offer("arena", board.page_text(watcher.page))
        account = watcher.account_id
        if account is None:
            return
        watcher.offer("me", board.me_text(account))
        mine = board.mine.get(account)
        game = None if mine is None else mine.game
        if game is not None and game != watcher.game and watcher.seen:  # paired since it last heard
            text = board.game_text(account)
            if text is not None:
                watcher.offer("yourGame", text)
        watcher.game, watcher.seen = game, True

