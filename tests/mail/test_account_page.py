"""The account page's email section: give an address, confirm it, choose the
kinds; every form needs the session's CSRF token; with no SMTP_URL the page
says email is off."""

from __future__ import annotations

from typing import Any

import httpx

from tests.mail.conftest import Sink, links, path_of
from tests.web.accounts_helpers import csrf_of, sign_up


async def test_the_page_gives_confirms_and_chooses(app: Any, client: httpx.AsyncClient, sink: Sink) -> None:
    await sign_up(client, "Ada")
    page = (await client.get("/account")).text
    assert 'action="/account/email"' in page and "email-off" not in page
    csrf = await csrf_of(client)
    refused = await client.post("/account/email", data={"address": "ada@example.org", "csrf_token": "wrong"})
    assert refused.status_code == 403 and sink.to("ada@example.org") == []
    bad = await client.post("/account/email", data={"address": "ada at example", "csrf_token": csrf})
    assert bad.status_code == 400 and "Address not saved" in bad.text and 'value="ada at example"' in bad.text
    r = await client.post("/account/email", data={"address": "ada@example.org", "csrf_token": csrf})
    assert r.status_code == 303
    shown = (await client.get(r.headers["location"])).text
    assert "A link is mailed to your address" in shown and "not confirmed yet" in shown
    await client.post(path_of(links(sink.to("ada@example.org")[0])[0]))
    assert "confirmed." in (await client.get("/account")).text
    r = await client.post("/account/email/preferences",
                          data={"turn": "on", "digest": "on", "digest_hour": "7", "csrf_token": csrf})
    assert r.status_code == 303
    page = (await client.get("/account")).text
    assert 'name="turn" checked' in page and 'name="challenge">' in page and '<option value="7" selected>' in page
    r = await client.post("/account/email/remove", data={"csrf_token": csrf})
    assert r.status_code == 303 and "ada@example.org" not in (await client.get("/account")).text
