"""The audit log records each kind of admin action, newest first, and the
dashboard shows it."""

from __future__ import annotations

from typing import Any

import httpx

from tests.admin.conftest import AdminClient, sign_in
from tests.conftest import Api


async def entries(admin: AdminClient, **params: Any) -> list[dict[str, Any]]:
    r = await admin.get("/admin/api/audit", params=params)
    assert r.status_code == 200, r.text
    return r.json()["entries"]


async def test_each_kind_of_admin_action_is_logged(app: Any, admin: AdminClient, api: Api) -> None:
    game = await api.start()
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as other:
        assert (await sign_in(other, password="a wrong guess")).status_code == 401
        assert (await sign_in(other, name="mallory", password="another guess")).status_code == 401
        assert (await sign_in(other)).status_code == 303
        page = await other.get("/admin")
        token = page.text.split('name="csrf-token" content="')[1].split('"')[0]
        assert (await other.post("/admin/logout", data={"csrf_token": token})).status_code == 303
    assert (await admin.moderate(game.id, "draw", "both asked")).status_code == 200
    assert (await admin.get(f"/admin/api/matches/{game.id}/export")).status_code == 200
    assert (await admin.get("/admin/api/matches.csv", params={"variant": "standard"})).status_code == 200

    log = await entries(admin)
    kinds = [e["kind"] for e in log]
    assert kinds == ["export_history", "export_match", "moderation", "sign_out", "sign_in",
                     "sign_in_failure", "sign_in_failure", "sign_in", "user_added"]
    # newest first; the fixture made its admin (audited, as the command line's are) and signed in first
    by_kind = {e["kind"]: e for e in log}
    assert by_kind["moderation"]["match_id"] == game.id and by_kind["moderation"]["admin"] == "root"
    assert by_kind["moderation"]["detail"] == {"verdict": "draw", "reason": "both asked"}
    assert by_kind["export_match"]["match_id"] == game.id
    assert by_kind["export_history"]["detail"] == {"filters": {"variant": "standard"}}
    failures = [e for e in log if e["kind"] == "sign_in_failure"]
    assert {e["admin"] for e in failures} == {"root", "mallory"}
    assert all(e["address"] for e in log if e["kind"] != "user_added")  # the command line has no address
    assert all("password" not in str(e) and "guess" not in str(e) for e in log)
    # Filter by kind, and page with `before`.
    assert [e["kind"] for e in await entries(admin, kind="sign_in")] == ["sign_in", "sign_in"]
    r = (await admin.get("/admin/api/audit", params={"limit": 3})).json()
    rest = await entries(admin, before=r["next_before"])
    assert [e["id"] for e in r["entries"] + rest] == [e["id"] for e in log]
    assert (await admin.get("/admin/api/audit", params={"kind": "nap"})).status_code == 400
    page = await admin.get("/admin/audit")
    assert page.status_code == 200
    for shown in ("sign in failure", "moderation", "export match", "mallory", game.id):
        assert shown in page.text
