"""The admins' arenas (/admin/tournaments and /admin/api/tournaments), on
SQLite and PostgreSQL: the list, cancelling an arena and removing a player
(a reason each, the CSRF token needed, both in the audit log), and everyone
but an admin refused."""

from __future__ import annotations

from typing import Any

import httpx

from app.admin import audit
from app.tournaments import Arenas, NewArena
from tests.admin.conftest import AdminClient
from tests.api.members import member

API = "/admin/api/tournaments"


async def _arena(app: Any, name: str = "Evening Blitz") -> tuple[Arenas, str, Any, Any]:
    arenas: Arenas = app.state.parts.arenas
    ann, bob = await member(app, "AdmAnn"), await member(app, "AdmBob")
    tid = await arenas.create(ann.account.id, NewArena(name, "standard", "5+3", 60, 0, False))
    for m in (ann, bob):
        await arenas.join(tid, m.account.id, m.name)
    return arenas, tid, ann, bob


async def test_the_page_lists_the_arenas_and_an_admin_cancels_one_with_a_reason(app: Any, admin: AdminClient) -> None:
    arenas, tid, ann, bob = await _arena(app)
    page = await admin.get("/admin/tournaments")
    assert page.status_code == 200
    assert "Evening Blitz" in page.text and tid in page.text and ann.name in page.text and bob.name in page.text
    assert f'action="/admin/tournaments/{tid}/cancel"' in page.text
    refused = await admin.post(f"/admin/tournaments/{tid}/cancel", data={"reason": "spam"})
    assert refused.status_code == 403 and (await arenas.view(tid))["cancelled"] is False
    blank = await admin.post(f"/admin/tournaments/{tid}/cancel", data={"reason": " ", "csrf_token": admin.csrf})
    assert blank.status_code == 400 and "reason" in blank.text
    done = await admin.post(f"/admin/tournaments/{tid}/cancel", data={"reason": "spam", "csrf_token": admin.csrf})
    assert done.status_code == 303 and "cancelled" in done.headers["location"]
    body = await arenas.view(tid)
    assert body["cancelled"] is True and body["status"] == "finished"
    again = await admin.post(f"/admin/tournaments/{tid}/cancel", data={"reason": "spam", "csrf_token": admin.csrf})
    assert again.status_code == 409
    assert f'action="/admin/tournaments/{tid}/cancel"' not in (await admin.get("/admin/tournaments")).text
    [entry] = await audit.page(app.state.parts.engine, "tournament_cancelled", None, 10)
    assert entry["admin"] == "root" and entry["detail"] == {"tournament": tid, "reason": "spam"}
    assert "tournament_cancelled" in (await admin.get("/admin/audit")).text


async def test_an_admin_removes_a_player_through_the_api_and_the_page(app: Any, admin: AdminClient) -> None:
    arenas, tid, ann, bob = await _arena(app)
    listed = (await admin.get(API)).json()["tournaments"]
    [mine] = [t for t in listed if t["id"] == tid]
    assert mine["status"] == "started" and {p["name"] for p in mine["players"]} == {ann.name, bob.name}
    headers = {"X-CSRF-Token": admin.csrf}
    r = await admin.post(f"{API}/{tid}/remove", json={"name": ann.name.lower(), "reason": ""}, headers=headers)
    assert r.status_code == 400 and r.json()["field"] == "reason", r.text
    r = await admin.post(f"{API}/{tid}/remove", json={"name": "Nobody", "reason": "x"}, headers=headers)
    assert r.status_code == 404 and r.json()["error"] == "no_such_player"
    r = await admin.post(f"{API}/{tid}/remove", json={"name": ann.name.lower(), "reason": "abuse"}, headers=headers)
    assert r.status_code == 200 and r.json() == {"removed": ann.name, "tournament": tid}, r.text
    assert [s["name"] for s in (await arenas.view(tid))["standings"]] == [bob.name]
    [entry] = await audit.page(app.state.parts.engine, "tournament_player_removed", None, 10)
    assert entry["detail"] == {"tournament": tid, "player": ann.name, "reason": "abuse"}
    removed = [p for t in (await admin.get(API)).json()["tournaments"] if t["id"] == tid for p in t["players"]]
    assert {p["name"]: p["removed"] for p in removed} == {ann.name: True, bob.name: False}
    assert "<del" in (await admin.get("/admin/tournaments")).text
    page = await admin.post(f"/admin/tournaments/{tid}/remove",
                            data={"name": bob.name, "reason": "abuse", "csrf_token": admin.csrf})
    assert page.status_code == 303 and "cannot+join" in page.headers["location"]
    assert (await arenas.view(tid))["standings"] == []
    r = await admin.post(f"{API}/nosuch/cancel", json={"reason": "x"}, headers=headers)
    assert r.status_code == 404 and r.json()["error"] == "no_such_tournament"


async def test_nobody_but_an_admin_cancels_or_removes(app: Any, client: httpx.AsyncClient) -> None:
    arenas, tid, ann, bob = await _arena(app)
    for headers, status in ((None, 401), (ann.token(), 403), (ann.session(), 401)):
        r = await client.post(f"{API}/{tid}/cancel", json={"reason": "mine"}, headers=headers)
        assert r.status_code == status, (headers, r.text)
        r = await client.post(f"{API}/{tid}/remove", json={"name": bob.name, "reason": "mine"}, headers=headers)
        assert r.status_code == status, (headers, r.text)
        assert (await client.get(API, headers=headers)).status_code == status
    page = await client.post(f"/admin/tournaments/{tid}/cancel", data={"reason": "mine"}, headers=ann.session())
    assert page.status_code == 303 and page.headers["location"].startswith("/admin/login")
    body = await arenas.view(tid)
    assert body["cancelled"] is False and {s["name"] for s in body["standings"]} == {ann.name, bob.name}
    assert await audit.page(app.state.parts.engine, "tournament_cancelled", None, 10) == []
