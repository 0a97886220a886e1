"""Helpers for the notifications' tests: a channel that records what it is
handed (and answers what it is told to), the inbox read through the API, and
correspondence matches between two accounts driven through the API."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import httpx
from sqlalchemy import select

from app.db.notify_models import notify_outbox
from app.notify import Delivered, OutboxItem
from app.notify.channel import Outcome

from ..api.members import Member
from ..conftest import ROW

CORRESPONDENCE = {"type": "correspondence", "days": 3}


class Recorder:
    """A channel: each item handed to it is kept; `answer` says what to answer
    (Delivered by default); `gate`, when set, holds every delivery until opened."""

    def __init__(self, name: str = "push", answer: Callable[[OutboxItem], Outcome] | None = None) -> None:
        self.name = name
        self.answer = answer or (lambda item: Delivered())
        self.items: list[OutboxItem] = []
        self.gate: asyncio.Event | None = None

    async def deliver(self, item: OutboxItem) -> Outcome:
        self.items.append(item)
        if self.gate is not None:
            await self.gate.wait()
        return self.answer(item)


async def notices(client: httpx.AsyncClient, who: Member, **query: Any) -> dict[str, Any]:
    r = await client.get("/api/v1/account/notifications", params=query, headers=who.token())
    assert r.status_code == 200, r.text
    return r.json()


async def kinds(client: httpx.AsyncClient, who: Member) -> list[tuple[str, dict[str, Any]]]:
    """(kind, data) of every notice of `who`, oldest first."""
    page = await notices(client, who, limit=50)
    return [(n["kind"], n["data"]) for n in reversed(page["notifications"])]


async def outbox_rows(app: Any) -> list[Any]:
    async with app.state.parts.engine.connect() as conn:
        return list((await conn.execute(select(notify_outbox).order_by(notify_outbox.c.id))).all())


async def correspondence(client: httpx.AsyncClient, white: Member, black: Member,
                         time_control: dict[str, Any] | None = None) -> dict[str, Any]:
    """A match made by `white`'s account and joined by `black`'s: its state."""
    r = await client.post("/api/v1/matches", json={"options": {"time_control": time_control or CORRESPONDENCE},
                                                   "seat": "white"}, headers=white.token())
    assert r.status_code == 201, r.text
    match_id = r.json()["match"]["id"]
    r = await client.post(f"/api/v1/matches/{match_id}/join", json={}, headers=black.token())
    assert r.status_code == 200, r.text
    return dict(r.json()["match"])


async def setup(client: httpx.AsyncClient, match: dict[str, Any], who: Member) -> dict[str, Any]:
    r = await client.post(f"/api/v1/matches/{match['id']}/actions",
                          json={"action": {"type": "setup", "backrow": ROW}, "version": match["version"]},
                          headers=who.token())
    assert r.status_code == 200, r.text
    return dict(r.json()["match"])
