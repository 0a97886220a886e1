"""Helpers for quick pairing's tests: a player who presses pools over the API."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from sqlalchemy import insert

from app.db.account_models import ratings
from app.pools import Pools

from ..api.members import Member
from ..conftest import make_settings

BASE = "/api/v1/pools"


PROXY = "127.0.0.1"  # the test client's peer, trusted to name the client (settings below)
_addresses = itertools.count(1)


def new_address() -> str:
    """An address of a presser's own: the pools never pair two places of one address."""
    n = next(_addresses)
    return f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}"


@dataclass
class Presser:
    """A guest (by the ticket its first join gave it) or an account (by its token),
    calling from an address of its own (X-Forwarded-For, through the trusted proxy)."""

    client: httpx.AsyncClient
    name: str = "anonymous"
    member: Member | None = None
    ticket: str | None = None
    answers: list[dict[str, Any]] = field(default_factory=list)
    address: str = field(default_factory=new_address)

    def headers(self) -> dict[str, str]:
        where = {"X-Forwarded-For": self.address}
        if self.member is not None:
            return {**self.member.token(), **where}
        return {"Authorization": f"Bearer {self.ticket}", **where} if self.ticket else where

    async def join(self, pool: str = "standard:10+5", status: int = 200) -> dict[str, Any]:
        r = await self.client.post(f"{BASE}/{pool}/join", json={"name": self.name}, headers=self.headers())
        assert r.status_code == status, r.text
        body: dict[str, Any] = r.json()
        if status == 200:
            self.ticket = body.get("ticket") or self.ticket
            self.answers.append(body)
        return body

    async def wait(self, timeout: float = 0, status: int = 200) -> dict[str, Any]:
        r = await self.client.get(f"{BASE}/wait", params={"timeout": timeout}, headers=self.headers())
        assert r.status_code == status, r.text
        body: dict[str, Any] = r.json()
        return body

    async def leave(self, pool: str | None = None) -> dict[str, Any]:
        path = f"{BASE}/leave" if pool is None else f"{BASE}/{pool}/leave"
        r = await self.client.post(path, headers=self.headers())
        assert r.status_code == 200, r.text
        body: dict[str, Any] = r.json()
        return body


class Clock:
    """The pools' clock, moved by the test."""

    def __init__(self, pools: Pools) -> None:
        self.now = pools.clock()
        pools.clock = lambda: self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def pools(app: Any) -> Pools:
    found: Pools = app.state.parts.pools
    return found


async def rate(app: Any, member: Member, variant: str, rating: float) -> None:
    """Give the account a rating in `variant` (as rated matches would have)."""
    async with app.state.parts.engine.begin() as conn:
        await conn.execute(insert(ratings).values(account_id=member.account.id, variant=variant, rating=rating,
                                                  rd=60.0, volatility=0.06, games=30))


@pytest.fixture
def settings(database_url: str) -> Any:
    """A place lasts ten minutes here unless a test moves the pools' clock: on a busy
    machine two presses of one test were more than the default six seconds apart, and
    the first press's place ran out between them (proof run 2 of 57850f0). The tests of
    the lease move an injected clock by `pool_lease_seconds`, whatever it is. Each
    presser names its own address through the trusted proxy."""
    return make_settings(database_url, pool_lease_seconds=600.0, trusted_proxies=[PROXY])
