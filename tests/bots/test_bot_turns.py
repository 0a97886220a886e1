"""Issue 17, items 1 and 2: bot turns across processes, through the database.

Two apps on one database stand for two server processes (on PostgreSQL as on
SQLite): a turn is searched by exactly one of them (a claim taken with one
conditional UPDATE), a turn whose process died is taken over once its lease
has run out, and a graceful stop gives its claims up so that another process
takes its turns at once. Pending turns are found by one query, however many
older bot matches run; bot matches their person abandoned end. A stand-in
searcher (tests/bots/standin.py) decides how slow a search is; the service's
clock is moved, never waited for."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import event, select

from app.db.models import bot_matches, matches, seats
from app.main import create_app
from app.matches import MatchService
from app.matches.lobby import new_match_id

from ..conftest import FakeTime, make_settings
from ..waiting import until
from .standin import StandIn, api_from


@contextlib.asynccontextmanager
async def _running(database_url: str, **overrides: Any) -> AsyncIterator[Any]:
    app = create_app(make_settings(database_url, **{"bot_matches_per_address": 0, **overrides}))
    async with app.router.lifespan_context(app):
        yield app


@pytest.fixture
async def two(database_url: str) -> AsyncIterator[tuple[Any, Any]]:
    async with _running(database_url) as one, _running(database_url) as other:
        yield one, other


async def test_exactly_one_process_searches_a_turn(two: tuple[Any, Any]) -> None:
    one, other = two
    held, ready = StandIn(hold=("greedy",)), StandIn()
    one.state.parts.bots.search, other.state.parts.bots.search = held, ready
    async with api_from(one, "10.0.0.1") as api:
        game = await api.create(seat="black", opponent="bot:greedy")
        await until(lambda: held.held == 1, "the first process searches the turn")
        runner = other.state.parts.bots
        assert await runner.resume() == 0  # the pending query leaves a claimed turn out
        runner._wake(game.id)  # and were it woken (a resume racing the claim), the claim refuses it
        await runner.idle()
        assert ready.calls == []
        held.let_all_go()
        await until(lambda: _moved(api, game), "the bot played")
        await one.state.parts.bots.idle()
    assert len(held.calls) == 1


async def _moved(api: Any, game: Any) -> bool:
    return int((await api.state(game))["version"]) > 0


async def test_a_turn_whose_process_died_is_taken_over_when_its_lease_runs_out(two: tuple[Any, Any]) -> None:
    one, other = two
    held, ready = StandIn(hold=("greedy",)), StandIn()
    one.state.parts.bots.search, other.state.parts.bots.search = held, ready
    async with api_from(one, "10.0.0.1") as api:
        game = await api.create(seat="black", opponent="bot:greedy")
        await until(lambda: held.held == 1, "the first process searches the turn")
        for task in list(one.state.parts.bots._turns.values()):
            task.cancel()  # it dies mid-search: no goodbye, its claim stays
        await one.state.parts.bots.idle()
        runner = other.state.parts.bots
        assert await runner.resume() == 0  # the lease still runs
        settings = other.state.parts.settings
        FakeTime(other.state.parts.service).advance(
            settings.bot_max_think_seconds + settings.bot_lease_seconds + 1)
        assert await runner.resume() == 1
        await runner.idle()
        assert await _moved(api, game)
    assert len(ready.calls) == 1


async def test_a_graceful_stop_gives_its_turns_to_another_process_at_once(database_url: str) -> None:
    held, ready = StandIn(hold=("greedy",)), StandIn()
    async with _running(database_url) as other, api_from(other, "10.0.0.1") as api:
        other.state.parts.bots.search = ready
        async with _running(database_url) as one, api_from(one, "10.0.0.1") as api_one:
            one.state.parts.bots.search = held
            game = await api_one.create(seat="black", opponent="bot:greedy")
            await until(lambda: held.held == 1, "the first process searches the turn")
        # `one` has stopped (its lifespan ended: the runner closed), mid-search
        runner = other.state.parts.bots
        assert await runner.resume() == 1  # at once: no lease to wait out
        await runner.idle()
        assert await _moved(api, game)
        assert len(ready.calls) == 1


async def test_pending_turns_are_found_past_a_thousand_running_bot_matches_in_one_query(app: Any) -> None:
    parts = app.state.parts
    standin = StandIn()
    parts.bots.search = standin
    async with api_from(app, "10.0.0.1") as api:
        template = await api.create(seat="white", opponent="bot:greedy")  # its person is to move
        await _clone(parts.engine, template.id, 1044)  # older running bot matches, their people to move
        # A bot's turn left pending by a process that stopped (no runner heard it).
        quiet = MatchService(parts.engine, parts.settings, bot_levels=("greedy",))
        pending = await quiet.lobby.create({}, seat="black", opponent="bot:greedy")
        statements: list[str] = []

        def count(_conn: Any, _cursor: Any, sql: str, *_: Any) -> None:
            # The app's own sweeps (tournaments about to start, say) share the engine
            # and may run meanwhile: only the reads of matches are this call's.
            if "FROM matches" in sql:
                statements.append(sql)

        event.listen(parts.engine.sync_engine, "before_cursor_execute", count)
        try:
            found = await parts.service.reads.pending_bot_turns(0)
        finally:
            event.remove(parts.engine.sync_engine, "before_cursor_execute", count)
        assert found == [pending.match["id"]]
        assert len(statements) == 1
        assert await parts.bots.resume() == 1
        await parts.bots.idle()
        assert int((await api.client.get(f"{api.base}/{pending.match['id']}")).json()["version"]) > 0
    assert standin.calls == [("greedy", parts.settings.bot_think_seconds)]


async def test_a_bot_match_made_without_its_claim_row_is_still_found_and_played(app: Any) -> None:
    """A path that makes a bot match without enrolling it (a rematch of a bot
    match, say) must not leave its bot unable to move: the pending query and
    the claim make do without the row."""
    parts = app.state.parts
    standin = StandIn()
    parts.bots.search = standin
    quiet = MatchService(parts.engine, parts.settings, bot_levels=("greedy",))
    pending = (await quiet.lobby.create({}, seat="black", opponent="bot:greedy")).match["id"]
    async with parts.engine.begin() as conn:
        await conn.execute(bot_matches.delete().where(bot_matches.c.match_id == pending))
    assert await parts.bots.resume() == 1
    await parts.bots.idle()
    assert int((await parts.service.reads.get(pending))["version"]) > 0
    assert len(standin.calls) == 1


async def _clone(engine: Any, match_id: str, n: int) -> None:
    """`n` copies of a match (row, seats, bot_matches row), each made and updated earlier."""
    async with engine.begin() as conn:
        row = dict((await conn.execute(select(matches).where(matches.c.id == match_id))).mappings().one())
        seat_rows = [dict(r) for r in (await conn.execute(
            select(seats).where(seats.c.match_id == match_id))).mappings()]
        copies, copied_seats, copied_bots = [], [], []
        for i in range(n):
            new_id = new_match_id()
            earlier = timedelta(hours=1, seconds=i)
            copies.append({**row, "id": new_id, "created_at": row["created_at"] - earlier,
                           "updated_at": row["updated_at"] - earlier})
            copied_seats += [{**s, "match_id": new_id} for s in seat_rows]
            copied_bots.append({"match_id": new_id, "owner": f"addr:10.1.{i // 250}.{i % 250}"})
        await conn.execute(matches.insert(), copies)
        await conn.execute(seats.insert(), copied_seats)
        await conn.execute(bot_matches.insert(), copied_bots)


async def test_a_bot_match_its_person_abandoned_ends(app: Any) -> None:
    parts = app.state.parts
    parts.bots.search = StandIn()
    clock = FakeTime(parts.service)
    async with api_from(app, "10.0.0.1") as api:
        untimed = await api.create(seat="white", opponent="bot:greedy")
        timed = await api.create(seat="white", opponent="bot:greedy", abandon_seconds=30)
        clock.advance(31)
        await parts.bots.resume()
        assert (await api.state(untimed))["status"] == "active"  # 600 s for an untimed match
        ended = await api.state(timed)
        assert ended["status"] == "finished"
        assert ended["result"]["winner"] == "black" and ended["result"]["abandoned"] == "white"
        log = (await api.client.get(f"{api.base}/{timed.id}/actions")).json()
        assert log[-1]["player"] == "black" and log[-1]["action"] == {"type": "claim", "result": "win"}
        await api.legal(untimed, "white")  # its person is back: seen now
        clock.advance(parts.settings.abandon_untimed_seconds - 1)
        await parts.bots.resume()
        assert (await api.state(untimed))["status"] == "active"
        clock.advance(2)
        await parts.bots.resume()
        assert (await api.state(untimed))["status"] == "finished"


async def test_running_bot_matches_are_capped_per_address_across_processes(database_url: str) -> None:
    async with _running(database_url, bot_matches_per_address=3) as one, \
            _running(database_url, bot_matches_per_address=3) as other:
        for app in (one, other):
            app.state.parts.bots.search = StandIn()
        async with api_from(one, "10.0.0.1") as a, api_from(other, "10.0.0.1") as b, \
                api_from(other, "10.0.0.2") as elsewhere:
            made = [await a.create(seat="white", opponent="bot:greedy"),
                    await b.create(seat="white", opponent="bot:strong"),
                    await a.create(seat="white", opponent="bot:random")]
            for api in (a, b):
                refused = await api.client.post(api.base, json={"seat": "white", "opponent": "bot:greedy"})
                assert refused.status_code == 429, refused.text
                body = refused.json()
                assert body["error"] == "too_many_bot_matches" and body["limit"] == 3
                assert "3 running bot matches" in body["detail"] and "BOT_MATCHES_PER_ADDRESS" in body["detail"]
            await elsewhere.create(seat="white", opponent="bot:greedy")  # another address has its own
            await b.start()  # matches between people are not counted
            resigned = await b.client.post(f"{b.base}/{made[0].id}/resign", headers=made[0].auth("white"))
            assert resigned.status_code == 200
            await b.create(seat="white", opponent="bot:greedy")  # a place came free
            assert (await a.client.post(a.base, json={"opponent": "bot:greedy"})).status_code == 429
        # Six at once from one more address, three on each process: three are made.
        async with api_from(one, "10.0.0.3") as a, api_from(other, "10.0.0.3") as b:
            answers = await asyncio.gather(*[
                api.client.post(api.base, json={"seat": "white", "opponent": "bot:greedy"}) for api in (a, b) * 3])
        assert sorted(r.status_code for r in answers) == [201, 201, 201, 429, 429, 429]
