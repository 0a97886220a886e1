"""The outbox's channels as the server registers them, end to end on both
databases: a correspondence move makes the opponent's outbox items in its
transaction, and the senders deliver each exactly once: by web push to the
stand-in push service (which decrypts it with the browser's key) and by mail
to the test's SMTP server, as the player's choices allow; no push while the
player has a socket open to the match."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import pytest

from app.config import Settings
from app.notify import Sender
from app.push.away import watching
from tests.conftest import make_settings
from tests.mail.conftest import SITE, Sink, parts_of, sink, smtp_server  # noqa: F401 (fixtures)
from tests.mail.test_email_flow import verified
from tests.push.conftest import HOSTS, stand_in  # noqa: F401 (a fixture)
from tests.push.stand_in import PushServiceStandIn

from ..api.members import Member, member
from ..realtime.conftest import Socket, ws_path
from ..waiting import DEADLINE, until
from .conftest import correspondence, outbox_rows, setup

PREFS = "/api/v1/account/notification-preferences"


@pytest.fixture
def settings(database_url: str, smtp_server: tuple[Sink, int]) -> Settings:  # noqa: F811
    return make_settings(database_url, push_endpoint_hosts=HOSTS, smtp_url=f"smtp://127.0.0.1:{smtp_server[1]}",
                         public_url=SITE, mail_digest_tick_seconds=3600.0)


async def away_player(app: Any, client: httpx.AsyncClient, stand_in: PushServiceStandIn,  # noqa: F811
                      sink: Sink) -> tuple[Member, Any]:  # noqa: F811
    """Bea: a browser subscribed, an address verified, "your turn" by email chosen."""
    bea = await member(app, "Bea")
    browser = stand_in.browser()
    r = await client.post("/api/v1/account/push", json=browser.subscription(), headers=bea.session())
    assert r.status_code == 201, r.text
    await verified(client, sink, bea.token(), "bea@example.org")
    r = await client.put(PREFS, json={"your_turn": {"email": True}}, headers=bea.token())
    assert r.status_code == 200 and r.json()["preferences"]["your_turn"]["email"] is True, r.text
    return bea, browser


async def deliver_all(app: Any) -> int:
    """Two senders (as two processes) at once, until the outbox is empty: rows taken."""
    parts = app.state.parts
    other = Sender(parts.engine, parts.channels, name="the-other-process")
    taken = 0
    while await outbox_rows(app):
        taken += sum(await asyncio.gather(parts.sender.send_due(), other.send_due()))
    return taken


async def test_a_move_reaches_the_away_player_by_push_and_by_mail_once_each(
        app: Any, client: httpx.AsyncClient, stand_in: PushServiceStandIn, sink: Sink) -> None:  # noqa: F811
    assert app.state.parts.channels.names == ("push", "email")
    ada = await member(app, "Ada")
    bea, browser = await away_player(app, client, stand_in, sink)
    match = await correspondence(client, ada, bea)
    await deliver_all(app)  # Ada's own "your turn" (she sets up first): she has no browser nor address
    mails_before = len(sink.to("bea@example.org"))
    await setup(client, match, ada)  # Ada's move: Bea to move
    rows = await outbox_rows(app)
    assert sorted((r.channel, r.kind, r.account_id) for r in rows) == [
        ("email", "your_turn", bea.account.id), ("push", "your_turn", bea.account.id)]
    assert await deliver_all(app) == 2
    pushed = await browser.next_push(DEADLINE)
    assert pushed.said["match_id"] == match["id"] and pushed.said["title"] == "Your turn"
    assert pushed.said["body"] == "Your move against Ada." and pushed.said["url"] == f"/matches/{match['id']}"
    mails = sink.to("bea@example.org")[mails_before:]
    assert [m["Subject"] for m in mails] == ["Your turn against Ada"]
    assert f"{SITE}/matches/{match['id']}" in parts_of(mails[0])[0]
    # Exactly once: nothing left to send, nothing more arrives.
    assert await deliver_all(app) == 0
    assert browser.pushed == [] and stand_in.answered == 1 and len(sink.to("bea@example.org")) == mails_before + 1


async def test_no_push_while_the_player_has_the_match_open(
        app: Any, client: httpx.AsyncClient, stand_in: PushServiceStandIn, sink: Sink) -> None:  # noqa: F811
    ada = await member(app, "Ada")
    bea, browser = await away_player(app, client, stand_in, sink)
    match = await correspondence(client, ada, bea)
    await deliver_all(app)
    parts = app.state.parts
    sock = await Socket.open(app, ws_path(match["id"]), bea.token())
    try:
        ttl = round(parts.settings.ws_dead_after_seconds * 1000)

        async def is_watching() -> bool:
            return await watching(parts.engine, bea.account.id, match["id"], round(parts.push.channel.clock() * 1000),
                                  ttl)

        await until(is_watching, "Bea's socket written present")
        await setup(client, match, ada)
        assert {r.channel for r in await outbox_rows(app)} == {"push", "email"}
        assert await deliver_all(app) == 2
        assert browser.pushed == [] and stand_in.answered == 0  # the push was needed by nobody
        assert sink.to("bea@example.org")[-1]["Subject"] == "Your turn against Ada"  # the mail she asked for
    finally:
        await sock.close()


async def test_each_move_of_the_present_player_pushes_the_away_one_once_and_never_the_present_one(
        app: Any, client: httpx.AsyncClient, stand_in: PushServiceStandIn, sink: Sink) -> None:  # noqa: F811
    """bench/push_delay.py's match, without the clock: Pia plays with the match's
    page open (a socket), Bea is away. Each move of Pia's that passes the turn
    pushes Bea once, decrypted to the match, "Your turn" and the notice's id;
    Bea's moves push Pia never (she is subscribed: the socket is why)."""
    parts = app.state.parts
    pia, bea = await member(app, "Pia"), await member(app, "Bea")
    pia_browser, bea_browser = stand_in.browser(), stand_in.browser()
    for who, browser in ((pia, pia_browser), (bea, bea_browser)):
        r = await client.post("/api/v1/account/push", json=browser.subscription(), headers=who.session())
        assert r.status_code == 201, r.text
    r = await client.post("/api/v1/matches", json={"options": {"time_control": {"type": "correspondence", "days": 3}},
                                                   "seat": "white"}, headers=pia.token())
    assert r.status_code == 201, r.text
    match = r.json()["match"]
    sock = await Socket.open(app, ws_path(match["id"]), pia.token())
    try:
        ttl = round(parts.settings.ws_dead_after_seconds * 1000)
        await until(lambda: watching(parts.engine, pia.account.id, match["id"],
                                     round(parts.push.channel.clock() * 1000), ttl), "Pia's socket written present")
        r = await client.post(f"/api/v1/matches/{match['id']}/join", json={}, headers=bea.token())
        assert r.status_code == 200, r.text
        match = r.json()["match"]
        assert await deliver_all(app) == 1  # the join's "your turn" to Pia, who watches: no push
        rng = random.Random(5)
        pushes_to_bea = 0
        while pushes_to_bea < 6 and match["status"] == "active":
            mover = pia if match["to_move"] == "white" else bea
            legal = (await client.get(f"/api/v1/matches/{match['id']}/legal", headers=mover.token())).json()
            action = ({"type": "setup", "backrow": rng.sample(legal["setup"], 8)} if legal["setup"]
                      else rng.choice(legal["actions"]))
            r = await client.post(f"/api/v1/matches/{match['id']}/actions", headers=mover.token(),
                                  json={"action": action, "version": match["version"]})
            assert r.status_code == 200, r.text
            before, match = match, r.json()["match"]
            to_bea = mover is pia and match["status"] == "active" and match["to_move"] == "black"
            rows = [row.id for row in await outbox_rows(app) if row.channel == "push"]
            await deliver_all(app)
            if to_bea:
                assert len(rows) == 1 and before["to_move"] == "white"
                pushed = await bea_browser.next_push(DEADLINE)
                assert pushed.said["match_id"] == match["id"] and pushed.said["title"] == "Your turn"
                assert pushed.said["kind"] == "your_turn" and pushed.said["id"] == rows[0]
                pushes_to_bea += 1
            assert bea_browser.pushed == []  # nothing more than that one
        assert pushes_to_bea == 6
        assert pia_browser.pushed == []
        assert stand_in.answered == 6 and stand_in.refused == []
    finally:
        await sock.close()
