"""Pushing, against the stand-in push service (tests/push/stand_in.py): what
it decrypts with the browser's own key is what was said, signed with the
server's VAPID key; each answer of a push service becomes its outcome, and a
gone subscription is forgotten (SQLite and PostgreSQL)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from sqlalchemy import update

from app.db.push_models import push_subscriptions
from app.push.keys import VapidKeys, new_private_key
from app.push.outcomes import Delivered, Gone, RetryLater
from app.push.payload import PushItem
from app.push.subscriptions import of_account
from tests.api.members import Member, member

from .stand_in import Browser, PushServiceStandIn

WAIT = 30.0  # only ever reached by a stuck test


def your_turn(who: Member, match_id: str | None = None) -> PushItem:
    return PushItem(account_id=who.account.id, kind="your_turn", title="Your turn",
                    body="Bo moved: it is your turn against Bo", url=f"/matches/{match_id or 'x1y2z3'}",
                    match_id=match_id, ttl_seconds=3600, urgency="high")


async def subscribed(client: httpx.AsyncClient, who: Member, browser: Browser) -> None:
    r = await client.post("/api/v1/account/push", json=browser.subscription(), headers=who.session())
    assert r.status_code == 201, r.text


async def test_a_push_arrives_encrypted_signed_and_readable_by_the_browser(
        app: Any, client: httpx.AsyncClient, stand_in: PushServiceStandIn) -> None:
    ada = await member(app, "Ada")
    browser = stand_in.browser()
    await subscribed(client, ada, browser)
    outcome = await app.state.parts.push.channel.deliver(your_turn(ada))
    assert outcome == Delivered(sent=1)
    pushed = await browser.next_push(WAIT)
    assert pushed.said == {"kind": "your_turn", "title": "Your turn", "body": "Bo moved: it is your turn against Bo",
                           "url": "/matches/x1y2z3", "match_id": None, "tag": "your_turn:", "id": None}
    assert pushed.headers["TTL"] == "3600" and pushed.headers["Urgency"] == "high"
    assert pushed.claims["aud"] == stand_in.origin and pushed.claims["sub"].startswith("mailto:")
    assert stand_in.refused == []


async def test_every_browser_of_the_account_gets_it_once(
        app: Any, client: httpx.AsyncClient, stand_in: PushServiceStandIn) -> None:
    ada, bo = await member(app, "Ada"), await member(app, "Bo")
    laptop, phone, bos = stand_in.browser(), stand_in.browser(), stand_in.browser()
    for who, browser in ((ada, laptop), (ada, phone), (bo, bos)):
        await subscribed(client, who, browser)
    assert await app.state.parts.push.channel.deliver(your_turn(ada)) == Delivered(sent=2)
    for browser in (laptop, phone):
        assert (await browser.next_push(WAIT)).said["title"] == "Your turn"
    assert len(laptop.pushed) == len(phone.pushed) == len(bos.pushed) == 0
    assert stand_in.answered == 2


@pytest.mark.parametrize("status", [404, 410])
async def test_a_gone_subscription_is_forgotten(app: Any, client: httpx.AsyncClient,
                                                stand_in: PushServiceStandIn, status: int) -> None:
    ada = await member(app, "Ada")
    await subscribed(client, ada, stand_in.browser(status))
    outcome = await app.state.parts.push.channel.deliver(your_turn(ada))
    assert isinstance(outcome, Gone)
    assert await of_account(app.state.parts.engine, ada.account.id) == []
    assert stand_in.answered == 1


async def test_one_gone_browser_of_two_is_forgotten_and_the_other_told(
        app: Any, client: httpx.AsyncClient, stand_in: PushServiceStandIn) -> None:
    ada = await member(app, "Ada")
    old, new = stand_in.browser(410), stand_in.browser()
    await subscribed(client, ada, old)
    await subscribed(client, ada, new)
    assert await app.state.parts.push.channel.deliver(your_turn(ada)) == Delivered(sent=1)
    assert [s.endpoint for s in await of_account(app.state.parts.engine, ada.account.id)] == [new.endpoint]
    assert len((await new.next_push(WAIT)).said) == 7


@pytest.mark.parametrize(("status", "retry_after", "after"), [(429, "120", 120.0), (500, None, None),
                                                              (503, "7", 7.0)])
async def test_a_busy_push_service_means_try_again_later(
        app: Any, client: httpx.AsyncClient, stand_in: PushServiceStandIn, status: int, retry_after: str | None,
        after: float | None) -> None:
    ada = await member(app, "Ada")
    browser = stand_in.browser(status)
    browser.retry_after = retry_after
    await subscribed(client, ada, browser)
    outcome = await app.state.parts.push.channel.deliver(your_turn(ada))
    assert isinstance(outcome, RetryLater) and outcome.after_seconds == after
    assert len(await of_account(app.state.parts.engine, ada.account.id)) == 1  # kept: it may take it later
    browser.status = 201
    assert await app.state.parts.push.channel.deliver(your_turn(ada)) == Delivered(sent=1)


async def test_a_push_service_out_of_reach_means_try_again_later(
        app: Any, client: httpx.AsyncClient, stand_in: PushServiceStandIn) -> None:
    ada = await member(app, "Ada")
    await subscribed(client, ada, stand_in.browser())
    await stand_in.stop()  # nothing listens there now
    outcome = await app.state.parts.push.channel.deliver(your_turn(ada))
    assert isinstance(outcome, RetryLater)


async def test_another_refusal_is_neither_retried_nor_forgotten(
        app: Any, client: httpx.AsyncClient, stand_in: PushServiceStandIn) -> None:
    ada = await member(app, "Ada")
    await subscribed(client, ada, stand_in.browser(403))
    assert isinstance(await app.state.parts.push.channel.deliver(your_turn(ada)), Gone)
    assert len(await of_account(app.state.parts.engine, ada.account.id)) == 1


async def test_a_push_signed_with_another_key_is_refused_by_the_stand_in(
        app: Any, client: httpx.AsyncClient, stand_in: PushServiceStandIn) -> None:
    """The stand-in's checks can fail: it refuses a push not signed with the key it expects."""
    ada = await member(app, "Ada")
    browser = stand_in.browser()
    await subscribed(client, ada, browser)
    stand_in.server_public_key = await VapidKeys(app.state.parts.engine, new_private_key()).public_key()
    assert isinstance(await app.state.parts.push.channel.deliver(your_turn(ada)), Gone)
    assert browser.pushed == [] and "another key" in stand_in.refused[0]


async def test_no_subscription_is_gone(app: Any) -> None:
    ada = await member(app, "Ada")
    assert isinstance(await app.state.parts.push.channel.deliver(your_turn(ada)), Gone)


async def test_an_endpoint_no_longer_allowed_is_never_called(
        app: Any, client: httpx.AsyncClient, stand_in: PushServiceStandIn) -> None:
    """One kept before the configuration changed (or written by hand into the table)."""
    ada = await member(app, "Ada")
    browser = stand_in.browser()
    await subscribed(client, ada, browser)
    async with app.state.parts.engine.begin() as conn:
        await conn.execute(update(push_subscriptions).values(endpoint=browser.endpoint.replace("127.0.0.1",
                                                                                                 "localhost")))
    assert isinstance(await app.state.parts.push.channel.deliver(your_turn(ada)), Gone)
    assert stand_in.answered == 0


async def test_a_redirect_is_not_followed(app: Any, client: httpx.AsyncClient,
                                          stand_in: PushServiceStandIn) -> None:
    """A push service answering 307 elsewhere would make the server call an
    address nobody checked: the answer is taken as a refusal."""
    ada = await member(app, "Ada")
    target = stand_in.browser()
    redirecting = stand_in.browser(307)
    redirecting.retry_after = None
    stand_in.redirects[redirecting.id] = target.endpoint
    await subscribed(client, ada, redirecting)
    assert isinstance(await app.state.parts.push.channel.deliver(your_turn(ada)), Gone)
    assert stand_in.answered == 1 and target.pushed == []
