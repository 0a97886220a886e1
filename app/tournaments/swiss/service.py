"""Swiss events: made by an account with a fixed number of rounds; players
join before the start, or late (as on lichess: until the last round is
paired, the rounds missed scoring nothing); each round pairs every player
present by the FIDE Dutch system (dutch.py), the pairing-allocated bye
scoring a win.

The next round is paired once its interval has passed since the round before
was paired AND every game of that round is over (the first round: at the
start). The tick every process runs (app/db/ticking.py), and the end of a game heard
on this process, move events on; the database decides who pairs a round
(store.pair_round), so it is paired once however many processes try.
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
from app.matches import Gateway
from app.matches.lobby import new_match_id
from app.matches.pairing import Paired, Player
from app.ratings import NEW
from app.rules import VARIANTS

from ..errors import NoSuchTournament, NotInTournament, Refused, TournamentOver
from ..store import result_of
from . import store, trf
from .dutch import Unpairable, pair_round
from .tiebreaks import standings

log = logging.getLogger(__name__)
REALTIME = re.compile(r"^([1-9][0-9]?)\+([0-9]{1,2})$")  # minutes + increment seconds
MOST_ROUNDS = 50
MOST_DAYS = 14  # a correspondence move's days
MOST_INTERVAL_SECONDS = 7 * 24 * 3600
MOST_AHEAD_SECONDS = 30 * 24 * 3600
SHOWN_PAIRINGS = 200


@dataclass(frozen=True, slots=True)
class NewSwiss:
    name: str
    variant: str
    time_control: Any  # "5+3", or {"type": "correspondence", "days": 3}
    rounds: int
    round_interval_seconds: int
    starts_in_seconds: int
    rated: bool


def status_of(event: store.Event, now_ms: int) -> str:
    if event.finished_ms is not None:
        return "finished"
    return "started" if now_ms >= event.starts_ms else "created"


def control_body(stored: str) -> Any:
    """The time control as a client gives it: "5+3", or the correspondence object."""
    if stored.endswith("d"):
        return {"type": "correspondence", "days": int(stored[:-1])}
    return stored


def match_control(stored: str) -> dict[str, Any]:
    if stored.endswith("d"):
        return {"type": "correspondence", "days": int(stored[:-1])}
    minutes, increment = (int(n) for n in stored.split("+"))
    return {"type": "realtime", "minutes": minutes, "increment": increment}


class Swisses:
    def __init__(self, engine: AsyncEngine, gateway: Gateway) -> None:
        self.engine, self.gateway = engine, gateway
        self.clock: Callable[[], float] = time.time  # seconds since the epoch; tests move it
        self._settling: set[asyncio.Task[None]] = set()

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    # ---- making and joining --------------------------------------------------------

    async def create(self, account_id: int, new: NewSwiss) -> str:
        stored = check(new)
        now = self.now_ms()
        event = store.Event(new_match_id(), new.name.strip(), new.variant, stored, new.rated,
                            now + new.starts_in_seconds * 1000, new.rounds, new.round_interval_seconds, 0,
                            now + new.starts_in_seconds * 1000, None)
        await store.create(self.engine, event, account_id, now)
        return event.id

    async def is_swiss(self, tournament_id: str) -> bool:
        return await store.event(self.engine, tournament_id) is not None

    async def join(self, tournament_id: str, account_id: int, name: str) -> None:
        event = await self._event(tournament_id)
        now = self.now_ms()
        if event.finished_ms is not None or event.round >= event.rounds:
            raise TournamentOver("the Swiss event's last round is paired: nobody joins it now")
        if event.rated:
            await playban.check(self.engine, account_id, moment(now))
        rating = await store.rating_of(self.engine, account_id, event.variant)
        await store.join(self.engine, event.id, account_id, name, rating if rating is not None else NEW.rating, now)

    async def withdraw(self, tournament_id: str, account_id: int) -> None:
        event = await self._event(tournament_id)
        if event.finished_ms is not None:
            raise TournamentOver("the Swiss event is over: there is nothing to withdraw from")
        if not await store.withdraw(self.engine, event.id, account_id):
            raise NotInTournament("you have not joined this Swiss event")

    async def _event(self, tournament_id: str) -> store.Event:
        event = await store.event(self.engine, tournament_id)
        if event is None:
            raise NoSuchTournament(f"no tournament {tournament_id!r}: GET /api/v1/tournaments lists them")
        return event

    # ---- rounds --------------------------------------------------------------------

    async def advance(self, tournament_id: str) -> None:
        """Whatever is due now: the matches of a round paired and not made yet,
        the next round paired, or the event's end."""
        event = await self._event(tournament_id)
        await self._make_matches(event)
        now = self.now_ms()
        if event.finished_ms is not None or now < event.next_round_ms:
            return
        rows = await store.games_of(self.engine, event.id)
        if any(r.status != "finished" for r in rows):
            return  # the round is still on
        if event.round >= event.rounds:
            await store.finish(self.engine, event.id, now)
            return
        try:
            paired = await store.pair_round(self.engine, event.id, event.round, self._pairer(event), now)
        except Unpairable as exc:
            log.info("Swiss %s ends after round %s: %s", event.id, event.round, exc)
            await store.finish(self.engine, event.id, now)
            return
        if paired:
            await self._make_matches(event)

    def _pairer(self, event: store.Event) -> store.Pairer:
        def pairer(entrants: list[Any], games: list[Any], present: set[int]) -> list[Any]:
            return pair_round(entrants, games, event.round, event.rounds, present)
        return pairer

    async def _make_matches(self, event: store.Event) -> None:
        options = {"variant": event.variant, "time_control": match_control(event.time_control)}
        for row in await store.pending(self.engine, event.id):
            players = (Player(row.white_name, row.white, row.white_name),
                       Player(row.black_name, row.black, row.black_name))

            async def claim(conn: AsyncConnection, paired: Paired, game_id: int = row.id) -> None:
                await store.claim(conn, game_id, paired.match_id)

            try:
                await self.gateway.pair(options, players, event.rated, claim, first_colour="white")
            except store.Lost:
                continue  # another process made it

    # ---- endings -------------------------------------------------------------------

    async def settle(self, tournament_id: str | None = None, match_id: str | None = None) -> int:
        done = await store.ended(self.engine, tournament_id, match_id)
        now = self.now_ms()
        touched = set()
        for g in done:
            await store.settle(self.engine, g.id, result_of(g.result), now)
            touched.add(g.tournament_id)
        for tid in sorted(touched):
            await self.advance(tid)
        return len(done)

    async def tick(self) -> None:
        await self.settle()
        for tid in sorted(set(await store.unfinished(self.engine, self.now_ms()))):
            await self.advance(tid)

    async def publish(self, match_id: str, updates: Sequence[Mapping[str, Any]]) -> None:
        """A listener of the match service's commits: a Swiss game's end is
        written at once (the next round waits for its interval all the same)."""
        if updates and (updates[-1].get("match") or {}).get("status") == "finished":
            task = asyncio.get_running_loop().create_task(self._settle_quietly(match_id))
            self._settling.add(task)
            task.add_done_callback(self._settling.discard)

    async def _settle_quietly(self, match_id: str) -> None:
        try:
            await self.settle(match_id=match_id)
        except Exception:  # the tick writes it later
            log.exception("settling Swiss match %s failed; the tick will", match_id)

    async def settled(self) -> None:
        """Waits for the endings heard so far to be written (tests, shutdown)."""
        while self._settling:
            await asyncio.gather(*list(self._settling), return_exceptions=True)

    async def close(self) -> None:
        await self.settled()

    # ---- reading -------------------------------------------------------------------

    async def view(self, tournament_id: str) -> dict[str, Any]:
        event = await self._event(tournament_id)
        joined = await store.players_of(self.engine, event.id)
        rows = await store.games_of(self.engine, event.id)
        names = {p.account_id: p.name for p in joined}
        active = {p.account_id: p.active for p in joined}
        body = summary(event, self.now_ms())
        body["standings"] = [
            {"rank": s.rank, "name": s.name, "score": s.score / 2, "games": s.games, "buchholz": s.buchholz / 2,
             "sonneborn_berger": s.sonneborn_berger / 4, "withdrawn": not active[s.key]}
            for s in standings([store.entrant(p) for p in joined], [store.game(r) for r in rows])]
        newest = sorted(rows, key=lambda r: (-r.round, r.board))[:SHOWN_PAIRINGS]
        body["pairings"] = [{"round": r.round, "board": r.board, "match": r.match_id, "white": names.get(r.white),
                             "black": names.get(r.black) if r.black is not None else None,
                             "status": r.status, "result": r.result} for r in newest]
        return body

    async def summaries(self, ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        """The Swiss events among `ids`, each as the tournaments' list shows it."""
        now = self.now_ms()
        return {tid: summary(e, now) for tid, e in (await store.events_among(self.engine, ids)).items()}

    async def trf(self, tournament_id: str) -> str:
        """The event as a TRF-16 file: the rounds whose every game is over."""
        event = await self._event(tournament_id)
        joined = await store.players_of(self.engine, event.id)
        rows = await store.games_of(self.engine, event.id)
        played = event.round
        if any(r.status != "finished" for r in rows if r.round == played):
            played -= 1
        ends = event.finished_ms if event.finished_ms is not None else self.now_ms()
        return trf.text(event.name, event.starts_ms, ends, _control_words(event.time_control), event.rounds,
                        [store.entrant(p) for p in joined], [store.game(r) for r in rows], played)


def _control_words(stored: str) -> str:
    if stored.endswith("d"):
        return f"correspondence, {stored[:-1]} days a move"
    minutes, increment = stored.split("+")
    return f"{minutes} minutes + {increment} seconds a move"


def summary(event: store.Event, now_ms: int) -> dict[str, Any]:
    return {"id": event.id, "kind": "swiss", "name": event.name, "status": status_of(event, now_ms),
            "variant": event.variant, "time_control": control_body(event.time_control), "rated": event.rated,
            "starts_at": stamp(event.starts_ms), "rounds": event.rounds, "round": event.round,
            "round_interval_seconds": event.round_interval_seconds,
            "next_round_at": None if event.finished_ms is not None else stamp(event.next_round_ms)}


def _whole(value: Any, low: int, high: int) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and low <= value <= high


def check(new: NewSwiss) -> str:
    """Refuses a new event's bad field, naming it; answers the time control as stored."""
    if not isinstance(new.name, str) or not 2 <= len(new.name.strip()) <= 48:
        raise Refused("name", "name is 2 to 48 characters")
    try:
        check_text("name", new.name, line_breaks=False)
    except BadRequest as exc:
        raise Refused("name", exc.detail) from exc
    if new.variant not in VARIANTS:
        raise Refused("variant", f"variant is one of {', '.join(sorted(VARIANTS))}")
    control = new.time_control
    if isinstance(control, str) and REALTIME.match(control):
        stored = control
    elif (isinstance(control, dict) and set(control) == {"type", "days"} and control["type"] == "correspondence"
          and _whole(control["days"], 1, MOST_DAYS)):
        stored = f"{control['days']}d"
    else:
        raise Refused("time_control", 'time_control is "<minutes>+<increment seconds>", as "5+3", or '
                                      f'{{"type": "correspondence", "days": 1 to {MOST_DAYS}}}')
    if not _whole(new.rounds, 1, MOST_ROUNDS):
        raise Refused("rounds", f"rounds is a whole number from 1 to {MOST_ROUNDS}")
    if not _whole(new.round_interval_seconds, 0, MOST_INTERVAL_SECONDS):
        raise Refused("round_interval_seconds",
                      f"round_interval_seconds is a whole number from 0 to {MOST_INTERVAL_SECONDS}")
    if not _whole(new.starts_in_seconds, 0, MOST_AHEAD_SECONDS):
        raise Refused("starts_in_seconds", f"starts_in_seconds is a whole number from 0 to {MOST_AHEAD_SECONDS}")
    if not isinstance(new.rated, bool):
        raise Refused("rated", "rated is true or false")
    return stored
