"""The inbox's API: a page at a time with the unread count, marking read, who
may call it; the choices by kind and channel, their defaults and their effect."""

from __future__ import annotations

from typing import Any

import httpx

from ..api.members import member
from .conftest import Recorder, notices, outbox_rows

PREFS = "/api/v1/account/notification-preferences"
READ = "/api/v1/account/notifications/read"


async def challenge(client: httpx.AsyncClient, by: Any, to: str, times: int) -> None:
    for _ in range(times):
        made = (await client.post(f"/api/v1/challenges/{to}", json={}, headers=by.token())).json()
        await client.post(f"/api/v1/challenges/{made['id']}/cancel", headers=by.token())


async def test_pages_newest_first_and_marking_read(app: Any, client: httpx.AsyncClient) -> None:
    ada, bo = await member(app, "Ada"), await member(app, "Bo")
    await challenge(client, ada, "Bo", 5)
    first = await notices(client, bo, limit=2)
    assert first["unread"] == 5 and len(first["notifications"]) == 2 and first["next"] is not None
    ids = [n["id"] for n in first["notifications"]]
    assert ids == sorted(ids, reverse=True)
    rest = await notices(client, bo, before=first["next"], limit=50)
    every = ids + [n["id"] for n in rest["notifications"]]
    assert len(every) == 5 == len(set(every)) and rest["next"] is None
    # Reading marks nothing; marking does, by ids, up to an id, or all.
    assert (await notices(client, bo))["unread"] == 5
    r = await client.post(READ, json={"ids": [every[0]]}, headers=bo.token())
    assert r.json() == {"unread": 4}
    r = await client.post(READ, json={"up_to": every[2]}, headers=bo.token())
    assert r.json() == {"unread": 1}  # every[2] and older, but every[1] stays unread
    assert [n["read"] for n in (await notices(client, bo))["notifications"]] == [True, False, True, True, True]
    assert (await client.post(READ, headers=bo.token())).json() == {"unread": 0}
    # Nobody marks another's notices: Ada's call counts hers alone.
    await challenge(client, bo, "Ada", 1)
    assert (await client.post(READ, json={"ids": every}, headers=ada.token())).json() == {"unread": 1}


async def test_who_may_call_and_what_is_refused(app: Any, client: httpx.AsyncClient) -> None:
    bo = await member(app, "Bo")
    assert (await client.get("/api/v1/account/notifications")).status_code == 401
    assert (await client.get("/api/v1/account/notifications", headers=bo.session(csrf=False))).status_code == 200
    assert (await client.post(READ, json={}, headers=bo.session(csrf=False))).status_code == 403
    assert (await client.post(READ, json={}, headers=bo.session())).status_code == 200
    for limit in ("0", "+1", "51"):
        assert (await client.get("/api/v1/account/notifications", params={"limit": limit},
                                 headers=bo.token())).status_code == 400
    r = await client.post(READ, json={"ids": "all"}, headers=bo.token())
    assert r.status_code == 400 and r.json()["error"] == "bad_request"


async def test_choices_have_defaults_change_by_name_and_take_effect(app: Any, client: httpx.AsyncClient) -> None:
    app.state.parts.channels.swap(Recorder("push"))
    ada, bo = await member(app, "Ada"), await member(app, "Bo")
    got = (await client.get(PREFS, headers=bo.token())).json()
    assert got["delivered_by"] == ["inbox", "push"]
    assert got["preferences"]["your_turn"] == {"inbox": True, "push": True, "email": False}
    assert got["preferences"]["match_ended"] == {"inbox": True, "push": False, "email": False}
    r = await client.put(PREFS, json={"challenge": {"push": False, "inbox": False}}, headers=bo.token())
    assert r.status_code == 200 and r.json()["preferences"]["challenge"] == {"inbox": False, "push": False,
                                                                            "email": False}
    await challenge(client, ada, "Bo", 1)
    assert (await notices(client, bo))["notifications"] == [] and await outbox_rows(app) == []
    await client.put(PREFS, json={"challenge": {"push": True}}, headers=bo.token())
    await challenge(client, ada, "Bo", 1)
    assert (await notices(client, bo))["notifications"] == []  # still out of the inbox
    assert [(r.kind, r.account_id) for r in await outbox_rows(app)] == [("challenge", bo.account.id)]
    # Ada chose nothing: her defaults are untouched by Bo's choices.
    assert (await client.get(PREFS, headers=ada.token())).json()["preferences"]["challenge"]["inbox"] is True
    for body, field in (({"chess": {"push": True}}, "chess"), ({"challenge": {"pigeon": True}}, "challenge.pigeon"),
                        ({"challenge": {"push": "yes"}}, "challenge.push"), ({"challenge": True}, "challenge")):
        r = await client.put(PREFS, json=body, headers=bo.token())
        assert r.status_code == 400 and r.json()["detail"].startswith(f"body.{field}"), r.text
    assert (await client.put(PREFS, json={}, headers=bo.session(csrf=False))).status_code == 403


async def test_email_for_a_kind_no_mail_is_written_for_is_taken_and_kept_off(app: Any,
                                                                              client: httpx.AsyncClient) -> None:
    """`match_ended` has no mail: asking for it by email is answered as documented
    (200, and false read back), and nothing waits in the outbox to fail there."""
    app.state.parts.channels.swap(Recorder("email"))
    ada, bo = await member(app, "Ada"), await member(app, "Bo")
    r = await client.put(PREFS, json={"match_ended": {"email": True}, "challenge": {"email": True}},
                         headers=bo.token())
    assert r.status_code == 200, r.text
    assert r.json()["preferences"]["match_ended"]["email"] is False
    assert r.json()["preferences"]["challenge"]["email"] is True
    await challenge(client, ada, "Bo", 1)
    mailed = [row.kind for row in await outbox_rows(app) if row.channel == "email"]
    assert mailed == ["challenge"]
