"""Only when away, across processes: two real server processes on one
PostgreSQL database, a player's socket open on either, and the push channel
in a third (any process's outbox may send). A push about a match is skipped
while the player has a socket open to it on any process, and sent once they
close it; the other player, with no socket, is pushed to all along. Both
processes hand out the same VAPID key. Skipped without PostgreSQL (failed
under CI=true)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy.ext.asyncio import AsyncEngine
from websockets.asyncio.client import ClientConnection, connect

from app.accounts import Accounts
from app.auth import PasswordChecks
from app.db.engine import make_engine
from app.push.away import watching
from app.push.keys import VapidKeys
from app.push.outcomes import Delivered
from app.push.payload import PushItem
from app.push.sending import PushChannel, PushSettings
from tests.conftest import make_settings
from tests.realtime.test_processes import Server, two_servers
from tests.waiting import DEADLINE, until

from .conftest import HOSTS
from .stand_in import PushServiceStandIn

TTL_MS = 30_000  # WS_DEAD_AFTER_SECONDS's default, as the servers run


@pytest.fixture(scope="module")
def servers(postgres_url: str) -> Iterator[tuple[Server, Server]]:
    hosts = json.dumps(HOSTS)
    # The servers' own senders off: the test drives the push channel itself.
    with two_servers(postgres_url, push_endpoint_hosts=hosts, notify_sender="false") as both:
        yield both


@pytest.fixture
async def engine(postgres_url: str) -> AsyncIterator[AsyncEngine]:
    made = make_engine(postgres_url, pool_size=2, max_overflow=0)
    yield made
    await made.dispose()


async def players(engine: AsyncEngine, postgres_url: str, *names: str) -> dict[str, tuple[int, dict[str, str]]]:
    """Accounts of these names: each one's id and an account token's Authorization header."""
    accounts = Accounts(engine, make_settings(postgres_url), PasswordChecks(1, 0))
    made = {}
    for name in names:
        account = await accounts.sign_up(name, "correct horse battery", f"10.7.0.1-{name}")
        token, _ = await accounts.create_token(account, "client", ["play", "read"])
        made[name] = (account.id, {"Authorization": f"Bearer {token}"})
    return made


async def snapshot(ws: ClientConnection) -> dict[str, Any]:
    async with asyncio.timeout(DEADLINE):
        while (message := json.loads(await ws.recv()))["type"] != "snapshot":
            pass
    return message


async def test_no_push_for_a_match_watched_on_any_process(
        servers: tuple[Server, Server], engine: AsyncEngine, postgres_url: str) -> None:
    a, b = servers
    ada_id, ada = (made := await players(engine, postgres_url, "PushAda", "PushBo"))["PushAda"]
    bo_id, bo = made["PushBo"]
    async with httpx.AsyncClient(timeout=10) as http:
        keys = [(await http.get(f"{s.base}/api/v1/push/key")).json()["public_key"] for s in (a, b)]
        assert keys[0] == keys[1]  # every process signs with the one key
        stand_in = await PushServiceStandIn(keys[0]).start()
        channel = PushChannel(engine, VapidKeys(engine), PushSettings(HOSTS, "mailto:ops@magery.example", 10.0,
                                                                      TTL_MS))
        try:
            ada_browser, bo_browser = stand_in.browser(), stand_in.browser()
            for server, who, browser in ((a, ada, ada_browser), (b, bo, bo_browser)):
                r = await http.post(f"{server.base}/api/v1/account/push", json=browser.subscription(), headers=who)
                assert r.status_code == 201, r.text
            r = await http.post(f"{a.base}/api/v1/matches", headers=ada, json={
                "options": {"time_control": {"type": "correspondence", "days": 3}}, "seat": "white"})
            assert r.status_code == 201, r.text
            match_id = r.json()["match"]["id"]
            assert (await http.post(f"{a.base}/api/v1/matches/{match_id}/join", headers=bo, json={})).status_code == 200

            def turn(account_id: int) -> PushItem:
                return PushItem(account_id, "your_turn", "Your turn", "It is your turn", f"/matches/{match_id}",
                                match_id=match_id)

            async def is_watching() -> bool:
                return await watching(engine, ada_id, match_id, round(channel.clock() * 1000), TTL_MS)

            for server in (b, a):  # the socket on either process
                path = server.ws(match_id).removeprefix("ws://")
                async with connect(f"ws://{path}", additional_headers=ada) as ws:
                    assert (await snapshot(ws))["match"]["id"] == match_id
                    await until(is_watching, "Ada's socket written present")
                    assert await channel.deliver(turn(ada_id)) == Delivered(skipped="watching")
                    assert await channel.deliver(turn(bo_id)) == Delivered(sent=1)  # Bo has no socket open
                    assert (await bo_browser.next_push(DEADLINE)).said["match_id"] == match_id
                await until(lambda: _not(is_watching), "Ada's closed socket written absent")
                assert ada_browser.pushed == []
                assert await channel.deliver(turn(ada_id)) == Delivered(sent=1)
                pushed = await ada_browser.next_push(DEADLINE)
                assert pushed.said["match_id"] == match_id and pushed.said["url"] == f"/matches/{match_id}"
            assert stand_in.refused == []
        finally:
            await channel.close()
            await stand_in.stop()


async def _not(check: Any) -> bool:
    return not await check()
