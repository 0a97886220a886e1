"""A locked address's dashboard sign-in tries refused in front of the whole
stack (the one front, app/auth/tries_in_front.py, with app/admin/front.py's answer).

A process lets one try per address at a time in; the others wait in line and,
once the lock is known, are answered 429 before any middleware, routing or
form parsing, each audited, never checked. A hook inside the stack counts the
tries that reached it.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from app.accounts import service as account_service
from app.auth import tries_in_front
from app.db.admin_models import admin_audit
from app.main import create_app
from tests import sign_in_counting
from tests.admin.conftest import PASSWORD, add_admin, login_token
from tests.conftest import make_settings
from tests.sign_in_counting import client_at
from tests.waiting import until


class Reached(sign_in_counting.Reached):
    path = "/admin/login"


def Checks(gate: threading.Event | None = None) -> sign_in_counting.Checks:  # noqa: N802 (reads as the class)
    return sign_in_counting.Checks(account_service.matches, gate)


@pytest.fixture
async def roomy(database_url: str) -> AsyncIterator[Any]:
    """Every try may wait for the password pool (only the locks and the line refuse),
    the wing's clock stands still (no lock runs out however busy the machine), and
    `Reached` counts what passes the front."""
    app = create_app(make_settings(database_url, admin_password_waiting=1000))
    app.add_middleware(Reached)
    Reached.count = 0
    stopped = time.time()
    app.state.parts.admin.clock = lambda: stopped
    async with app.router.lifespan_context(app):
        yield app


async def _send(client: httpx.AsyncClient, passwords: list[str], name: str = "root") -> list[httpx.Response]:
    """Every password sent at once, with one form's CSRF token."""
    return await asyncio.gather(*(client.send(r) for r in await _forms(client, passwords, name)))


async def _forms(client: httpx.AsyncClient, passwords: list[str], name: str = "root") -> list[httpx.Request]:
    """A sign-in per password, with one form's CSRF token and its cookie, made
    before any is sent: an answer's new cookie must not change those sent after."""
    token = login_token((await client.get("/admin/login")).text)
    return [client.build_request("POST", "/admin/login", data={
        "username": name, "password": p, "csrf_token": token, "next": "/admin"}) for p in passwords]


async def _locked_entries(app: Any) -> list[Any]:
    async with app.state.parts.engine.connect() as conn:
        return [r for r in (await conn.execute(
            select(admin_audit.c.admin, admin_audit.c.address, admin_audit.c.detail)
            .where(admin_audit.c.kind == "sign_in_failure"))).all() if r.detail.get("locked")]


async def test_a_bursts_tries_past_the_lock_never_reach_the_stack(roomy: Any, monkeypatch: Any) -> None:
    await add_admin(roomy)
    checks = Checks()
    monkeypatch.setattr(account_service, "matches", checks)
    budget = roomy.state.parts.settings.account_lock_after
    passwords = [f"wrong guess {i}" for i in range(30)]
    passwords[14] = PASSWORD  # the right one, 15th: it comes after the lock
    async with client_at(roomy) as client:
        answers = await _send(client, passwords)
        assert (await client.get("/admin")).status_code == 303  # not signed in
    codes = [r.status_code for r in answers]
    assert codes == [401] * budget + [429] * (30 - budget), codes
    assert Reached.count == budget  # the rest were answered in front
    assert checks.calls == budget
    entries = await _locked_entries(roomy)
    assert len(entries) == 30 - budget and {(e.admin, e.address) for e in entries} == {("root", "127.0.0.1")}
    for r in answers[budget:]:  # the handler's own page: its message, a new form, the pages' headers
        assert "Try again in" in r.text and int(r.headers["retry-after"]) > 0
        assert login_token(r.text) and "magery_form=" in r.headers["set-cookie"] and "path=/admin/login" in r.headers["set-cookie"].lower()
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"]


async def test_a_known_lock_is_refused_in_front_for_every_name(roomy: Any, monkeypatch: Any) -> None:
    await add_admin(roomy)
    await add_admin(roomy, "second")
    budget = roomy.state.parts.settings.account_lock_after
    async with client_at(roomy) as client:
        assert [r.status_code for r in await _send(client, ["wrong guess"] * budget)] == [401] * budget
        checks = Checks()
        monkeypatch.setattr(account_service, "matches", checks)
        before = Reached.count
        late = await _send(client, [PASSWORD] * 3, "second")
    assert [r.status_code for r in late] == [429] * 3
    assert Reached.count == before and checks.calls == 0
    assert sorted(e.admin for e in await _locked_entries(roomy)) == ["second"] * 3


async def test_what_the_front_does_not_read_goes_to_the_handler(roomy: Any) -> None:
    """A wrong CSRF token, a name no account could have, a multipart form: the
    handler answers, as it always did (the lock refuses the multipart one there)."""
    await add_admin(roomy)
    budget = roomy.state.parts.settings.account_lock_after
    async with client_at(roomy) as client:
        await _send(client, ["wrong guess"] * budget)
        before = Reached.count
        forged = await client.post("/admin/login", data={"username": "root", "password": PASSWORD,
                                                          "csrf_token": "forged"})
        assert forged.status_code == 403
        token = login_token((await client.get("/admin/login")).text)
        nameless = await client.post("/admin/login", data={"username": "no\x00body", "password": PASSWORD,
                                                            "csrf_token": token})
        assert nameless.status_code == 400
        token = login_token(nameless.text)  # each form answered carries a new token
        multipart = await client.post("/admin/login", data={"username": "root", "password": PASSWORD,
                                                             "csrf_token": token}, files={"x": ("x", b"x")})
        assert multipart.status_code == 429
    assert Reached.count == before + 3


async def test_the_line_in_front_is_bounded(roomy: Any, monkeypatch: Any) -> None:
    """One try inside, `LINE_MOST` waiting: one more is answered 503 at once,
    nothing checked or counted; the waiting ones go in after."""
    monkeypatch.setattr(tries_in_front, "LINE_MOST", 2)
    await add_admin(roomy)
    gate = threading.Event()
    checks = Checks(gate)
    monkeypatch.setattr(account_service, "matches", checks)
    async with client_at(roomy) as client:
        sent = [asyncio.create_task(client.send(r)) for r in await _forms(client, [f"wrong {i}" for i in range(5)])]
        await until(lambda: checks.now == 1 and sum(t.done() for t in sent) == 2,
                    "one check running, two tries in line, two turned away")
        turned_away = [t.result() for t in sent if t.done()]
        assert Reached.count == 1
        gate.set()
        answers = await asyncio.gather(*sent)
    assert [r.status_code for r in turned_away] == [503, 503]
    assert all(r.headers["retry-after"] and "busy" in r.text for r in turned_away)
    assert sorted(r.status_code for r in answers) == [401] * 3 + [503] * 2
    assert checks.calls == 3 and Reached.count == 3
