"""The arenas' tick runs on every process every second: when nothing is due it
asks the database one statement (app/tournaments/look.py), however many arenas
run, and still does all it did when something is. Statements are counted as
the engine sends them, from the tick's own task only (the app's other loops
share the engine)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event

from app.tournaments import Arenas
from app.tournaments import store as arena_store

from ..api.members import member
from .conftest import arena, games, playing


@contextmanager
def statements_of_this_task(engine: Any) -> Iterator[list[str]]:
    mine = asyncio.current_task()
    sent: list[str] = []

    def note(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if asyncio.current_task() is mine:
            sent.append(statement)

    event.listen(engine.sync_engine, "before_cursor_execute", note)
    try:
        yield sent
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", note)


async def test_a_tick_with_nothing_due_asks_one_statement_however_many_arenas_run(app: Any) -> None:
    arenas: Arenas = app.state.parts.arenas
    ann, bob, cy = [await member(app, n) for n in ("LookAnn", "LookBob", "LookCy")]
    empty = await arenas.create(ann.account.id, arena("Nobody here"))
    alone = await arenas.create(ann.account.id, arena("One waits"))
    busy = await arenas.create(ann.account.id, arena("Both play"))
    await arenas.join(alone, cy.account.id, cy.name)
    for m in (ann, bob):
        await arenas.join(busy, m.account.id, m.name)
    assert len(await games(app, busy)) == 1  # paired at the join: nobody of it waits now
    now = arenas.clock()
    arenas.clock = lambda: now + 11 * 60  # past the arenas' first minutes (their start told), still running
    await arenas.tick()  # what fell due meanwhile: the starts told, the running arenas seen
    with statements_of_this_task(app.state.parts.engine) as sent:
        await arenas.tick()
    assert len(sent) == 1, sent
    assert "tournaments" in sent[0]
    assert sorted(arenas._running) == sorted([empty, alone, busy])


async def test_a_player_who_joined_without_pairing_is_paired_by_the_next_tick(app: Any) -> None:
    """As when another process wrote the join and its pairing failed: the look
    sees two waiting, and the tick pairs them."""
    arenas: Arenas = app.state.parts.arenas
    ann, bob = await member(app, "LookDee"), await member(app, "LookEve")
    tid = await arenas.create(ann.account.id, arena())
    await arenas.tick()
    for m in (ann, bob):  # the store's join alone: nobody paired
        await arena_store.join(app.state.parts.engine, tid, m.account.id, m.name, arenas.now_ms())
    assert set((await playing(app, tid)).values()) == {None}
    with statements_of_this_task(app.state.parts.engine) as sent:
        await arenas.tick()
    assert len(sent) > 1
    assert len(await games(app, tid)) == 1
    assert None not in (await playing(app, tid)).values()
