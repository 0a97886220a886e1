"""The server's own arenas (app/tournaments/schedule.py): which slots are due
when, their names, and two processes making the same slots at once, on SQLite
and PostgreSQL, keeping one arena per slot. Off in every other test."""

from __future__ import annotations

import asyncio
import calendar
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from app.config import Settings
from app.db.tournament_models import tournaments
from app.main import create_app
from app.pools.catalogue import CONTROLS
from app.rules import VARIANTS
from app.tournaments import Arenas
from app.tournaments.schedule import (
    DAILY_MINUTES,
    HOURLY_MINUTES,
    LOOK_EVERY_MS,
    due,
    insert,
    make,
    name_of,
    plan,
    speed,
)

from ..conftest import make_settings

PLAN = plan(VARIANTS, [(control, clock) for control, _, clock in CONTROLS])


def at(stamp: str) -> int:
    """Milliseconds since the epoch of "2030-01-01T10:20", UTC."""
    return calendar.timegm(tuple(int(n) for n in stamp.replace("T", "-").replace(":", "-").split("-")) + (0, 0, 0, 0)
                           ) * 1000


def test_the_plan_takes_the_pools_realtime_controls_fastest_hourly() -> None:
    assert PLAN.hourly == "5+3" and PLAN.daily == ("10+5", "15+10") and PLAN.variants == VARIANTS
    assert [speed(c) for c in ("1+0", "5+3", "10+5", "15+10")] == ["Bullet", "Blitz", "Rapid", "Classical"]
    assert name_of("hourly", "standard", "5+3") == "Hourly Blitz"
    assert name_of("daily", "ultimate_archmage", "15+10") == "Daily Ultimate Archmage Classical"


def test_the_slots_due_are_the_next_two_hours_and_the_next_days_evening() -> None:
    slots = due(PLAN, at("2030-01-01T10:20"))
    hourly = [s for s in slots if s.key.startswith("hourly:")]
    assert sorted({s.starts_ms for s in hourly}) == [at("2030-01-01T10:00"), at("2030-01-01T11:00"),
                                                      at("2030-01-01T12:00")]
    assert len(hourly) == 3 * len(VARIANTS)
    first = next(s for s in hourly if s.variant == "standard" and s.starts_ms == at("2030-01-01T11:00"))
    assert (first.key, first.name, first.time_control) == ("hourly:standard:5+3:2030-01-01T11:00Z", "Hourly Blitz",
                                                           "5+3")
    assert first.ends_ms - first.starts_ms == HOURLY_MINUTES * 60_000
    daily = {(s.time_control, s.starts_ms) for s in slots if s.key.startswith("daily:")}
    assert daily == {("10+5", at("2030-01-01T18:00")), ("15+10", at("2030-01-01T19:00"))}
    assert len({s.key for s in slots}) == len(slots)


def test_a_slot_still_running_is_due_and_one_over_is_not() -> None:
    evening = due(PLAN, at("2030-01-01T19:20"))
    rapid = [s for s in evening if s.time_control == "10+5"]
    assert {s.starts_ms for s in rapid} == {at("2030-01-01T18:00"), at("2030-01-02T18:00")}
    assert all(s.ends_ms - s.starts_ms == DAILY_MINUTES * 60_000 for s in rapid)
    late = due(PLAN, at("2030-01-01T20:00"))
    assert at("2030-01-01T18:00") not in {s.starts_ms for s in late if s.time_control == "10+5"}
    assert all(s.ends_ms > at("2030-01-01T20:00") for s in late)


@pytest.fixture
def settings(database_url: str) -> Settings:
    return make_settings(database_url, tournament_tick_seconds=3600.0, tournament_schedule=True)


@pytest.fixture
async def second(settings: Settings) -> AsyncIterator[Any]:
    """Another app on the same database: another process."""
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        yield app


async def _keys(app: Any, prefix: str) -> Counter[str]:
    async with app.state.parts.engine.connect() as conn:
        return Counter((await conn.execute(select(tournaments.c.schedule_key).where(
            tournaments.c.schedule_key.like(f"%{prefix}%")))).scalars())


async def test_two_processes_making_the_same_slots_at_once_keep_one_arena_each(app: Any, second: Any) -> None:
    now = at("2031-03-04T05:06")
    slots = due(PLAN, now)
    one, two = app.state.parts.engine, second.state.parts.engine
    # The inserts themselves race (neither looked first), and the whole step too, twice over.
    made = await asyncio.gather(insert(one, slots, now), insert(two, slots, now), make(one, slots, now),
                                make(two, slots, now))
    assert sum(made) == len(slots)
    kept = await _keys(app, "2031-03-0")
    assert set(kept) == {s.key for s in slots} and set(kept.values()) == {1}
    assert await insert(one, slots, now) == 0  # and again later: nothing


async def test_each_process_tick_makes_the_schedule_once_and_looks_once_a_minute(app: Any, second: Any) -> None:
    one: Arenas = app.state.parts.arenas
    two: Arenas = second.state.parts.arenas
    base = at("2032-05-06T07:08") / 1000
    one.clock = two.clock = lambda: base
    await asyncio.gather(one.tick(), two.tick())
    kept = await _keys(app, "2032-05-0")
    assert len(kept) == len(due(PLAN, int(base * 1000))) and set(kept.values()) == {1}
    one.clock = two.clock = lambda: base + 3600  # an hour on: the next hour's slots
    await asyncio.gather(one.tick(), two.tick())
    later = await _keys(app, "2032-05-0")
    assert "hourly:standard:5+3:2032-05-06T10:00Z" in later and set(later.values()) == {1}
    assert one.schedule is not None
    assert await one.schedule.tick(int(base * 1000) + 3600_000 + LOOK_EVERY_MS // 2) == 0  # looked a moment ago


async def test_a_scheduled_arena_reads_as_the_servers_own(app: Any, client: httpx.AsyncClient) -> None:
    arenas: Arenas = app.state.parts.arenas
    arenas.clock = lambda: at("2033-01-01T10:30") / 1000
    await arenas.tick()
    listed = (await client.get("/api/v1/tournaments", params={"limit": 100})).json()["tournaments"]
    ours = [t for t in listed if t["starts_at"].startswith("2033-01-01T10:00")]
    assert {t["name"] for t in ours} == {name_of("hourly", v, "5+3") for v in VARIANTS}
    assert all(t["scheduled"] and t["rated"] and t["status"] == "started" and not t["cancelled"] for t in ours)


def test_the_schedule_is_on_by_default_and_off_in_tests(database_url: str) -> None:
    assert Settings(_env_file=None, database_url=database_url).tournament_schedule is True
    assert make_settings(database_url).tournament_schedule is False


async def test_with_the_schedule_off_a_tick_makes_no_arena(database_url: str) -> None:
    app = create_app(make_settings(database_url, tournament_tick_seconds=3600.0))
    async with app.router.lifespan_context(app):
        arenas: Arenas = app.state.parts.arenas
        assert arenas.schedule is None
        await arenas.tick()
        async with app.state.parts.engine.connect() as conn:
            assert (await conn.execute(select(tournaments.c.id).where(
                tournaments.c.schedule_key.is_not(None)))).first() is None
