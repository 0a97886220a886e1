"""On PostgreSQL an action is saved by one raw statement (store._save_postgres,
the hot path, kept for what bench/ab.py measured); every other change, and
every change on SQLite, by a Core transaction (store._save_core). The raw
statement names its columns itself, so a column added to `Record.row()` or to
the log's rows must be added there too: these tests fail until it is."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from sqlalchemy import select

from app.db.models import actions, matches
from app.matches import store
from app.matches.record import Entry

from ..conftest import Api, FakeTime, Game

# The rematch pair is left out of the raw statement on purpose: `save` sends a
# change of it (rec.rematch_changed) through the Core path.
RAW_SKIPS = {"rematch", "rematch_token"}


def _raw_columns() -> tuple[set[str], set[str]]:
    """The matches columns the raw statement sets, and the actions columns it inserts."""
    sql = " ".join(store._PG_ACT.split())
    found = re.search(r"UPDATE matches SET (.*?) WHERE", sql)
    inserted = re.search(r"INSERT INTO actions \((.*?)\)", sql)
    assert found and inserted, sql
    updated = {part.split("=")[0].strip() for part in found.group(1).split(",")}
    return updated, {name.strip() for name in inserted.group(1).split(",")}


async def test_the_raw_statement_writes_the_columns_the_core_path_writes(app: Any, api: Api) -> None:
    game = await api.start()
    rec = await store.load(app.state.parts.engine, game.id, None)
    assert rec is not None
    entry = Entry(1, "white", {"type": "resign"}, False, 0, "c-1", {})
    updated, inserted = _raw_columns()
    assert updated == set(rec.row()) - RAW_SKIPS
    assert inserted == set(store._entry_row(rec.id, entry))
    assert set(rec.row()) >= RAW_SKIPS  # still columns of the row: else drop them from RAW_SKIPS


async def _play_twins(api: Api, app: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[Game, Game, dict[str, int]]:
    """Two matches of one seed, played alike at the same (fake) moments: the
    first saved by the raw statement, the second by the Core path."""
    time = FakeTime(app.state.parts.service)
    paths = {"raw": 0, "core": 0}
    raw, core = store._save_postgres, store._save_core
    twins = [await api.start(seed="twins", time_control={"type": "realtime", "minutes": 5, "increment": 2})
             for _ in range(2)]
    rngs = [random.Random(7), random.Random(7)]

    async def through_raw(*args: Any) -> None:
        paths["raw"] += 1
        await raw(*args)

    async def through_core(*args: Any) -> None:
        paths["core"] += 1
        await core(*args)

    for _ in range(12):
        for twin, rng, path in zip(twins, rngs, (through_raw, through_core), strict=True):
            monkeypatch.setattr(store, "_save_postgres", path)
            await api.step(twin, rng)
        time.advance(1.5)  # both twins moved, each at the same moments
    for twin, path in zip(twins, (through_raw, through_core), strict=True):
        monkeypatch.setattr(store, "_save_postgres", path)
        r = await api.client.post(f"{api.base}/{twin.id}/resign", headers=twin.auth(twin.match["to_move"]))
        assert r.status_code == 200, r.text
        twin.match = r.json()["match"]
    return twins[0], twins[1], paths


def _without_id(value: Any, match_id: str) -> Any:
    return str(value).replace(match_id, "<id>")


async def test_both_paths_store_the_same_rows(app: Any, api: Api, database_url: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("the raw statement is PostgreSQL's")
    one, other, paths = await _play_twins(api, app, monkeypatch)
    assert paths == {"raw": 13, "core": 13}  # every action and the resignation took its twin's path
    assert one.match["status"] == other.match["status"] == "finished"
    async with app.state.parts.engine.connect() as conn:
        rows = {m.id: m for m in await conn.execute(select(matches).where(matches.c.id.in_([one.id, other.id])))}
        logs = {game.id: (await conn.execute(
            select(actions).where(actions.c.match_id == game.id).order_by(actions.c.version))).all()
            for game in (one, other)}
    for column in (c.name for c in matches.c):
        if column == "id":  # each match's own
            continue
        assert (_without_id(getattr(rows[one.id], column), one.id)
                == _without_id(getattr(rows[other.id], column), other.id)), column
    assert len(logs[one.id]) == len(logs[other.id]) > 13
    for mine, theirs in zip(logs[one.id], logs[other.id], strict=True):
        for column in (c.name for c in actions.c):
            assert (_without_id(getattr(mine, column), one.id)
                    == _without_id(getattr(theirs, column), other.id)), (column, mine.version)
