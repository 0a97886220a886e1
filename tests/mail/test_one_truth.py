"""The email API's switches and the notifications' preferences are one set of
choices (app/mail/switches.py): each route reads what the other wrote, and a
mail's one-click unsubscribe turns off the choice the outbox reads."""

from __future__ import annotations

from typing import Any

import httpx

from app.mail.outcomes import Delivered, Gone
from tests.mail.conftest import Sink, account_token, path_of
from tests.mail.test_email_flow import Item, verified

EMAIL = "/api/v1/account/email"
PREFS = "/api/v1/account/notification-preferences"


async def by_email(client: httpx.AsyncClient, headers: dict[str, str]) -> dict[str, bool]:
    got = (await client.get(PREFS, headers=headers)).json()["preferences"]
    return {kind: got[kind]["email"] for kind in ("your_turn", "challenge")}


async def switches(client: httpx.AsyncClient, headers: dict[str, str]) -> dict[str, bool]:
    got = (await client.get(EMAIL, headers=headers)).json()["preferences"]
    return {name: got[name] for name in ("turn", "challenge", "digest")}


async def test_each_route_reads_what_the_other_wrote(app: Any, client: httpx.AsyncClient, sink: Sink) -> None:
    _, headers = await account_token(client, app, "Ada")
    await verified(client, sink, headers, "ada@example.org")  # turns `turn` and `challenge` on by the email API
    assert await by_email(client, headers) == {"your_turn": True, "challenge": True}
    r = await client.put(PREFS, json={"challenge": {"email": False}}, headers=headers)
    assert r.status_code == 200, r.text
    assert await switches(client, headers) == {"turn": True, "challenge": False, "digest": False}
    r = await client.put(f"{EMAIL}/preferences", json={"turn": False, "digest": True}, headers=headers)
    assert r.status_code == 200 and r.json()["preferences"]["turn"] is False, r.text
    assert await by_email(client, headers) == {"your_turn": False, "challenge": False}
    assert await switches(client, headers) == {"turn": False, "challenge": False, "digest": True}


async def test_a_switch_before_any_address_is_still_refused(app: Any, client: httpx.AsyncClient) -> None:
    _, headers = await account_token(client, app, "Bo")
    r = await client.put(f"{EMAIL}/preferences", json={"turn": True}, headers=headers)
    assert r.status_code == 409 and r.json()["error"] == "no_address"
    assert await by_email(client, headers) == {"your_turn": False, "challenge": False}


async def test_unsubscribing_from_a_turn_mail_turns_off_the_outbox_choice(
        app: Any, client: httpx.AsyncClient, sink: Sink) -> None:
    ada, headers = await account_token(client, app, "Ada")
    await verified(client, sink, headers, "ada@example.org")
    mailer = app.state.parts.mail
    url = await mailer.unsubscribe_url(ada, "turn")
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as stranger:
        r = await stranger.post(path_of(url), content="List-Unsubscribe=One-Click",
                                headers={"Content-Type": "application/x-www-form-urlencoded"})
        assert r.status_code == 200, r.text
    assert await by_email(client, headers) == {"your_turn": False, "challenge": True}


async def test_each_mail_is_decided_by_its_own_kinds_email_choice(
        app: Any, client: httpx.AsyncClient, sink: Sink) -> None:
    """The account page's grid has a row for your turn and one for the clock's
    alarm: each row's email box alone decides its mail."""
    ada, headers = await account_token(client, app, "Ada")
    await verified(client, sink, headers, "ada@example.org")  # turn: your_turn and clock_alarm by email on
    mailer = app.state.parts.mail
    alarm = Item(ada, "alarm", {"match_id": "m1", "opponent": "Bo", "hours_left": 9.6})
    turn = Item(ada, "turn", {"match_id": "m1", "opponent": "Bo"})
    r = await client.put(PREFS, json={"your_turn": {"email": False}}, headers=headers)
    assert r.status_code == 200, r.text
    assert await mailer.deliver(turn) == Gone("not_wanted")
    assert await mailer.deliver(alarm) == Delivered()  # its own row still on
    r = await client.put(PREFS, json={"your_turn": {"email": True}, "clock_alarm": {"email": False}},
                         headers=headers)
    assert r.status_code == 200, r.text
    assert await mailer.deliver(alarm) == Gone("not_wanted")
    assert await mailer.deliver(turn) == Delivered()
