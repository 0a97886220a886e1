"""A person's live channel (issue 20): what concerns them pushed at once, on
whichever process holds the stream; a guest known only by the seats it proves;
streams bounded per address."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from app.main import create_app

from ..conftest import ROW, Api, Game, make_settings
from ..waiting import DEADLINE
from .members import member
from .streams import Stream

PATH = "/api/v1/stream/person"


def challenges_in(message: dict[str, Any]) -> list[str]:
    return [c["challenger"] for c in message["challenges"]["in"]]


@pytest.fixture
def settings(database_url: str) -> Any:
    # Recheck rarely: what these tests see comes from the nudges, not from a poll.
    return make_settings(database_url, person_recheck_seconds=3600.0, person_channels_per_address=2)


async def test_a_challenge_and_its_match_reach_both_pages_at_once(app: Any, client: httpx.AsyncClient) -> None:
    ada, bo = await member(app, "Ada"), await member(app, "Bo")
    async with Stream(app, "GET", PATH, ada.session(csrf=False)) as ada_page, \
            Stream(app, "GET", PATH, bo.session(csrf=False)) as bo_page:
        first = await bo_page.next()
        assert first == {"type": "person", "challenges": {"in": [], "out": []}, "matches": [], "awaiting": 0,
                         "tournaments": [], "inbox": {"unread": 0, "latest": 0}}
        r = await client.post("/api/v1/challenges/Bo", json={"colour": "white"}, headers=ada.token())
        sent = r.json()
        await bo_page.until(lambda m: challenges_in(m) == ["Ada"], "Ada's challenge, to Bo")
        await ada_page.until(lambda m: [c["status"] for c in m["challenges"]["out"]] == ["pending"], "sent")

        assert (await client.post(f"/api/v1/challenges/{sent['id']}/accept", headers=bo.token())).status_code == 200
        ada_sees = await ada_page.until(lambda m: m["matches"], "the match, on the challenger's page")
        assert ada_sees["challenges"]["out"][0]["match_id"] == ada_sees["matches"][0]["id"]
        assert ada_sees["matches"][0]["opponent"] == "Bo" and ada_sees["matches"][0]["colour"] == "white"
        assert ada_sees["awaiting"] == 1  # White sets up first
        bo_sees = await bo_page.until(lambda m: m["matches"], "the match, on the accepter's page")
        assert bo_sees["awaiting"] == 0 and bo_sees["challenges"]["in"] == []

        # The header's count follows the moves: White sets up, and it is Black's to act.
        game = Game(ada_sees["matches"][0]["id"])
        r = await client.post(f"/api/v1/matches/{game.id}/actions", headers=ada.token(),
                              json={"action": {"type": "setup", "backrow": ROW}, "version": 1})
        assert r.status_code == 200, r.text
        await bo_page.until(lambda m: m["awaiting"] == 1 and m["matches"][0]["awaiting"], "Bo's turn")
        await ada_page.until(lambda m: m["awaiting"] == 0, "no longer Ada's turn")


async def test_a_guest_sees_only_the_seats_its_tokens_prove(app: Any, api: Api) -> None:
    game = await api.start()
    other = await api.create()
    seats = [{"match": game.id, "token": game.tokens["black"]},
             {"match": other.id, "token": game.tokens["white"]}]  # a token of another match proves nothing
    async with Stream(app, "POST", PATH, body={"seats": seats}) as page:
        seen = await page.next()
        assert [(m["id"], m["colour"], m["awaiting"]) for m in seen["matches"]] == [(game.id, "black", False)]
        await api.act(game, "white", {"type": "setup", "backrow": ROW})
        seen = await page.until(lambda m: m["awaiting"] == 1, "the guest's turn")
        assert seen["matches"][0]["opponent"] == "Ada" and "token" not in str(seen)


async def test_channels_are_bounded_per_address_and_need_someone(app: Any, client: httpx.AsyncClient) -> None:
    ada = await member(app, "Ada")
    async with Stream(app, "GET", PATH, ada.token()) as one, Stream(app, "GET", PATH, ada.token()) as two:
        await one.next(), await two.next()
        async with Stream(app, "GET", PATH, ada.token()) as three:
            assert three.status == 429 and (await three.whole())["error"] == "too_many_channels"
        async with Stream(app, "GET", PATH, ada.token(), client="10.1.1.1") as elsewhere:
            assert elsewhere.status == 200  # another address has its own
    async with Stream(app, "GET", PATH, ada.token()) as again:  # the closed ones gave their places back
        assert again.status == 200
    for method, body in (("GET", None), ("POST", {"seats": []})):
        async with Stream(app, method, PATH, body=body) as nobody:
            assert nobody.status == 401 and (await nobody.whole())["error"] == "unauthorized"
    async with Stream(app, "POST", PATH, body={"seats": [{"match": "x", "token": "<script>"}]}) as bad:
        assert bad.status == 400


async def test_a_challenge_made_on_one_process_reaches_a_channel_on_another(database_url: str) -> None:
    # On PostgreSQL the nudge crosses on the bus (no recheck for an hour); SQLite has
    # no bus between processes: there the channel's recheck finds it.
    recheck = 3600.0 if database_url.startswith("postgresql") else 0.2
    first = create_app(make_settings(database_url, person_recheck_seconds=recheck))
    second = create_app(make_settings(database_url, person_recheck_seconds=recheck))
    async with first.router.lifespan_context(first), second.router.lifespan_context(second):
        ada, bo = await member(first, "Ada"), await member(first, "Bo")
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=first), base_url="http://testserver") as c, \
                Stream(second, "GET", PATH, bo.token()) as bo_page:
            await bo_page.next()
            r = await c.post("/api/v1/challenges/Bo", json={}, headers=ada.token())
            assert r.status_code == 201
            await bo_page.until(lambda m: challenges_in(m) == ["Ada"], "the challenge, across processes")


async def test_a_channel_ends_when_the_server_stops(app: Any) -> None:
    ada = await member(app, "Ada")
    async with Stream(app, "GET", PATH, ada.token()) as page:
        await page.next()
        await app.state.parts.hub.close_sockets(1001)  # as a SIGTERM does, before uvicorn waits for requests
        assert page.task is not None
        await asyncio.wait_for(page.task, DEADLINE)  # the stream ended by itself: nothing holds the process up


@pytest.mark.parametrize("ended_by", ["sign-out", "revoked token", "closed account"])
async def test_a_channel_ends_once_its_credential_no_longer_holds(database_url: str, ended_by: str) -> None:
    """Issue 19: a closed account's sessions and tokens stop at once; a stream
    opened with one is asked again at its next wake (here a recheck of 0.05 s)."""
    app = create_app(make_settings(database_url, person_recheck_seconds=0.05))
    async with app.router.lifespan_context(app):
        ada = await member(app, "Ada")
        accounts = app.state.parts.accounts
        headers = ada.session(csrf=False) if ended_by == "sign-out" else ada.token()
        async with Stream(app, "GET", PATH, headers) as page:
            await page.next()
            if ended_by == "sign-out":
                session = await accounts.session(ada.cookie)
                assert session is not None
                await accounts.sign_out(session.id)
            elif ended_by == "revoked token":
                holder = await accounts.verify_token(ada.play)
                assert holder is not None and holder.token_id is not None
                assert await accounts.revoke_token(ada.account, holder.token_id)
            else:
                await accounts.close(ada.name)
            assert page.task is not None
            await asyncio.wait_for(page.task, DEADLINE)  # ended by itself
