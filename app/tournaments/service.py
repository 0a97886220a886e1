"""Arenas: made by an account, joined and left at will, and every free player
paired at once, again and again until the arena ends.

A join pairs the arena now; a game's end (heard from the match service's
commits on this process, app/wiring.py, or found by the tick every process
runs, for an ending committed elsewhere or missed) writes the game's points
and pairs its players again. The database decides: a pairing claims both
players in the transaction that makes the match (a round's games all in one:
round_claims.py), so however many processes pair at once, nobody plays two
games at once.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from app.accounts import playban
from app.kernel.errors import BadRequest
from app.kernel.moments import moment, stamp
from app.kernel.text import check as check_text
from app.matches import Caller, Gateway
from app.matches.lobby import new_match_id
from app.matches.pairing import Paired, Player
from app.notify import Channels
from app.ratings import NEW
from app.realtime.nudges import Nudges
from app.rules import VARIANTS

from . import entry, people, player_games, podium, store
from .berserk import go_berserk
from .errors import NoSuchTournament, NotInTournament, Refused, TournamentOver
from .look import look
from .pairing import Waiting, pairs
from .round_claims import Game, claim_round
from .schedule import Schedule
from .scoring import Outcome, Sheet, sheet_of
from .standings import Result, Standing, performance, ranked
from .starting import tell_started

log = logging.getLogger(__name__)
CONTROL = re.compile(r"^([1-9][0-9]?)\+([0-9]{1,2})$")  # minutes + increment seconds: an arena is real-time
MOST_MINUTES = 24 * 60  # an arena lasts a day at most
MOST_AHEAD_SECONDS = 30 * 24 * 3600  # and starts within a month
SHOWN_PAIRINGS = 100
RETRIES = 3  # rounds of pairing when another process took some of the players first


@dataclass(frozen=True, slots=True)
class NewArena:
    name: str
    variant: str
    time_control: str
    minutes: int
    starts_in_seconds: int
    rated: bool
    password: str | None = None  # rules of entry (entry.py)
    min_rating: int | None = None
    max_rating: int | None = None
    bots: bool = False


def status_of(arena: store.Arena, now_ms: int) -> str:
    if arena.cancelled_ms is not None:  # by an admin: over at once
        return "finished"
    if now_ms < arena.starts_ms:
        return "created"
    return "started" if now_ms < arena.ends_ms else "finished"


class Arenas:
    def __init__(self, engine: AsyncEngine, gateway: Gateway, nudges: Nudges | None = None,
                 schedule: Schedule | None = None, channels: Channels | None = None) -> None:
        self.engine, self.gateway = engine, gateway
        self.nudges = nudges  # rings each paired player's live channel (app/people/channel.py) at once
        self.schedule = schedule  # the arenas the server makes itself (None: none)
        # An arena's start is told to its players (starting.py) by these channels and the inbox.
        self.channels = channels or Channels()
        self.clock: Callable[[], float] = time.time  # seconds since the epoch; tests move it
        self._settling: set[asyncio.Task[None]] = set()
        self._ticked_ms: int | None = None  # the last tick's moment: arenas that began or ended since are told
        # Arenas an account may make: (window in ms, the most within it); 0 lifts one.
        self.making_limits: tuple[tuple[int, int], ...] = ((entry.HOUR_MS, entry.MADE_PER_HOUR),
                                                            (entry.DAY_MS, entry.MADE_PER_DAY))
        self._hearers: list[Callable[[str], None]] = []  # told each arena that changed (live.py's nudge)
        self._running: set[str] = set()  # what this process's last tick found running

    def on_change(self, hear: Callable[[str], None]) -> None:
        """Call `hear(tournament id)` after each change of an arena made here: a
        join, a withdrawal, a game made, a game's end, its start or end seen by the tick."""
        self._hearers.append(hear)

    def _changed(self, tournament_id: str) -> None:
        for hear in self._hearers:
            try:
                hear(tournament_id)
            except Exception:  # a listener's failure never undoes what was written
                log.warning("a listener of arena %s's changes failed", tournament_id, exc_info=True)

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    # ---- making and joining --------------------------------------------------------

    async def create(self, account_id: int, new: NewArena) -> str:
        check(new)
        now = self.now_ms()
        starts = now + new.starts_in_seconds * 1000
        arena = store.Arena(new_match_id(), new.name, new.variant, new.time_control, new.rated, starts,
                            starts + new.minutes * 60_000,
                            None if new.password is None else entry.hashed(new.password),
                            new.min_rating, new.max_rating, new.bots)
        try:
            await store.create(self.engine, arena, account_id, now, self.making_limits)
        except store.Limited as over:
            window = "day" if over.window_ms >= entry.DAY_MS else "hour"
            raise entry.TooManyArenas(over.most, window, max(1, -(-over.wait_ms // 1000))) from None
        return arena.id

    async def join(self, tournament_id: str, account_id: int, name: str, password: str | None = None) -> None:
        arena = await self._arena(tournament_id)
        now = self.now_ms()
        if status_of(arena, now) == "finished":
            raise TournamentOver("the arena is over: nobody joins it now")
        rating, is_bot = await store.rating_of(self.engine, account_id, arena.variant)
        entry.check_join(password_hash=arena.password_hash, password=password, min_rating=arena.min_rating,
                         max_rating=arena.max_rating, bots=arena.bots,
                         rating=NEW.rating if rating is None else rating, is_bot=is_bot)
        if arena.rated:  # one who left rated matches waits outside, as at the pools
            await playban.check(self.engine, account_id, moment(now))
        await store.join(self.engine, arena.id, account_id, name, now)
        people.ring(self.nudges, [account_id])  # a running arena joined: its tournamentStart
        self._changed(arena.id)
        await self.pair(arena.id)

    async def withdraw(self, tournament_id: str, account_id: int) -> None:
        arena = await self._arena(tournament_id)
        if status_of(arena, self.now_ms()) == "finished":
            raise TournamentOver("the arena is over: there is nothing to withdraw from")
        if not await store.withdraw(self.engine, arena.id, account_id):
            raise NotInTournament("you have not joined this arena")
        self._changed(arena.id)

    async def berserk(self, tournament_id: str, caller: Caller, match_id: str | None = None) -> dict[str, Any]:
        """Halve the caller's clock in their game under way here (berserk.py)."""
        arena = await self._arena(tournament_id)
        return await go_berserk(self.engine, self.gateway, arena, status_of(arena, self.now_ms()), caller, match_id)

    async def _arena(self, tournament_id: str) -> store.Arena:
        arena = await store.arena(self.engine, tournament_id)
        if arena is None:
            raise NoSuchTournament(f"no tournament {tournament_id!r}: GET /api/v1/tournaments lists them")
        return arena

    # ---- pairing -------------------------------------------------------------------

    async def pair(self, tournament_id: str) -> int:
        """Pair every free player of a running arena now; answers how many games
        this process made. A pairing another process got to first is tried
        again from what is left (a few rounds; the tick does the rest)."""
        arena = await self._arena(tournament_id)
        made = 0
        for _ in range(RETRIES):
            if status_of(arena, self.now_ms()) != "started":
                break
            rows = {r.account_id: r for r in await store.waiting(self.engine, arena.id, arena.variant)}
            if len(rows) < 2:
                break
            waiting = [Waiting(str(r.account_id), r.score, r.rating if r.rating is not None else NEW.rating,
                               None if r.last_opponent is None else str(r.last_opponent)) for r in rows.values()]
            chosen = pairs(waiting)
            won = await self._make_round(arena, [(rows[int(a.player)], rows[int(b.player)], (a.rating, b.rating))
                                                 for a, b in chosen])
            made += won
            if won == len(chosen):
                break
        return made

    async def _make_round(self, arena: store.Arena, chosen: list[tuple[Any, Any, tuple[float, float]]]) -> int:
        """Every chosen game made in one transaction (round_claims.py): a game lost
        to another process is left out alone. Answers how many were made."""
        if not chosen:
            return 0
        minutes, increment = (int(n) for n in arena.time_control.split("+"))
        options = {"variant": arena.variant,
                   "time_control": {"type": "realtime", "minutes": minutes, "increment": increment}}
        asked = [(Player(a.name, a.account_id, a.name), Player(b.name, b.account_id, b.name)) for a, b, _ in chosen]

        async def claim(conn: AsyncConnection, made: Sequence[Paired]) -> set[str]:
            return await claim_round(conn, arena.id, [
                Game((a.account_id, b.account_id), ratings_now, paired.match_id, paired.colours)
                for (a, b, ratings_now), paired in zip(chosen, made, strict=True)], self.now_ms())

        answered = await self.gateway.pair_all(options, asked, arena.rated, claim)
        won = [(a, b) for (a, b, _), paired in zip(chosen, answered, strict=True) if paired is not None]
        people.ring(self.nudges, [p.account_id for pair in won for p in pair])  # their matchStart at once
        if won:
            self._changed(arena.id)
        return len(won)

    # ---- endings ---------------------------------------------------------------------

    async def settle(self, tournament_id: str | None = None, match_id: str | None = None) -> int:
        """Write the end of every arena game whose match is over (of one arena, or
        one match; None: all), then pair their arenas again. Answers how many."""
        done = await store.ended(self.engine, tournament_id, match_id)
        now = self.now_ms()
        arenas = set()
        for game in done:
            counted = podium.counts(game.finished_at, game.ends_ms, game.cancelled_ms)
            if await store.settle(self.engine, game.id, game.result, now, counted):
                self._changed(game.tournament_id)
            arenas.add(game.tournament_id)
        for arena_id in sorted(arenas):
            await self.pair(arena_id)
        return len(done)

    async def tick(self) -> None:
        """What every process does now and then: endings written, running arenas
        paired (one that began since the last tick pairs who joined before);
        arenas over closed (their podium kept); the schedule's arenas made.
        One statement (look.py) says which of these would find anything; only
        those are asked, so a tick with nothing to do reads once."""
        now = self.now_ms()
        since = self._ticked_ms if self.nudges is not None else None
        seen = await look(self.engine, since, now)
        if seen.ended:
            await self.settle()
        if since is not None and seen.turned:
            # Every process hears the clock: each wakes its own channels (no bus needed).
            people.ring(self.nudges, await people.turned(self.engine, since, now), everywhere=False)
        self._ticked_ms = now
        if seen.closing:
            for arena_id in await podium.to_close(self.engine, self.now_ms()):
                await podium.close(self.engine, arena_id, self.now_ms(), standings)
                self._changed(arena_id)  # its watchers see the podium
        if self.schedule is not None:
            await self.schedule.tick(self.now_ms())
        if seen.young:
            self.channels.told(await tell_started(self.engine, self.channels.names, self.now_ms()))
        running = set(seen.running)
        for arena_id in sorted(running ^ self._running):  # began or ended since the last tick
            self._changed(arena_id)
        self._running = running
        for arena_id in sorted(a for a, waiting in seen.running.items() if waiting):
            await self.pair(arena_id)

    async def publish(self, match_id: str, updates: Sequence[Mapping[str, Any]]) -> None:
        """A listener of the match service's commits: a match's end is written at
        once, and its players paired again, without holding up the commit."""
        if updates and (updates[-1].get("match") or {}).get("status") == "finished":
            task = asyncio.get_running_loop().create_task(self._settle_quietly(match_id))
            self._settling.add(task)
            task.add_done_callback(self._settling.discard)

    async def _settle_quietly(self, match_id: str) -> None:
        try:
            await self.settle(match_id=match_id)
        except Exception:  # the tick writes it later
            log.warning("writing the end of match %s in its arena failed; the tick will", match_id, exc_info=True)

    async def settled(self) -> None:
        """Once every end heard on this process is written (for tests and a clean stop)."""
        while self._settling:
            await asyncio.gather(*list(self._settling), return_exceptions=True)

    async def close(self) -> None:
        for task in list(self._settling):
            task.cancel()
        await asyncio.gather(*self._settling, return_exceptions=True)

    # ---- reading -----------------------------------------------------------------------

    async def of_person(self, account_id: int) -> list[dict[str, Any]]:
        """The arenas the account joined, not long over: each as listed, with `joined`
        (playing, not withdrawn) and `player` (its name in the standings)."""
        now = self.now_ms()
        return [{**summary(store.row_arena(r), now), "joined": bool(r.active), "player": r.player}
                for r in await people.arenas_of(self.engine, account_id, now)]

    async def arena_of_games(self, match_ids: Sequence[str]) -> dict[str, str]:
        return await people.arena_of_games(self.engine, match_ids)

    async def listing(self, limit: int = 50) -> list[dict[str, Any]]:
        now = self.now_ms()
        return [summary(a, now) for a in await store.listing(self.engine, limit)]

    async def player(self, tournament_id: str, name: str) -> dict[str, Any]:
        """A player's standing and games in the arena (player_games.py)."""
        arena = await self._arena(tournament_id)
        joined = await store.players_of(self.engine, arena.id)
        played = await store.games_of(self.engine, arena.id)
        return player_games.body(name, joined, played,
                                 standings([p for p in joined if p.removed_ms is None], played))

    async def view(self, tournament_id: str) -> dict[str, Any]:
        arena = await self._arena(tournament_id)
        joined = await store.players_of(self.engine, arena.id)
        played = await store.games_of(self.engine, arena.id)
        names = {p.account_id: p.name for p in joined}
        body = summary(arena, self.now_ms())
        body["standings"] = [standing_body(s) for s in standings([p for p in joined if p.removed_ms is None], played)]
        body["pairings"] = [{"match": g.match_id, "white": names.get(g.white), "black": names.get(g.black),
                             "status": g.status, "result": g.result} for g in played[:SHOWN_PAIRINGS]]
        if body["status"] == "finished":
            body["podium"] = await podium.podium_of(self.engine, arena.id)
        return body


def standings(joined: Sequence[Any], played: Sequence[Any]) -> list[Standing]:
    """The ranking: each player's kept sheet, and their performance from the games."""
    results: dict[int, list[Result]] = {p.account_id: [] for p in joined}
    for g in played:
        if g.status != "finished" or g.result == "aborted" or not g.counted:
            continue
        for me, colour, opponent_rating in ((g.white, "white", g.black_rating), (g.black, "black", g.white_rating)):
            results.setdefault(me, []).append(Result(store.OUTCOME[g.result][colour], opponent_rating))
    return ranked([(p.name, store_sheet(p), performance(results[p.account_id])) for p in joined])


def recomputed(joined: Sequence[Any], played: Sequence[Any]) -> dict[int, Sheet]:
    """Each player's sheet made again from the arena's games alone (a player plays
    one game at a time, so the order the games were made is the order they ended)."""
    outcomes: dict[int, list[Outcome]] = {p.account_id: [] for p in joined}
    for g in sorted(played, key=lambda g: g.id):
        if g.status != "finished" or g.result == "aborted" or not g.counted:
            continue
        for me, colour, berserk in ((g.white, "white", g.white_berserk), (g.black, "black", g.black_berserk)):
            outcomes.setdefault(me, []).append(Outcome(store.OUTCOME[g.result][colour], berserk, g.actions))
    return {account: sheet_of(seen) for account, seen in outcomes.items()}


def store_sheet(row: Any) -> Sheet:
    return Sheet(row.score, row.games, row.streak)


def summary(arena: store.Arena, now_ms: int) -> dict[str, Any]:
    return {"id": arena.id, "kind": "arena", "name": arena.name, "status": status_of(arena, now_ms),
            "variant": arena.variant, "time_control": arena.time_control, "rated": arena.rated,
            "starts_at": stamp(arena.starts_ms), "ends_at": stamp(arena.ends_ms),
            "private": arena.password_hash is not None, "min_rating": arena.min_rating,
            "max_rating": arena.max_rating, "bots": arena.bots,
            "scheduled": arena.scheduled, "cancelled": arena.cancelled_ms is not None}


def standing_body(s: Standing) -> dict[str, Any]:
    return {"rank": s.rank, "name": s.name, "score": s.score, "games": s.games, "streak": s.streak,
            "performance": s.performance}


def check(new: NewArena) -> None:
    """Refuses a new arena's bad field, naming it."""
    if not isinstance(new.name, str) or not 2 <= len(new.name.strip()) <= 48:
        raise Refused("name", "name is 2 to 48 characters")
    try:
        check_text("name", new.name, line_breaks=False)
    except BadRequest as exc:
        raise Refused("name", exc.detail) from exc
    if new.variant not in VARIANTS:
        raise Refused("variant", f"variant is one of {', '.join(sorted(VARIANTS))}")
    if not isinstance(new.time_control, str) or not CONTROL.match(new.time_control):
        raise Refused("time_control", 'time_control is "<minutes>+<increment seconds>", as "5+3": '
                                      "1 to 99 minutes, 0 to 99 seconds")
    if isinstance(new.minutes, bool) or not isinstance(new.minutes, int) or not 1 <= new.minutes <= MOST_MINUTES:
        raise Refused("minutes", f"minutes, the arena's length, is a whole number from 1 to {MOST_MINUTES}")
    if (isinstance(new.starts_in_seconds, bool) or not isinstance(new.starts_in_seconds, int)
            or not 0 <= new.starts_in_seconds <= MOST_AHEAD_SECONDS):
        raise Refused("starts_in_seconds", f"starts_in_seconds is a whole number from 0 to {MOST_AHEAD_SECONDS}")
    if not isinstance(new.rated, bool):
        raise Refused("rated", "rated is true or false")
    check_entry(new)


def check_entry(new: NewArena) -> None:
    """Refuses a bad rule of entry, naming its field."""
    if new.password is not None:
        if not isinstance(new.password, str) or not 1 <= len(new.password) <= entry.MOST_PASSWORD:
            raise Refused("password", f"password is 1 to {entry.MOST_PASSWORD} characters (or leave it out)")
        if any(ord(c) < 32 or c == "\x7f" for c in new.password):
            raise Refused("password", "password holds no control characters")
    for field in ("min_rating", "max_rating"):
        value = getattr(new, field)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or not entry.LOWEST_RATING <= value <= entry.HIGHEST_RATING):
            raise Refused(field, f"{field} is a whole number from {entry.LOWEST_RATING} to "
                                 f"{entry.HIGHEST_RATING} (or leave it out)")
    if new.min_rating is not None and new.max_rating is not None and new.min_rating > new.max_rating:
        raise Refused("max_rating", "max_rating is at least min_rating")
    if not isinstance(new.bots, bool):
        raise Refused("bots", "bots is true or false")

