"""The chat's service: who writes in which room, lines stored and read, reports,
and the admins' hides and mutes. Every write ends with a nudge of
`chat:<match id>` (after its commit), which wakes the relays of every process.

Who is who in a match: the caller a seat's token or the account holding a seat
proves is a player, writing and reading the players' room; anyone else is a
spectator, in the spectators' room, and never reads the players'. A writer
with no account (a guest's seat, a spectator not signed in) writes only the
stock phrases. The flood limits count per writer (`author_key`) across
matches; one writer's lines are checked and stored one at a time (app/db/turns.py),
so lines sent at the same instant are counted as any others.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.account_models import accounts
from app.db.chat_models import chat_lines, chat_mutes, chat_reports
from app.db.turns import one_at_a_time
from app.kernel import text as stored_text
from app.kernel.errors import BadRequest, NotFound
from app.kernel.moments import stamp
from app.matches import Caller, Gateway
from app.matches.record import other
from app.notify import Channels
from app.realtime.nudges import Nudges

from .errors import ComputerOpponent, Muted, ReportKept, WrongRoom
from .flood import FLOOD_SECONDS, ROOMS, Earlier, checked, not_flooding
from .handled import tell_reporters

SHOWN = 100  # lines a reader is sent at once: the last of the room
REPORT_REASONS = ("abuse", "spam", "cheating", "other")  # why a line is reported, as the report asks
UNDO_SECONDS = 60  # a report may be withdrawn this long after it was made (a press by mistake)
MAX_MUTE_DAYS = 366


@dataclass(frozen=True, slots=True)
class Writer:
    """Who calls, as the chat sees them."""

    room: str  # the room they write and read
    name: str  # the name shown with their lines
    key: str  # what the flood limits count
    account_id: int | None
    seat: str | None  # a player's colour

    @property
    def guest(self) -> bool:
        return self.account_id is None


def key_of(match_id: str) -> str:
    return f"chat:{match_id}"


def _ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def shown(row: Any) -> dict[str, Any]:
    """A line as the players or the spectators are sent it: nothing but what they see."""
    return {"id": row.id, "room": row.room, "author": row.author, "seat": row.seat, "text": row.text,
            "at": stamp(_ms(row.at))}


def chat_line(row: Any) -> dict[str, Any]:
    """A line as a match's stream sends it (as lichess's game stream names it):
    `username` is the author's shown name, beside the line's other public fields."""
    return {"type": "chatLine", "room": row.room, "username": row.author, "text": row.text, "id": row.id,
            "seat": row.seat, "at": stamp(_ms(row.at))}


class Chat:
    def __init__(self, engine: AsyncEngine, gateway: Gateway, nudges: Nudges,
                 clock: Callable[[], float] = time.time, flood_seconds: float = FLOOD_SECONDS,
                 channels: Channels | None = None) -> None:
        self.engine, self.gateway, self.nudges = engine, gateway, nudges
        self.channels = channels or Channels()  # a handled report is told by these and the inbox (handled.py)
        self.flood_seconds = flood_seconds
        self.clock = clock  # tests move it on

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.clock(), UTC)

    async def writer(self, match_id: str, caller: Caller) -> Writer:
        """The caller's room and name in this match (NotFound, Unauthorized for a bad seat token)."""
        colour, seat = await self.gateway.seat_of(match_id, caller)
        if colour is not None and seat is not None:
            if seat.account_id is not None:
                return Writer("players", seat.account or seat.name, f"account:{seat.account_id}",
                              seat.account_id, colour)
            return Writer("players", seat.name or colour.capitalize(), f"seat:{match_id}:{colour}", None, colour)
        if caller.account_id is not None:
            return Writer("spectators", caller.account or "?", f"account:{caller.account_id}", caller.account_id,
                          None)
        return Writer("spectators", "Guest", f"address:{(caller.address or '-')[:100]}", None, None)

    async def post(self, match_id: str, caller: Caller, text: object, room: str | None = None) -> dict[str, Any]:
        """Store one line in the caller's room and wake every process's readers."""
        await self.gateway.count_write(caller)  # the same write budget as every other write
        who = await self.writer(match_id, caller)
        if room is not None and room != who.room:
            raise WrongRoom(f"you write in the {who.room}' chat, not the {room}'"
                            if room in ROOMS else f"room is one of {', '.join(ROOMS)}")
        if who.seat is not None and await self._against_computer(match_id, who.seat):
            raise ComputerOpponent("your opponent is the computer: it reads no chat")
        now = self.now()
        async with self.engine.begin() as conn:
            # The flood check and the insert, one line of this writer at a time.
            await one_at_a_time(conn, f"chat:{who.key}")
            if who.account_id is not None:
                until = (await conn.execute(select(chat_mutes.c.until).where(
                    chat_mutes.c.account_id == who.account_id, chat_mutes.c.until > now))).scalar()
                if until is not None:
                    raise Muted(f"you are muted in chat until {stamp(_ms(until))}", until=stamp(_ms(until)))
            line = checked(text, who.guest)
            earlier = [Earlier(r.text, r.at) for r in await conn.execute(
                select(chat_lines.c.text, chat_lines.c.at).where(chat_lines.c.author_key == who.key)
                .order_by(chat_lines.c.id.desc()).limit(4))]
            not_flooding(line, earlier, now, self.flood_seconds)
            row = (await conn.execute(chat_lines.insert().values(
                match_id=match_id, room=who.room, author=who.name[:64], author_key=who.key,
                account_id=who.account_id, seat=who.seat, text=line, at=now, reports=0,
            ).returning(*chat_lines.c))).one()
        self.nudges.nudge(key_of(match_id))
        return shown(row)

    async def _against_computer(self, match_id: str, seat: str) -> bool:
        rec = await self.gateway.service.keeper.get(match_id)
        opponent = rec.seats.get(other(seat))
        return opponent is not None and opponent.bot is not None

    async def read(self, match_id: str, caller: Caller, after: int = 0) -> tuple[Writer, list[dict[str, Any]]]:
        """The caller's room's visible lines after line `after` (the last SHOWN)."""
        who = await self.writer(match_id, caller)
        rows = await self.lines(match_id, after)
        return who, [shown(r) for r in rows if r.room == who.room and r.hidden_at is None][-SHOWN:]

    async def lines(self, match_id: str, after: int = 0, limit: int = 400) -> list[Any]:
        """Both rooms' lines after `after`, hidden ones too, oldest first (the last `limit`)."""
        async with self.engine.connect() as conn:
            rows = list(await conn.execute(
                select(chat_lines).where(chat_lines.c.match_id == match_id, chat_lines.c.id > after)
                .order_by(chat_lines.c.id.desc()).limit(limit)))
        return rows[::-1]

    async def newest_line(self, match_id: str) -> int:
        """The id of the match's newest line (0: none yet): a stream reads the lines after it."""
        async with self.engine.connect() as conn:
            newest = (await conn.execute(select(func.max(chat_lines.c.id)).where(
                chat_lines.c.match_id == match_id))).scalar()
        return int(newest or 0)

    async def muted_until(self, account_id: int | None) -> str | None:
        if account_id is None:
            return None
        async with self.engine.connect() as conn:
            until = (await conn.execute(select(chat_mutes.c.until).where(
                chat_mutes.c.account_id == account_id, chat_mutes.c.until > self.now()))).scalar()
        return stamp(_ms(until)) if until is not None else None

    async def report(self, match_id: str, caller: Caller, line_id: int, reason: str = "other") -> None:
        """Put a line the caller can see in the admins' queue, with why: once per
        reporter (an account, a guest's seat, a guest spectator's address),
        however often they press Report."""
        if reason not in REPORT_REASONS:
            raise BadRequest(f"reason is one of {', '.join(REPORT_REASONS)}")
        await self.gateway.count_write(caller)
        who = await self.writer(match_id, caller)
        now = self.now()
        async with self.engine.begin() as conn:
            await one_at_a_time(conn, f"chat-report:{who.key}")  # the look and the insert below, together
            row = await self._reportable(conn, match_id, line_id, who.room)
            known = (await conn.execute(select(chat_reports.c.at).where(
                chat_reports.c.line_id == line_id, chat_reports.c.reporter == who.key))).first()
            if known is not None:
                return  # reported by this reporter already: it counts once
            await conn.execute(chat_reports.insert().values(line_id=line_id, reporter=who.key, at=now, reason=reason))
            await conn.execute(update(chat_lines).where(chat_lines.c.id == line_id).values(
                reports=chat_lines.c.reports + 1, reported_at=row.reported_at or now))

    async def withdraw_report(self, match_id: str, caller: Caller, line_id: int) -> None:
        """Take back the caller's report of a line within UNDO_SECONDS of making
        it; the line leaves the queue when no other report holds it there."""
        await self.gateway.count_write(caller)
        who = await self.writer(match_id, caller)
        now = self.now()
        async with self.engine.begin() as conn:
            await one_at_a_time(conn, f"chat-report:{who.key}")
            await self._reportable(conn, match_id, line_id, who.room)
            made = (await conn.execute(select(chat_reports.c.at).where(
                chat_reports.c.line_id == line_id, chat_reports.c.reporter == who.key))).scalar()
            if made is None:
                raise NotFound(f"you have not reported line {line_id}")
            waited = (now - made).total_seconds()
            if waited > UNDO_SECONDS:
                raise ReportKept(f"a report is withdrawn within {UNDO_SECONDS} s of making it; "
                                 f"this one was made {int(waited)} s ago and stands")
            await conn.execute(chat_reports.delete().where(
                chat_reports.c.line_id == line_id, chat_reports.c.reporter == who.key))
            # The count, not the reporters' rows, says what is left: reports made before
            # reporters were kept have no row. None left: the line leaves the queue.
            await conn.execute(update(chat_lines).where(chat_lines.c.id == line_id).values(
                reports=chat_lines.c.reports - 1))
            await conn.execute(update(chat_lines).where(chat_lines.c.id == line_id, chat_lines.c.reports <= 0)
                               .values(reports=0, reported_at=None))

    async def _reportable(self, conn: Any, match_id: str, line_id: int, room: str) -> Any:
        """The line (its room and when it was first reported), if the caller's room shows it."""
        row = (await conn.execute(select(chat_lines.c.room, chat_lines.c.reported_at).where(
            chat_lines.c.id == line_id, chat_lines.c.match_id == match_id,
            chat_lines.c.hidden_at.is_(None)))).first()
        if row is None or row.room != room:
            raise NotFound(f"no line {line_id} in this match's {room}' chat")
        return row

    # ---- the admins' side (app/admin/chat_pages.py writes the audit log) ----------

    async def hide(self, line_id: int, admin: str) -> dict[str, Any]:
        """Hide a line from everyone; the line as it was (its match, text, author)."""
        async with self.engine.begin() as conn:
            row = (await conn.execute(select(chat_lines).where(chat_lines.c.id == line_id))).first()
            if row is None:
                raise NotFound(f"no chat line {line_id}")
            hidden = await conn.execute(update(chat_lines).where(chat_lines.c.id == line_id,
                                                                 chat_lines.c.hidden_at.is_(None))
                                        .values(hidden_at=self.now(), hidden_by=admin[:64]))
            told = (await tell_reporters(conn, line_id, row.match_id, "hidden", self.channels.names,
                                         int(self.clock() * 1000)) if hidden.rowcount == 1 else [])
        self.nudges.nudge(key_of(row.match_id))
        self.channels.told(told)
        return {"id": row.id, "match_id": row.match_id, "room": row.room, "author": row.author, "text": row.text}

    async def mute(self, account: str, minutes: int, reason: str, admin: str) -> dict[str, Any]:
        """Mute an account (by name) in every chat for `minutes` (0: lift the mute)."""
        if not 0 <= minutes <= MAX_MUTE_DAYS * 24 * 60:
            raise BadRequest(f"minutes is from 0 to {MAX_MUTE_DAYS * 24 * 60}")
        account = stored_text.check("account", account, line_breaks=False)
        reason = stored_text.check("reason", reason.strip())[:500]
        if minutes and not reason:
            raise BadRequest("a mute needs a reason")
        now = self.now()
        async with self.engine.begin() as conn:
            account_id = (await conn.execute(select(accounts.c.id).where(
                accounts.c.name_lower == account.strip().lower()))).scalar()
            if account_id is None:
                raise NotFound(f"no account {account.strip()[:40]!r}")
            await conn.execute(chat_mutes.delete().where(chat_mutes.c.account_id == account_id))
            until = now + timedelta(minutes=minutes)
            if minutes:
                await conn.execute(chat_mutes.insert().values(account_id=account_id, until=until, muted_by=admin[:64],
                                                              reason=reason, at=now))
        return {"account_id": account_id, "until": stamp(_ms(until)) if minutes else None}

    async def reported(self, limit: int = 100) -> list[dict[str, Any]]:
        """The admins' queue: reported lines not yet hidden, the oldest report first."""
        async with self.engine.connect() as conn:
            rows = list(await conn.execute(
                select(chat_lines).where(chat_lines.c.reported_at.is_not(None), chat_lines.c.hidden_at.is_(None))
                .order_by(chat_lines.c.reported_at, chat_lines.c.id).limit(limit)))
            why = list(await conn.execute(
                select(chat_reports.c.line_id, chat_reports.c.reason).where(
                    chat_reports.c.line_id.in_([r.id for r in rows]))))
        reasons: dict[int, dict[str, int]] = {}
        for line_id, reason in why:  # a report made before reasons were asked counts as "other"
            counted = reasons.setdefault(line_id, {})
            counted[reason or "other"] = counted.get(reason or "other", 0) + 1
        return [{**admin_view(r), "reasons": reasons.get(r.id, {})} for r in rows]

    async def dismiss(self, line_id: int) -> None:
        """Take a line out of the queue, left as it is."""
        async with self.engine.begin() as conn:
            found = await conn.execute(update(chat_lines).where(chat_lines.c.id == line_id,
                                                                chat_lines.c.reported_at.is_not(None))
                                       .values(reported_at=None).returning(chat_lines.c.match_id))
            match_id = found.scalar()
            told = (await tell_reporters(conn, line_id, match_id, "dismissed", self.channels.names,
                                         int(self.clock() * 1000)) if match_id is not None else [])
        self.channels.told(told)


def admin_view(row: Any) -> dict[str, Any]:
    """A line as the admins and the export see it: with its reports and whether it is hidden."""
    return {**shown(row), "match_id": row.match_id, "reports": row.reports,
            # A line written with an account is shown with the account's name: the one a mute takes.
            "account": row.author if row.account_id is not None else None,
            "hidden": row.hidden_at is not None, "hidden_by": row.hidden_by}
