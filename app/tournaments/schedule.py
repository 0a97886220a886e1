"""The arenas the server makes itself, so that players find one at a known hour
whether or not anyone made one: every hour on the hour an arena in the fastest
real-time control of the pools, and every day one in each other real-time
control, in every variant.

Every process's arena tick makes the slots coming up (`due`); each slot has a
key ("hourly:standard:5+3:2026-11-29T10:00Z") kept unique by the database, and
the insert does nothing on a clash, so however many processes make the same
slot at once, one arena is kept.

How far ahead: an hourly arena is made two hours before it begins (the next
two are listed at any time), a daily one a day before; a slot whose arena is
still running when a process first looks (the server was down at its hour) is
made too, so a fresh server has a running arena at once. The list of arenas
(the latest to start first) so holds about twenty upcoming ones, never a
month of them ahead of the running ones.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.tournament_models import tournaments
from app.matches.lobby import new_match_id

HOUR_MS = 3_600_000
DAY_MS = 24 * HOUR_MS
HOURLY_MINUTES = 55  # the last games are played out before the next hour's arena begins
HOURLY_AHEAD_MS = 2 * HOUR_MS
DAILY_AHEAD_MS = DAY_MS
DAILY_FIRST_HOUR = 18  # UTC: the daily arenas begin in the evening in Europe, the afternoon in the Americas
DAILY_MINUTES = 90
LOOK_EVERY_MS = 60_000  # a process looks for slots to make at most once a minute

# A clock's name as players say it, by its length; the words of the variants.
SPEEDS = ((3, "Bullet"), (8, "Blitz"), (20, "Rapid"))  # estimated minutes a player has, up to: the name
SLOWEST = "Classical"
VARIANT_WORDS = {"standard": "", "rotating": "Rotating", "archmage": "Archmage",
                 "ultimate_archmage": "Ultimate Archmage"}


@dataclass(frozen=True, slots=True)
class Slot:
    key: str
    name: str
    variant: str
    time_control: str  # "5+3"
    starts_ms: int
    ends_ms: int


@dataclass(frozen=True, slots=True)
class Plan:
    """What to make: the variants, the hourly control, the daily ones."""

    variants: tuple[str, ...]
    hourly: str | None
    daily: tuple[str, ...]


def speed(control: str) -> str:
    """The speed a real-time control ("5+3") plays at, by the minutes a player
    has over a game of about 40 of their own actions (lichess's estimate, with
    its 40 moves)."""
    minutes, increment = (int(n) for n in control.split("+"))
    estimate = minutes + 40 * increment / 60
    return next((word for most, word in SPEEDS if estimate < most), SLOWEST)


def plan(variants: Sequence[str], controls: Sequence[tuple[str, dict[str, Any]]]) -> Plan:
    """The plan from the pools' controls (fastest first, app/pools/catalogue.py):
    the real-time ones only, an arena being real-time."""
    realtime = [control for control, clock in controls if clock.get("type") == "realtime"]
    return Plan(tuple(variants), realtime[0] if realtime else None, tuple(realtime[1:]))


def name_of(every: str, variant: str, control: str) -> str:
    words = [every.capitalize(), VARIANT_WORDS.get(variant, variant.replace("_", " ").title()), speed(control)]
    return " ".join(w for w in words if w)


def _stamp(ms: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime(ms // 1000))


def _slot(every: str, variant: str, control: str, starts_ms: int, minutes: int) -> Slot:
    return Slot(f"{every}:{variant}:{control}:{_stamp(starts_ms)}", name_of(every, variant, control), variant,
                control, starts_ms, starts_ms + minutes * 60_000)


def due(the_plan: Plan, now_ms: int) -> list[Slot]:
    """Every slot to have an arena now: not yet over, and beginning within its
    time ahead. The daily controls begin an hour apart from DAILY_FIRST_HOUR."""
    slots: list[Slot] = []
    if the_plan.hourly is not None:
        first = now_ms // HOUR_MS * HOUR_MS
        for starts in range(first, now_ms + HOURLY_AHEAD_MS + 1, HOUR_MS):
            for variant in the_plan.variants:
                slots.append(_slot("hourly", variant, the_plan.hourly, starts, HOURLY_MINUTES))
    for n, control in enumerate(the_plan.daily):
        offset = (DAILY_FIRST_HOUR + n) % 24 * HOUR_MS
        starts = (now_ms - offset) // DAY_MS * DAY_MS + offset  # today's, begun or not
        for at in (starts, starts + DAY_MS):
            if at + DAILY_MINUTES * 60_000 > now_ms and at <= now_ms + DAILY_AHEAD_MS:
                slots.extend(_slot("daily", variant, control, at, DAILY_MINUTES) for variant in the_plan.variants)
    return [s for s in slots if s.ends_ms > now_ms]


def _insert(dialect: str) -> Any:
    return (postgresql.insert if dialect == "postgresql" else sqlite.insert)(tournaments)


async def make(engine: AsyncEngine, slots: Sequence[Slot], now_ms: int) -> int:
    """Make the arenas of the slots that have none; a slot another process
    makes at the same moment is left to it (the insert does nothing on the
    key's clash). Answers how many this call made."""
    if not slots:
        return 0
    async with engine.connect() as conn:
        have = set((await conn.execute(select(tournaments.c.schedule_key).where(
            tournaments.c.schedule_key.in_([s.key for s in slots])))).scalars())
    return await insert(engine, [s for s in slots if s.key not in have], now_ms)


async def insert(engine: AsyncEngine, slots: Sequence[Slot], now_ms: int) -> int:
    """Insert the slots' arenas; one whose key is taken (another process made
    it, however lately) is not inserted. Answers how many were."""
    made = 0
    async with engine.begin() as conn:
        for s in slots:
            statement = _insert(engine.dialect.name).values(
                id=new_match_id(), kind="arena", name=s.name, variant=s.variant, time_control=s.time_control,
                rated=True, starts_ms=s.starts_ms, ends_ms=s.ends_ms, created_by=None, created_ms=now_ms,
                schedule_key=s.key).on_conflict_do_nothing(index_elements=["schedule_key"])
            made += (await conn.execute(statement)).rowcount or 0
    return made


class Schedule:
    """One process's share of the schedule: `tick` makes the slots due, looking
    at most once a LOOK_EVERY_MS (the clock is the arenas' own, which tests move)."""

    def __init__(self, engine: AsyncEngine, the_plan: Plan) -> None:
        self.engine, self.plan = engine, the_plan
        self._next_look_ms: int | None = None

    async def tick(self, now_ms: int) -> int:
        if self._next_look_ms is not None and now_ms < self._next_look_ms:
            return 0
        made = await make(self.engine, due(self.plan, now_ms), now_ms)
        self._next_look_ms = now_ms + LOOK_EVERY_MS
        return made
