"""Email end to end, on both databases, against a real SMTP server (conftest's
aiosmtpd): an address given by the API, verified by following the mailed link
through the app, then a "your turn" mail with both parts, the match's link and
no secret, and its one-click unsubscribe (RFC 8058) posted without a session."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import httpx
from sqlalchemy import select

from app.db.mail_models import mail_addresses
from app.mail import Delivered, Gone, Mailer, RetryLater
from tests.conftest import make_settings
from tests.mail.conftest import SITE, Sink, account_token, free_port, links, parts_of, path_of

EMAIL = "/api/v1/account/email"


@dataclass
class Item:
    account_id: int
    kind: str
    payload: dict[str, Any] = field(default_factory=dict)


def mailer(app: Any) -> Mailer:
    return app.state.parts.mail  # type: ignore[no-any-return]


async def verified(client: httpx.AsyncClient, sink: Sink, headers: dict[str, str], address: str) -> None:
    """Give the address, follow the mailed link (its page, then its button), opt in to every kind."""
    r = await client.put(EMAIL, json={"address": address}, headers=headers)
    assert r.status_code == 200, r.text
    link = links(sink.to(address)[-1])[0]
    assert (await client.get(path_of(link))).status_code == 200  # a page: a scanner opening it verifies nothing
    assert (await client.get(EMAIL, headers=headers)).json()["verified"] is False
    done = await client.post(path_of(link))
    assert done.status_code == 200 and "Address confirmed" in done.text
    r = await client.put(f"{EMAIL}/preferences", json={"turn": True, "challenge": True}, headers=headers)
    assert r.status_code == 200 and r.json()["verified"] is True, r.text


async def test_verify_then_mail_a_turn_then_unsubscribe_in_one_click(app: Any, client: httpx.AsyncClient,
                                                                      sink: Sink) -> None:
    ada, headers = await account_token(client, app, "Ada")
    made = await client.post("/api/v1/matches", json={"seat": "white"}, headers=headers)
    match_id, seat_token = made.json()["match"]["id"], made.json()["token"]
    r = await client.put(EMAIL, json={"address": "ada@example.org"}, headers=headers)
    assert r.status_code == 200 and r.json()["address"] == "ada@example.org" and not r.json()["verified"]
    (verify_mail,) = sink.to("ada@example.org")
    assert "Confirm" in verify_mail["Subject"] and verify_mail["List-Unsubscribe"] is None
    # Before the link is followed nothing else is sent, whatever the preferences.
    assert (await client.put(f"{EMAIL}/preferences", json={"turn": True}, headers=headers)).status_code == 200
    assert await mailer(app).deliver(Item(ada, "turn", {"match_id": match_id, "opponent": "Bo"})) == Gone("no_address")
    assert len(sink.to("ada@example.org")) == 1
    await verified(client, sink, headers, "ada@example.org")

    outcome = await mailer(app).deliver(Item(ada, "turn", {"match_id": match_id, "opponent": "Bo"}))
    assert outcome == Delivered()
    turn = sink.to("ada@example.org")[-1]
    text, html = parts_of(turn)
    assert turn["Subject"] == "Your turn against Bo"
    assert f"{SITE}/matches/{match_id}" in text and f'href="{SITE}/matches/{match_id}"' in html
    raw = turn.as_string()
    assert seat_token not in raw and "mgo_" not in raw and "magery_session" not in raw  # no secret
    assert turn["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    unsubscribe = turn["List-Unsubscribe"].strip("<>")
    assert unsubscribe.startswith(f"{SITE}/mail/unsubscribe/") and unsubscribe in text

    # RFC 8058: the mail client posts, with no cookie and no CSRF token.
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as stranger:
        r = await stranger.post(path_of(unsubscribe), content="List-Unsubscribe=One-Click",
                                headers={"Content-Type": "application/x-www-form-urlencoded"})
        assert r.status_code == 200 and "Unsubscribed" in r.text
        forged = await stranger.post(path_of(unsubscribe)[:-3] + "abc")
        assert forged.status_code == 400
    prefs = (await client.get(EMAIL, headers=headers)).json()["preferences"]
    assert prefs["turn"] is False and prefs["challenge"] is True  # only that kind is off
    assert await mailer(app).deliver(Item(ada, "turn", {"match_id": match_id})) == Gone("not_wanted")
    assert await mailer(app).deliver(Item(ada, "challenge", {"challenger": "Bo"})) == Delivered()
    assert sink.to("ada@example.org")[-1]["Subject"] == "Bo challenges you"


async def test_a_changed_address_is_verified_again_and_old_links_die(app: Any, client: httpx.AsyncClient,
                                                                     sink: Sink) -> None:
    ada, headers = await account_token(client, app, "Ada")
    await client.put(EMAIL, json={"address": "first@example.org"}, headers=headers)
    old_link = links(sink.to("first@example.org")[0])[0]
    await verified(client, sink, headers, "second@example.org")
    assert (await client.post(path_of(old_link))).status_code == 400  # sent to an address no longer the account's
    r = await client.put(EMAIL, json={"address": "third@example.org"}, headers=headers)
    assert r.json()["verified"] is False and r.json()["address"] == "third@example.org"
    assert await mailer(app).deliver(Item(ada, "turn", {"match_id": "m1"})) == Gone("no_address")
    same = await client.put(EMAIL, json={"address": "third@example.org"}, headers=headers)
    assert same.status_code == 200 and len(sink.to("third@example.org")) == 2  # unverified: a fresh link


async def test_an_expired_link_verifies_nothing(app: Any, client: httpx.AsyncClient, sink: Sink) -> None:
    _, headers = await account_token(client, app, "Ada")
    await client.put(EMAIL, json={"address": "ada@example.org"}, headers=headers)
    link = links(sink.to("ada@example.org")[0])[0]
    accounts = app.state.parts.accounts
    later = accounts.clock() + 24 * 3600 + 60  # past MAIL_VERIFY_HOURS (24)
    accounts.clock = lambda: later
    assert (await client.post(path_of(link))).status_code == 400
    assert (await client.get(EMAIL, headers=headers)).json()["verified"] is False


async def test_the_address_is_its_owners_alone(app: Any, client: httpx.AsyncClient, sink: Sink) -> None:
    _, headers = await account_token(client, app, "Ada")
    _, other = await account_token(client, app, "Bo")
    await verified(client, sink, headers, "ada@example.org")
    for path in ("/api/v1/users/Ada", "/@/Ada", "/api/v1/users/Ada/matches", "/api/v1/account"):
        r = await client.get(path, headers=other if path.startswith("/api/v1/account") else {})
        assert r.status_code == 200 and "ada@example.org" not in r.text, path
    assert (await client.get(EMAIL, headers=other)).json()["address"] is None  # Bo's own, which is none
    read_only = (await account_token(client, app, "Cy", ("read",)))[1]
    refused = await client.put(EMAIL, json={"address": "cy@example.org"}, headers=read_only)
    assert refused.status_code == 403 and refused.json()["error"] == "insufficient_scope"


async def test_nobody_can_mail_bomb_an_address(app: Any, client: httpx.AsyncClient, sink: Sink) -> None:
    """A stranger's address given by many accounts gets 3 verification mails a day, no more."""
    answers = []
    for n in range(5):
        _, headers = await account_token(client, app, f"Bomber{n}")
        answers.append(await client.put(EMAIL, json={"address": "victim@example.org"}, headers=headers))
    assert [r.status_code for r in answers] == [200, 200, 200, 429, 429]
    assert answers[3].json()["error"] == "too_many_mails" and len(sink.to("victim@example.org")) == 3
    # One account cycling through addresses is bounded too.
    _, headers = await account_token(client, app, "Cycler")
    codes = [(await client.put(EMAIL, json={"address": f"n{n}@example.org"}, headers=headers)).status_code
             for n in range(6)]
    assert codes == [200] * 5 + [429]


async def test_bad_input_is_a_clear_error(app: Any, client: httpx.AsyncClient, sink: Sink) -> None:
    _, headers = await account_token(client, app, "Ada")
    r = await client.put(EMAIL, json={"address": "not an address"}, headers=headers)
    assert r.status_code == 400 and "address" in r.json()["detail"]
    r = await client.put(f"{EMAIL}/preferences", json={"turn": True}, headers=headers)
    assert r.status_code == 409 and r.json()["error"] == "no_address"
    await client.put(EMAIL, json={"address": "ada@example.org"}, headers=headers)
    for body in ({"digest_hour": 24}, {"turn": "yes"}, {"shout": True}):
        r = await client.put(f"{EMAIL}/preferences", json=body, headers=headers)
        assert r.status_code == 400, (body, r.text)
    assert (await client.get(EMAIL)).status_code == 401


async def test_refusals_for_now_retry_and_for_good_mark_the_address(app: Any, client: httpx.AsyncClient,
                                                                   sink: Sink) -> None:
    ada, headers = await account_token(client, app, "Ada")
    await verified(client, sink, headers, "ada@example.org")
    sink.answers["ada@example.org"] = "451 4.2.1 mailbox busy, try later"
    assert isinstance(await mailer(app).deliver(Item(ada, "turn", {"match_id": "m1"})), RetryLater)
    sink.answers["ada@example.org"] = "550 5.1.1 no such mailbox"
    assert await mailer(app).deliver(Item(ada, "turn", {"match_id": "m1"})) == Gone("bounced")
    shown = (await client.get(EMAIL, headers=headers)).json()
    assert shown["bounced"] is True and shown["verified"] is False
    del sink.answers["ada@example.org"]
    assert await mailer(app).deliver(Item(ada, "turn", {"match_id": "m1"})) == Gone("no_address")
    assert len(sink.to("ada@example.org")) == 1  # the verification mail alone went through
    # Given again and verified, it is mailed again.
    await verified(client, sink, headers, "ada@example.org")
    assert await mailer(app).deliver(Item(ada, "turn", {"match_id": "m1"})) == Delivered()
    # A verification mail refused for good is said so.
    _, bo = await account_token(client, app, "Bo")
    r = await client.put(EMAIL, json={"address": "gone@example.org"}, headers=bo)
    assert r.status_code == 422 and r.json()["error"] == "address_refused"


async def test_an_smtp_server_out_of_reach_is_retried_later(app: Any, client: httpx.AsyncClient, sink: Sink,
                                                            database_url: str) -> None:
    ada, headers = await account_token(client, app, "Ada")
    await verified(client, sink, headers, "ada@example.org")
    closed = make_settings(database_url, smtp_url=f"smtp://127.0.0.1:{free_port()}", public_url=SITE)
    down = Mailer(app.state.parts.engine, closed)
    assert isinstance(await down.deliver(Item(ada, "turn", {"match_id": "m1"})), RetryLater)
    async with app.state.parts.engine.connect() as conn:  # the address is untouched
        row = (await conn.execute(select(mail_addresses).where(mail_addresses.c.account_id == ada))).one()
    assert row.verified_ms is not None and row.bounced_ms is None
    r = await client.put(EMAIL, json={"address": "ada2@example.org"}, headers=headers)
    assert r.status_code == 200  # the app's own mailer still reaches the sink
    off = Mailer(app.state.parts.engine, make_settings(database_url))
    assert await off.deliver(Item(ada, "turn", {"match_id": "m1"})) == Gone("email_off")


async def test_the_clocks_alarm_is_a_turn_mail_of_its_own(app: Any, client: httpx.AsyncClient, sink: Sink) -> None:
    """The correspondence clock's alarm (80% of a move's time used) goes by the `turn` switch."""
    ada, headers = await account_token(client, app, "Ada")
    await verified(client, sink, headers, "ada@example.org")
    alarm = Item(ada, "alarm", {"match_id": "m1", "opponent": "Bo", "hours_left": 9.6})
    assert await mailer(app).deliver(alarm) == Delivered()
    mail = sink.to("ada@example.org")[-1]
    assert mail["Subject"] == "Your time is running out against Bo" and "about 10 hours" in parts_of(mail)[0]
    await client.post(path_of(mail["List-Unsubscribe"].strip("<>")))
    assert (await client.get(EMAIL, headers=headers)).json()["preferences"]["turn"] is False
    assert await mailer(app).deliver(alarm) == Gone("not_wanted")
    assert await mailer(app).deliver(Item(ada, "digest")) == Gone("not_wanted")  # the digest is the tick's
