"""Bot accounts (issue 21): an account turns itself into one with a token, only
before any rated match and for good; it is titled "BOT" wherever a player is
shown; the pools pair it only with bots and with people who consent."""

from __future__ import annotations

from typing import Any

import httpx

from ..conftest import ROW
from ..realtime.conftest import Socket, ws_path
from ..sign_in_counting import client_at
from .members import member
from .streams import Stream

BOT = "/api/v1/account/bot"
POOL = "/api/v1/pools/standard:10+5/join"


async def test_an_account_becomes_a_bot_account_shown_as_one_everywhere(app: Any, client: httpx.AsyncClient) -> None:
    ada, grace = await member(app, "Ada"), await member(app, "Grace")
    assert (await client.post(BOT, headers=grace.session())).status_code == 403  # a token only, never a page
    r = await client.post(BOT, headers=grace.token(grace.read))
    assert r.status_code == 403 and r.json()["error"] == "insufficient_scope"
    assert (await client.get("/api/v1/account", headers=grace.token())).json()["title"] is None

    r = await client.post(BOT, headers=grace.token())
    assert r.status_code == 200 and r.json()["title"] == "BOT" and r.json()["name"] == "Grace"
    assert (await client.post(BOT, headers=grace.token())).json()["title"] == "BOT"  # again: nothing changes
    assert (await client.get("/api/v1/users/Grace")).json()["title"] == "BOT"
    assert (await client.get("/api/v1/users/Ada")).json()["title"] is None

    # The bot account plays a match; its seat is titled, from the answer on.
    r = await client.post("/api/v1/matches", json={"seat": "white"}, headers=grace.token())
    match_id = r.json()["match"]["id"]
    assert r.json()["match"]["players"]["white"]["title"] == "BOT"
    r = await client.post(f"/api/v1/matches/{match_id}/join", json={}, headers=ada.token())
    assert r.json()["match"]["players"]["white"]["title"] == "BOT"
    assert r.json()["match"]["players"]["black"]["title"] is None
    r = await client.post(f"/api/v1/matches/{match_id}/actions", headers=grace.token(),
                          json={"action": {"type": "setup", "backrow": ROW}, "version": 1})
    assert r.status_code == 200 and r.json()["match"]["players"]["white"]["title"] == "BOT"
    assert (await client.get(f"/api/v1/matches/{match_id}")).json()["players"]["white"]["title"] == "BOT"
    stored = await app.state.parts.service.keeper.get(match_id, fresh=True)  # read again from the database
    assert stored.seats["white"].title == "BOT" and stored.seats["black"].title is None
    mine = (await client.get("/api/v1/users/Ada/matches")).json()["matches"]
    assert mine[0]["opponent_title"] == "BOT"
    # Its session may read, but plays nothing through the pages: a program plays with its token.
    r = await client.post("/api/v1/challenges/Ada", json={}, headers=grace.session())
    assert r.status_code == 403 and r.json()["error"] == "bot_account", r.text
    assert (await client.get("/api/v1/account", headers=grace.session())).json()["title"] == "BOT"
    async with Stream(app, "POST", "/api/v1/stream/person", grace.session(), body={"seats": []}) as page:
        assert page.status == 200 and (await page.next())["type"] == "person"  # a page's channel is a read
    profile = await client.get("/@/Grace")
    assert profile.status_code == 200 and ">BOT</span>" in profile.text


async def test_only_an_account_that_has_played_no_rated_match(app: Any, client: httpx.AsyncClient) -> None:
    ada = await member(app, "Ada")
    r = await client.post("/api/v1/matches", json={"seat": "white", "opponent": "bot:random", "rated": True},
                          headers=ada.token())
    assert r.status_code == 201, r.text
    r = await client.post(BOT, headers=ada.token())
    assert r.status_code == 409 and r.json()["error"] == "played_rated" and "rated match" in r.json()["detail"]
    assert (await client.get("/api/v1/account", headers=ada.token())).json()["title"] is None


async def test_the_pools_pair_a_bot_account_only_with_those_who_consent(app: Any, client: httpx.AsyncClient) -> None:
    grace, ada, bo = await member(app, "Grace"), await member(app, "Ada"), await member(app, "Bo")
    assert (await client.post(BOT, headers=grace.token())).status_code == 200
    assert (await client.post(POOL, json={}, headers=grace.token())).json()["status"] == "waiting"
    async with client_at(app, "10.7.0.2") as elsewhere:  # the pools never pair two places of one address
        r = await elsewhere.post(POOL, json={}, headers=ada.token())
        assert r.json()["status"] == "waiting"  # Ada did not say she would meet a bot
    async with client_at(app, "10.7.0.3") as elsewhere:
        r = await elsewhere.post(POOL, json={"bots": True}, headers=bo.token())
    paired = r.json()
    assert paired["status"] == "paired", paired
    match = (await client.get(f"/api/v1/matches/{paired['match']['id']}")).json()
    assert {p["account"] for p in match["players"].values()} == {"Grace", "Bo"}


async def test_a_bot_accounts_session_watches_on_the_socket_and_acts_on_it_never(
        app: Any, client: httpx.AsyncClient) -> None:
    """The websocket keeps REST's rule: a bot account's cookie reads (its seat's view),
    and acting with it — an action, a chat line — is refused `bot_account`; its token acts."""
    ada, grace = await member(app, "Ada"), await member(app, "Grace")
    assert (await client.post(BOT, headers=grace.token())).status_code == 200
    r = await client.post("/api/v1/matches", json={"seat": "white"}, headers=grace.token())
    match_id = r.json()["match"]["id"]
    assert (await client.post(f"/api/v1/matches/{match_id}/join", json={}, headers=ada.token())).status_code == 200
    setup = {"type": "action", "action": {"type": "setup", "backrow": ROW}, "version": 1}

    page = await Socket.open(app, ws_path(match_id), {"Cookie": grace.session()["Cookie"],
                                                      "Origin": "http://testserver"})
    snapshot = await page.receive()
    assert snapshot["type"] == "snapshot" and snapshot["match"]["players"]["white"]["connected"]  # its seat
    for said in ({**setup, "id": "p-1"}, {"type": "chat", "text": "Good luck", "id": "p-2"}):
        await page.send(said)
        answer, _ = await page.receive_until(lambda m: m["type"] in ("ack", "chat_ack", "error"))
        assert answer["type"] == "error" and answer["error"] == "bot_account" and answer["id"] == said["id"], answer
        assert "account token" in answer["detail"]
    await page.close()

    program = await Socket.open(app, ws_path(match_id), grace.token())
    assert (await program.receive())["type"] == "snapshot"
    await program.send({**setup, "id": "t-1"})
    ack, _ = await program.receive_until(lambda m: m["type"] in ("ack", "error"))
    assert ack["type"] == "ack", ack
    await program.close()
