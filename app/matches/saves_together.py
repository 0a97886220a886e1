"""Saves of different matches written in one transaction when they arrive together
(PostgreSQL's hot path, app/matches/store.py `_save_postgres`).

Each action saved alone is its own transaction: one commit record and one WAL
flush per action, PostgreSQL's largest cost per action after the rows
themselves (its CPU per action was twice the yardstick's, whose
UPDATE writes one row). Here at most `writers` writes are in flight per
process; a save that finds them all busy waits in a queue, and the next free
writer takes the whole queue (up to `most`) into one transaction. Nobody waits
for a batch to fill: under light load every save is written at once and alone,
exactly as before; the batches grow only as the load does.

What a batch must not change:
- each save's own answer: its statement returns the rows it wrote, so a save
  whose version moved on (Conflict) fails alone while the others land;
- errors that name one save (a client id taken, class 23): a batch that
  PostgreSQL refused rolled back whole, so each of its saves is written again
  alone and gets its own answer;
- an unknown outcome (the link broke at COMMIT) is never retried: every save
  of the batch gets the error, as a lone save would (the client retries with
  its client id, which finds the action if it landed);
- locks: a batch takes its rows in match-id order, so two processes' batches
  cannot deadlock each other (and a deadlock, were it to happen, is class 40:
  rolled back, so retried alone like any refusal).

A match's saves never meet in one batch (`_take`): each batch answers by the
rows each match's statement returned.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from itertools import groupby
from typing import Any

import asyncpg
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db import raw


class Save:
    """One match's statement and its arguments; `done` holds the rows it returned."""

    __slots__ = ("args", "done", "match_id", "sql")

    def __init__(self, match_id: str, sql: str, args: tuple[Any, ...]) -> None:
        self.match_id = match_id
        self.sql = sql
        self.args = args
        self.done: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    def answer(self, rows: int) -> None:
        if not self.done.done():  # its request may have gone (cancelled)
            self.done.set_result(rows)

    def fail(self, error: BaseException) -> None:
        if not self.done.done():
            self.done.set_exception(error)


class SavesTogether:
    def __init__(self, engine: AsyncEngine, writers: int, most: int = 64) -> None:
        self.engine = engine
        self.writers = writers
        self.most = most
        self.queue: list[Save] = []
        self.busy = 0
        self.tasks: set[asyncio.Task[None]] = set()  # the loop holds its tasks only weakly
        # Batches of two saves or more, and the saves in them: for /metrics
        # (magery_save_batches, magery_saves_batched), benches and tests.
        self.batches = 0
        self.batched = 0

    async def write(self, save: Save) -> int:
        """The rows `save`'s statement returned; raises what writing it raised."""
        self.queue.append(save)
        if self.busy < self.writers:
            self.busy += 1
            task = asyncio.get_running_loop().create_task(self._drain(), name="saves-together")
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        return await save.done

    async def _drain(self) -> None:
        try:
            while self.queue:
                await self._write(self._take())
        finally:
            self.busy -= 1

    def _take(self) -> list[Save]:
        """The next batch: the oldest saves, one per match. A match's second save
        waits for the next batch: its rows could not be told from the first's,
        and it may only be there because its request was cancelled, letting the
        match's lock go while its save was still queued."""
        batch: list[Save] = []
        left: list[Save] = []
        matches: set[str] = set()
        for save in self.queue:
            if len(batch) < self.most and save.match_id not in matches:
                matches.add(save.match_id)
                batch.append(save)
            else:
                left.append(save)
        self.queue = left
        return batch

    async def _write(self, batch: list[Save]) -> None:
        if len(batch) == 1:
            await _alone(self.engine, batch[0])
            return
        self.batches += 1
        self.batched += len(batch)
        batch.sort(key=lambda save: save.match_id)
        try:
            landed = await _together(self.engine, batch)
        except _RolledBack:
            for save in batch:  # nothing of it landed: each alone, for its own answer
                await _alone(self.engine, save)
            return
        except BaseException as error:  # at the commit: its outcome is unknown, never written twice
            for save in batch:
                save.fail(error)
            if not isinstance(error, Exception):
                raise
            return
        for save in batch:
            save.answer(landed[save.match_id])


class _RolledBack(Exception):
    """The batch failed before its COMMIT was sent, or PostgreSQL refused the
    COMMIT: nothing of it landed."""


async def _alone(engine: AsyncEngine, save: Save) -> None:
    try:
        save.answer(len(await raw.fetch(engine, save.sql, *save.args)))
    except BaseException as error:
        save.fail(error)
        if not isinstance(error, Exception):
            raise


async def _together(engine: AsyncEngine, batch: list[Save]) -> Counter[str]:
    """Every save of `batch` in one transaction, in the batch's order; the rows
    each match's statement returned. Runs of the same statement go through the
    driver's pipeline (one round trip for the run). Raises _RolledBack when
    nothing landed; anything else (no connection to be had, or the COMMIT's
    answer lost) is every save's error, never a reason to write it again."""
    landed: Counter[str] = Counter()
    async with raw.raw_asyncpg(engine) as conn:
        transaction = conn.transaction()
        try:
            await transaction.start()
            for sql, run in groupby(batch, key=lambda save: save.sql):
                saves = list(run)
                if len(saves) == 1:
                    rows = await conn.fetch(sql, *saves[0].args)
                else:
                    rows = await conn.fetchmany(sql, [save.args for save in saves])
                landed.update(row[0] for row in rows)
        except Exception as error:
            # Before the COMMIT: a live link is rolled back here, and a broken one
            # leaves the pool (raw_asyncpg) and its transaction dies with it.
            with contextlib.suppress(Exception):
                await transaction.rollback()
            raise _RolledBack() from error
        try:
            await transaction.commit()
        except asyncpg.PostgresError as error:  # the server answered no: rolled back
            raise _RolledBack() from error
    return landed
