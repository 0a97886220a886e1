"""The account page's email section and the email column of its notifications
grid: give an address, confirm it, choose the digest; the grid's email boxes
are disabled (and a form naming them changes nothing) until the address is
confirmed, then they write the one truth the email API reads; every form needs
the session's CSRF token; with no SMTP_URL the page says email is off."""

from __future__ import annotations

import re
from typing import Any

import httpx

from tests.mail.conftest import Sink, links, path_of
from tests.web.accounts_helpers import csrf_of, sign_up

PREFS = "/api/v1/account/notification-preferences"


def box(page: str, name: str) -> str:
    """The grid's checkbox `name` (kind.channel), as the page draws it."""
    found = re.search(rf'<input type="checkbox" name="{re.escape(name)}"[^>]*>', page)
    assert found, f"no box {name}"
    return found.group(0)


async def by_email(client: httpx.AsyncClient) -> dict[str, bool]:
    got = (await client.get(PREFS)).json()["preferences"]
    return {kind: got[kind]["email"] for kind in ("your_turn", "clock_alarm", "challenge")}


async def test_the_page_gives_confirms_and_chooses(app: Any, client: httpx.AsyncClient, sink: Sink) -> None:
    await sign_up(client, "Ada")
    page = (await client.get("/account")).text
    assert 'action="/account/email"' in page and 'id="email-off"' not in page
    assert "disabled" in box(page, "your_turn.email") and "Give an email address" in page
    csrf = await csrf_of(client)
    refused = await client.post("/account/email", data={"address": "ada@example.org", "csrf_token": "wrong"})
    assert refused.status_code == 403 and sink.to("ada@example.org") == []
    bad = await client.post("/account/email", data={"address": "ada at example", "csrf_token": csrf})
    assert bad.status_code == 400 and "Address not saved" in bad.text and 'value="ada at example"' in bad.text
    r = await client.post("/account/email", data={"address": "ada@example.org", "csrf_token": csrf})
    assert r.status_code == 303
    shown = (await client.get(r.headers["location"])).text
    assert "A link is mailed to your address" in shown and "not confirmed yet" in shown
    assert "disabled" in box(shown, "your_turn.email") and "Confirm your address first" in shown
    # A form naming the email cells before the address is confirmed changes none of them.
    r = await client.post("/account/notifications", data={"csrf_token": csrf, "cells": ["your_turn.email"],
                                                          "your_turn.email": "on"})
    assert r.status_code == 303 and await by_email(client) == {"your_turn": False, "clock_alarm": False,
                                                               "challenge": False}
    await client.post(path_of(links(sink.to("ada@example.org")[0])[0]))
    page = (await client.get("/account")).text
    assert "confirmed." in page and "disabled" not in box(page, "your_turn.email")
    assert 'name="match_ended.email"' not in page  # no mail is written for it: no box
    r = await client.post("/account/notifications", data={
        "csrf_token": csrf, "cells": ["your_turn.email", "challenge.email", "clock_alarm.email"],
        "your_turn.email": "on", "challenge.email": "on"})
    assert r.status_code == 303 and r.headers["location"] == "/account?notifications=saved#notify-title"
    assert await by_email(client) == {"your_turn": True, "clock_alarm": False, "challenge": True}
    email = (await client.get("/api/v1/account/email")).json()["preferences"]
    assert email["turn"] is True and email["challenge"] is True  # the email API reads the same truth
    r = await client.post("/account/email/preferences", data={"digest": "on", "digest_hour": "7", "csrf_token": csrf})
    assert r.status_code == 303
    page = (await client.get("/account")).text
    assert 'name="digest" checked' in page and '<option value="7" selected>' in page
    assert 'name="turn"' not in page and 'name="challenge"' not in page  # kinds are chosen in the grid alone
    assert await by_email(client) == {"your_turn": True, "clock_alarm": False, "challenge": True}  # untouched
    assert "checked" in box(page, "your_turn.email") and "checked" not in box(page, "clock_alarm.email")
    r = await client.post("/account/email/remove", data={"csrf_token": csrf})
    assert r.status_code == 303 and "ada@example.org" not in (await client.get("/account")).text
