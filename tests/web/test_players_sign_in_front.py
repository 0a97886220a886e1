"""Issue 17: the players' sign-in tries of a locked address refused in front of
the whole stack (app/web/sign_in_front.py), as the admins' are.

A process lets one try per address at a time in to `POST /login`; once the
account service has heard from the database that the address is locked, the
tries behind are answered 429 before any middleware, routing or form parsing,
never checked. A hook inside the stack counts the tries that reached it; the
accounts' clock stands still, so no lock runs out however busy the machine.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from app.accounts import service
from app.auth import tries_in_front
from app.main import create_app
from tests import sign_in_counting
from tests.conftest import make_settings
from tests.sign_in_counting import client_at
from tests.waiting import until
from tests.web.accounts_helpers import PASSWORD, form_token, sign_up


class Reached(sign_in_counting.Reached):
    path = "/login"


def Checks(gate: threading.Event | None = None) -> sign_in_counting.Checks:  # noqa: N802 (reads as the class)
    return sign_in_counting.Checks(service.matches, gate)


@pytest.fixture
async def roomy(database_url: str) -> AsyncIterator[Any]:
    """Every try may wait for the password pool (only the locks and the line refuse)."""
    app = create_app(make_settings(database_url, password_waiting=1000))
    app.add_middleware(Reached)
    Reached.count = 0
    stopped = time.time()
    app.state.parts.accounts.clock = lambda: stopped
    async with app.router.lifespan_context(app):
        async with client_at(app, "10.7.0.1") as other:  # the player signs up from an address of their own
            assert (await sign_up(other, "ada")).status_code == 303
        yield app


async def _forms(client: httpx.AsyncClient, passwords: list[str], name: str = "ada") -> list[httpx.Request]:
    """A sign-in per password, with one form's token and its cookie, made
    before any is sent: an answer's new cookie must not change those sent after."""
    token = form_token((await client.get("/login")).text)
    return [client.build_request("POST", "/login", data={
        "username": name, "password": p, "csrf_token": token, "next": "/learn"}) for p in passwords]


async def _send(client: httpx.AsyncClient, passwords: list[str], name: str = "ada") -> list[httpx.Response]:
    return await asyncio.gather(*(client.send(r) for r in await _forms(client, passwords, name)))


async def test_a_bursts_tries_past_the_lock_never_reach_the_stack(roomy: Any, monkeypatch: Any) -> None:
    checks = Checks()
    monkeypatch.setattr(service, "matches", checks)
    budget = roomy.state.parts.settings.account_lock_after
    passwords = [f"wrong guess {i}" for i in range(30)]
    passwords[14] = PASSWORD  # the right one, 15th: it comes after the lock
    async with client_at(roomy) as client:
        answers = await _send(client, passwords)
    codes = [r.status_code for r in answers]
    assert codes == [401] * budget + [429] * (30 - budget), codes
    assert Reached.count == budget  # the rest were answered in front
    assert checks.calls == budget
    for r in answers[budget:]:  # the handler's own page: its message, a new form, the pages' headers
        assert "try again in" in r.text and int(r.headers["retry-after"]) > 0
        assert form_token(r.text) and "magery_form=" in r.headers["set-cookie"]
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
        assert "wrong guess" not in r.text and PASSWORD not in r.text


async def test_a_known_lock_is_refused_in_front_for_every_name(roomy: Any, monkeypatch: Any) -> None:
    async with client_at(roomy, "10.7.0.2") as other:
        assert (await sign_up(other, "bo")).status_code == 303
    budget = roomy.state.parts.settings.account_lock_after
    async with client_at(roomy) as client:
        assert [r.status_code for r in await _send(client, ["wrong guess"] * budget)] == [401] * budget
        checks = Checks()
        monkeypatch.setattr(service, "matches", checks)
        before = Reached.count
        late = await _send(client, [PASSWORD] * 3, "bo")
    assert [r.status_code for r in late] == [429] * 3
    assert Reached.count == before and checks.calls == 0
    async with client_at(roomy, "10.7.0.3") as elsewhere:  # another address is not held
        assert (await _send(elsewhere, [PASSWORD], "bo"))[0].status_code == 303


async def test_what_the_front_does_not_read_goes_to_the_handler(roomy: Any) -> None:
    """A wrong form token and a multipart form: the handler answers, as it
    always did (the lock refuses the multipart one there)."""
    budget = roomy.state.parts.settings.account_lock_after
    async with client_at(roomy) as client:
        await _send(client, ["wrong guess"] * budget)
        before = Reached.count
        forged = await client.post("/login", data={"username": "ada", "password": PASSWORD, "csrf_token": "forged"})
        assert forged.status_code == 403
        token = form_token(forged.text)  # each form answered carries a new token
        multipart = await client.post("/login", data={"username": "ada", "password": PASSWORD, "csrf_token": token},
                                      files={"x": ("x", b"x")})
        assert multipart.status_code == 429
    assert Reached.count == before + 2


async def test_the_line_in_front_is_bounded(roomy: Any, monkeypatch: Any) -> None:
    """One try inside, `LINE_MOST` waiting: one more is answered 503 at once,
    nothing checked or counted; the waiting ones go in after."""
    monkeypatch.setattr(tries_in_front, "LINE_MOST", 2)
    gate = threading.Event()
    checks = Checks(gate)
    monkeypatch.setattr(service, "matches", checks)
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


async def test_a_names_lock_is_not_learnt_as_the_addresss(database_url: str) -> None:
    """A name locked by failures from many addresses refuses that name (the
    handler's 429) but does not make the front refuse the address's other names."""
    app = create_app(make_settings(database_url, account_name_lock_after=2))
    async with app.router.lifespan_context(app):
        for name in ("ada", "bo"):
            async with client_at(app, "10.7.0.1") as other:
                assert (await sign_up(other, name)).status_code == 303
        for host in ("10.7.1.1", "10.7.1.2"):  # two outsiders, one failure each: the name locks
            async with client_at(app, host) as outsider:
                assert (await _send(outsider, ["wrong guess"]))[0].status_code == 401
        async with client_at(app) as client:
            assert (await _send(client, [PASSWORD]))[0].status_code == 429  # ada's name is locked
            assert (await _send(client, [PASSWORD], "bo"))[0].status_code == 303  # this address is not
