"""Saves of different matches that arrive together share one transaction on
PostgreSQL (app/matches/saves_together.py, issue 22), and each still gets its
own answer: a stale one fails alone, a client id already taken is named for
its own save, and a batch whose COMMIT may or may not have landed is never
written again. One writer per process here, and its first write held until the
others have queued behind it, so the batch is made on purpose, not by luck."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable
from typing import Any

import asyncpg
import pytest
from sqlalchemy import func, select

from app.config import Settings
from app.db import raw
from app.db.models import actions
from app.matches import store
from app.matches.record import Entry, Record
from app.matches.saves_together import SavesTogether

from ..conftest import Api, Game, make_settings
from ..ops.conftest import metric

pytestmark = pytest.mark.usefixtures("postgres_only")


@pytest.fixture
def postgres_only(database_url: str) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("saves are written together on PostgreSQL only (SQLite has one writer)")


@pytest.fixture
def settings(database_url: str) -> Settings:
    return make_settings(database_url, save_writers=1)


def together_of(app: Any) -> SavesTogether:
    together = app.state.parts.service.keeper.together
    assert isinstance(together, SavesTogether)
    return together


class HeldFirst:
    """The first save written alone waits, holding the only writer, until the test
    has queued the others behind it: `await held.run(first, others)`."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, together: SavesTogether) -> None:
        self.together = together
        self.reached, self.go = asyncio.Event(), asyncio.Event()
        fetch = raw.fetch

        async def held_fetch(engine: Any, sql: str, *args: Any) -> Any:
            if not self.reached.is_set() and sql in (store._PG_ACT_ONE, store._PG_ACT):
                self.reached.set()
                await self.go.wait()
            return await fetch(engine, sql, *args)

        monkeypatch.setattr(raw, "fetch", held_fetch)

    async def run(self, first: Awaitable[Any], others: list[Awaitable[Any]]) -> list[Any]:
        """What `first` and then `others` answered (or raised), in that order."""
        leading = asyncio.ensure_future(first)
        await self.reached.wait()
        behind = [asyncio.ensure_future(other) for other in others]
        while len(self.together.queue) < len(others):  # each queues at its own pace
            await asyncio.sleep(0.001)
        self.go.set()
        return list(await asyncio.gather(leading, *behind, return_exceptions=True))


async def started(api: Api, count: int) -> list[Game]:
    games = []
    for _ in range(count):
        game = await api.start()
        await api.setups(game)
        games.append(game)
    return games


async def log_rows(engine: Any, match_id: str, version: int) -> int:
    async with engine.connect() as conn:
        return int((await conn.execute(select(func.count()).select_from(actions).where(
            actions.c.match_id == match_id, actions.c.version == version))).scalar_one())


async def test_actions_arriving_together_land_in_one_transaction_each_with_its_own_answer(
        app: Any, api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    games = await started(api, 6)
    movers = [game.match["to_move"] for game in games]
    moves = [(await api.legal(game, mover))["actions"][0] for game, mover in zip(games, movers, strict=True)]
    together = together_of(app)
    posts = [api.post(game, mover, move, id=f"c-{i}")
             for i, (game, mover, move) in enumerate(zip(games, movers, moves, strict=True))]
    answers = await HeldFirst(monkeypatch, together).run(posts[0], posts[1:])
    assert together.batches == 1 and together.batched == 5  # the first alone, the five behind it together
    scraped = (await api.client.get("/metrics")).text  # what an operator sees of it
    assert metric(scraped, "magery_save_batches_total") == 1
    assert metric(scraped, "magery_saves_batched_total") == 5
    for game, answer in zip(games, answers, strict=True):
        before = game.version
        assert answer.status_code == 200, answer.text
        assert answer.json()["match"]["version"] == before + 1
        assert (await api.state(game))["version"] == before + 1  # stored, not only answered
        assert await log_rows(app.state.parts.engine, game.id, before + 1) == 1
    again = await api.post(games[3], movers[3], moves[3], version=games[3].version - 1, id="c-3")
    assert again.status_code == 200, again.text  # the same action sent again: found by its id, not applied twice
    assert await log_rows(app.state.parts.engine, games[3].id, games[3].version + 1) == 0


async def drafted(engine: Any, game: Game, client_id: str, stale: bool = False) -> tuple[int, Record]:
    """A draw offer added to the stored match by hand, saved from its version (or,
    `stale`, from the one before: another process got there first)."""
    rec = await store.load(engine, game.id, None)
    assert rec is not None
    draft = rec.draft()
    draft.version += 1
    draft.entries.append(Entry(draft.version, "white", {"type": "draw_offer"}, False, 1_000, client_id,
                               {"version": draft.version}))
    return rec.version - 1 if stale else rec.version, draft


async def save_all(monkeypatch: pytest.MonkeyPatch, engine: Any, together: SavesTogether,
                   drafts: list[tuple[int, Record]]) -> list[Any]:
    saves = [store.save(engine, before, draft, together) for before, draft in drafts]
    return await HeldFirst(monkeypatch, together).run(saves[0], saves[1:])


async def test_a_stale_save_in_a_batch_fails_alone(app: Any, api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    engine, together = app.state.parts.engine, together_of(app)
    games = await started(api, 4)
    drafts = [await drafted(engine, game, f"d-{i}", stale=i == 2) for i, game in enumerate(games)]
    saved = await save_all(monkeypatch, engine, together, drafts)
    assert together.batches == 1
    assert [type(result).__name__ for result in saved] == ["NoneType", "NoneType", "Conflict", "NoneType"]
    for i, game in enumerate(games):
        assert await log_rows(engine, game.id, game.version + 1) == (0 if i == 2 else 1)


async def test_a_match_saved_twice_waits_for_the_next_batch(
        app: Any, api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two saves of one match from the same version (its first request cancelled
    after queueing, say, which lets the match's lock go): were they in one batch,
    the second would be told the first's row was its own. It waits for the next
    batch and hears Conflict."""
    engine, together = app.state.parts.engine, together_of(app)
    games = await started(api, 3)
    drafts = [await drafted(engine, games[0], "g-0"), await drafted(engine, games[1], "g-1"),
              await drafted(engine, games[1], "g-1 again"), await drafted(engine, games[2], "g-2")]
    saved = await save_all(monkeypatch, engine, together, drafts)
    assert together.batches == 1 and together.batched == 2  # games[1]'s first and games[2]'s; then the second alone
    assert [type(result).__name__ for result in saved] == ["NoneType", "NoneType", "Conflict", "NoneType"]
    assert await log_rows(engine, games[1].id, drafts[1][1].version) == 1


async def test_a_client_id_taken_in_a_batch_is_named_for_its_own_save(
        app: Any, api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """PostgreSQL refuses the whole batch for one row: nothing of it landed, so
    each save is written again alone and only the culprit hears ClientIdTaken."""
    engine, together = app.state.parts.engine, together_of(app)
    games = await started(api, 4)
    mover = games[1].match["to_move"]
    await api.act(games[1], mover, (await api.legal(games[1], mover))["actions"][0], id="taken")
    drafts = [await drafted(engine, game, "taken" if i == 1 else f"e-{i}") for i, game in enumerate(games)]
    saved = await save_all(monkeypatch, engine, together, drafts)
    assert together.batches == 1
    assert [type(result).__name__ for result in saved] == ["NoneType", "ClientIdTaken", "NoneType", "NoneType"]
    for i, (game, (_, draft)) in enumerate(zip(games, drafts, strict=True)):
        assert await log_rows(engine, game.id, draft.version) == (0 if i == 1 else 1)


async def test_a_batch_lost_at_its_commit_is_never_written_again(
        app: Any, api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """The link breaks after the COMMIT reached the server: the rows are there,
    every save of the batch hears the error (as a lone save would), and none is
    retried (a retry would find its version moved and answer Conflict, though
    the action landed; the client's own retry finds it by its id instead)."""
    engine, together = app.state.parts.engine, together_of(app)
    games = await started(api, 4)
    drafts = [await drafted(engine, game, f"f-{i}") for i, game in enumerate(games)]
    commit = asyncpg.transaction.Transaction.commit

    async def commit_then_lose(self: Any) -> None:
        await commit(self)
        raise ConnectionResetError("the link broke as the COMMIT's answer came")

    monkeypatch.setattr(asyncpg.transaction.Transaction, "commit", commit_then_lose)
    saved = await save_all(monkeypatch, engine, together, drafts)
    assert together.batches == 1
    assert saved[0] is None  # the first, alone, took no transaction of its own
    assert all(isinstance(result, ConnectionResetError) for result in saved[1:]), saved
    for game, (_, draft) in zip(games, drafts, strict=True):
        assert await log_rows(engine, game.id, draft.version) == 1  # landed once, never twice


async def test_one_save_at_a_time_is_written_alone(app: Any, api: Api) -> None:
    games = await started(api, 2)
    for game in games:
        await api.step(game, random.Random(3))
    assert together_of(app).batches == 0
