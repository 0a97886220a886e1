"""Issue 17, item 1: running bot matches capped per account as well as per
address. A signed-in player (here by an account token) creating bot matches
from many addresses passes each address's cap but not the account's, counted
in the database by every process (two apps on one database stand for two)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import httpx

from app.main import create_app

from ..conftest import make_settings
from .standin import StandIn

BASE = "/api/v1/matches"
BOT = {"seat": "white", "opponent": "bot:greedy"}


@contextlib.asynccontextmanager
async def _running(database_url: str) -> AsyncIterator[Any]:
    app = create_app(make_settings(database_url, bot_matches_per_address=3, bot_matches_per_account=3))
    async with app.router.lifespan_context(app):
        app.state.parts.bots.search = StandIn()
        yield app


def _from(app: Any, address: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app, client=(address, 40000)),
                             base_url="http://testserver")


async def _token(app: Any, name: str) -> dict[str, str]:
    accounts = app.state.parts.accounts
    account = await accounts.sign_up(name, "correct horse battery", f"10.9.0.1-{name}")
    return {"Authorization": f"Bearer {(await accounts.create_token(account, 'bots', ['play']))[0]}"}


async def test_running_bot_matches_are_capped_per_account_from_any_address(database_url: str) -> None:
    async with _running(database_url) as one, _running(database_url) as other:
        ada, bo = await _token(one, "ada"), await _token(one, "bo")
        clients = [_from(app, f"10.0.0.{i}") for i, app in enumerate((one, other, one, other), start=1)]
        try:
            made = [await c.post(BASE, json=BOT, headers=ada) for c in clients[:3]]
            assert [r.status_code for r in made] == [201] * 3, [r.text for r in made]
            refused = await clients[3].post(BASE, json=BOT, headers=ada)  # a fresh address, on the other process
            assert refused.status_code == 429, refused.text
            body = refused.json()
            assert body["error"] == "too_many_bot_matches" and body["limit"] == 3
            assert "this account already has 3 running bot matches" in body["detail"]
            assert "BOT_MATCHES_PER_ACCOUNT" in body["detail"]
            assert (await clients[3].post(BASE, json=BOT, headers=bo)).status_code == 201  # another account's own
            assert (await clients[3].post(BASE, json=BOT)).status_code == 201  # a guest at that address
            first = made[0].json()["match"]["id"]
            resigned = await clients[1].post(f"{BASE}/{first}/resign", headers=ada)
            assert resigned.status_code == 200, resigned.text
            assert (await clients[3].post(BASE, json=BOT, headers=ada)).status_code == 201  # a place came free
            # The address's cap still holds for an account: 10.0.0.4 has three now.
            over = await clients[3].post(BASE, json=BOT, headers=bo)
            assert over.status_code == 429 and "BOT_MATCHES_PER_ADDRESS" in over.json()["detail"]
            # Six at once from six addresses, three on each process: three are made.
            cy = await _token(one, "cy")
            clients += [_from(app, f"10.0.1.{i}") for i, app in enumerate((one, other) * 3)]
            answers = await asyncio.gather(*[c.post(BASE, json=BOT, headers=cy) for c in clients[4:]])
            assert sorted(r.status_code for r in answers) == [201, 201, 201, 429, 429, 429]
        finally:
            for c in clients:
                await c.aclose()
