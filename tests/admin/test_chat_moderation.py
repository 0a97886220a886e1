"""The admins' side of the match chat (issue 20): a reported line waits in the
queue, the match's page shows both rooms, hiding a line takes it from everyone,
a mute refuses the account's lines and says until when, and each decision is
in the audit log. Forms without the session's CSRF token change nothing."""

from __future__ import annotations

import re
from typing import Any

import httpx

from tests.chat.test_chat_api import Clock, accounts_match, read, say
from tests.conftest import Game

from .conftest import AdminClient

BASE = "/api/v1/matches"


def form_csrf(html: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found
    return found.group(1)


async def test_a_reported_line_is_hidden_and_its_writer_muted(app: Any, client: httpx.AsyncClient,
                                                             admin: AdminClient) -> None:
    Clock(app)
    match_id, ada, bo = await accounts_match(app, client)
    rude = (await say(client, match_id, "<i>you</i> stink", bo.token())).json()["line"]
    await say(client, match_id, "Hello", headers={})  # a guest spectator's line
    r = await client.post(f"{BASE}/{match_id}/chat/{rude['id']}/report", headers=ada.token())
    assert r.status_code == 202
    queue = await admin.get("/admin/chat")
    assert queue.status_code == 200
    assert "&lt;i&gt;you&lt;/i&gt; stink" in queue.text and "<i>you</i>" not in queue.text  # text, never markup
    assert f"/admin/matches/{match_id}#chat" in queue.text
    page = await admin.get(f"/admin/matches/{match_id}")
    assert "players&#39; room" in page.text and "spectators&#39; room" in page.text and "Hello" in page.text
    csrf = form_csrf(page.text)
    # Without the CSRF token: refused, and the line stays.
    r = await admin.post(f"/admin/chat/lines/{rude['id']}/hide", data={"match": match_id})
    assert r.status_code == 403
    assert "stink" in str(await read(client, Game(match_id), ada.token()))
    r = await admin.post(f"/admin/chat/lines/{rude['id']}/hide", data={"csrf_token": csrf, "match": match_id})
    assert r.status_code == 303 and r.headers["location"] == f"/admin/matches/{match_id}#chat"
    assert "stink" not in str(await read(client, Game(match_id), ada.token()))
    assert "No line waits" in (await admin.get("/admin/chat")).text
    assert "hidden by root" in (await admin.get(f"/admin/matches/{match_id}")).text
    r = await admin.post("/admin/chat/mute", data={"csrf_token": csrf, "account": "Bo", "minutes": "60",
                                                   "reason": "insults"})
    assert r.status_code == 303
    r = await say(client, match_id, "sorry", bo.token())
    assert r.status_code == 403 and r.json()["error"] == "muted"
    audit = (await admin.get("/admin/api/audit")).json()["entries"]
    kinds = [(e["kind"], e["match_id"]) for e in audit[:2]]
    assert kinds == [("chat_muted", None), ("chat_hidden", match_id)]
    assert audit[0]["detail"]["account"] == "Bo" and audit[0]["detail"]["minutes"] == 60
    assert audit[1]["detail"]["text"] == "<i>you</i> stink"
    r = await admin.post("/admin/chat/mute", data={"csrf_token": csrf, "account": "nobody", "minutes": "60",
                                                   "reason": "x"})
    assert r.status_code == 404
    r = await admin.post("/admin/chat/mute", data={"csrf_token": csrf, "account": "Bo", "minutes": "soon"})
    assert r.status_code == 400
    # The export carries the chat, the hidden line marked.
    exported = (await admin.get(f"/admin/api/matches/{match_id}/export")).json()
    assert [(x["text"], x["hidden"]) for x in exported["chat"]] == [("<i>you</i> stink", True), ("Hello", False)]


async def test_a_dismissed_report_leaves_the_line(app: Any, client: httpx.AsyncClient, admin: AdminClient) -> None:
    Clock(app)
    match_id, ada, bo = await accounts_match(app, client)
    line = (await say(client, match_id, "gg", bo.token())).json()["line"]
    await client.post(f"{BASE}/{match_id}/chat/{line['id']}/report", headers=ada.token())
    page = await admin.get("/admin/chat")
    r = await admin.post(f"/admin/chat/lines/{line['id']}/dismiss", data={"csrf_token": form_csrf(page.text)})
    assert r.status_code == 303 and r.headers["location"] == "/admin/chat?done=dismissed"
    assert "No line waits" in (await admin.get("/admin/chat?done=dismissed")).text
    assert "gg" in str(await read(client, Game(match_id), ada.token()))
