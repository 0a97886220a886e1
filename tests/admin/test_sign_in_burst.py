"""Dashboard sign-ins sent all at once, and a name an outsider fails on.

Each try is reserved (counted) before its password is checked, so a burst
from one address has at most `account_lock_after` passwords checked, whatever
its size; racing first failures are counted and audited, never a 500; argon2
runs in the admins' pool of `admin_password_workers` threads; and an outsider failing on
purpose, from one address or many, never keeps the admin out of an address
the admin signed in from before.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from app.accounts import service as account_service
from app.db.account_models import account_limits
from app.db.admin_models import admin_audit
from app.main import create_app
from tests.admin.conftest import PASSWORD, add_admin, login_token, sign_in
from tests.conftest import make_settings
from tests.waiting import DEADLINE, until


@pytest.fixture
async def roomy(database_url: str) -> AsyncIterator[Any]:
    """An app whose password pool lets every try of a burst wait for a thread,
    so what stops them is the lock, not the pool."""
    app = create_app(make_settings(database_url, admin_password_waiting=1000))
    _stop_clock(app)
    async with app.router.lifespan_context(app):
        yield app


def _stop_clock(app: Any) -> None:
    """The wing's clock stands still: on a busy machine a lock's real seconds
    could run out before the tries it must refuse (seen at load 25)."""
    stopped = time.time()
    app.state.parts.admin.clock = lambda: stopped


def _client(app: Any, host: str = "127.0.0.1") -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app, client=(host, 1)),
                             base_url="http://testserver")


async def _burst(client: httpx.AsyncClient, passwords: list[str], name: str = "root") -> list[httpx.Response]:
    """Every password sent at once, with one form's CSRF token."""
    token = login_token((await client.get("/admin/login")).text)
    return await asyncio.gather(*(client.post("/admin/login", data={
        "username": name, "password": p, "csrf_token": token, "next": "/admin"}) for p in passwords))


class Counted:
    """The account service's password check, counting the checks and the most at once."""

    def __init__(self, gate: threading.Event | None = None) -> None:
        self.real = account_service.matches
        self.gate = gate
        self.lock = threading.Lock()
        self.calls = self.now = self.most = 0

    def __call__(self, digest: str, password: str) -> bool:
        with self.lock:
            self.calls += 1
            self.now += 1
            self.most = max(self.most, self.now)
        try:
            if self.gate is not None:
                self.gate.wait(DEADLINE)
            return self.real(digest, password)
        finally:
            with self.lock:
                self.now -= 1


def _admin(app: Any) -> Any:
    return app.state.parts.admin


async def _count(app: Any, table: Any, *where: Any) -> int:
    async with app.state.parts.engine.connect() as conn:
        return int((await conn.execute(select(func.count()).select_from(table).where(*where))).scalar_one())


async def test_a_burst_from_one_address_checks_at_most_the_budget(roomy: Any, monkeypatch: Any) -> None:
    await add_admin(roomy)
    counted = Counted()
    monkeypatch.setattr(account_service, "matches", counted)
    budget = roomy.state.parts.settings.account_lock_after
    passwords = [f"wrong guess {i}" for i in range(30)]
    passwords[14] = PASSWORD  # the right one, 15th
    async with _client(roomy) as client:
        answers = await _burst(client, passwords)
        codes = [r.status_code for r in answers]
        assert 500 not in codes
        assert counted.calls <= budget, (counted.calls, codes)
        assert codes.count(401) + codes.count(303) == counted.calls
        assert codes.count(429) == 30 - counted.calls
        if codes[14] != 303:  # the lock came first: the right password was refused, unchecked
            assert codes[14] == 429 and (await client.get("/admin")).status_code == 303  # to the sign-in page


async def test_the_right_password_is_refused_once_locked(roomy: Any, monkeypatch: Any) -> None:
    await add_admin(roomy)
    counted = Counted()
    monkeypatch.setattr(account_service, "matches", counted)
    budget = roomy.state.parts.settings.account_lock_after
    async with _client(roomy) as client:
        first = await _burst(client, [f"wrong {i}" for i in range(budget)])
        assert [r.status_code for r in first] == [401] * budget
        late = await _burst(client, [PASSWORD] * 10)
        assert [r.status_code for r in late] == [429] * 10
        assert counted.calls == budget
        assert (await client.get("/admin")).status_code == 303  # not signed in


async def test_racing_first_failures_are_counted_and_audited(database_url: str, monkeypatch: Any) -> None:
    """Four wrong passwords for one name whose reservations race (four addresses:
    a process lets one address's tries in one at a time, app/auth/tries_in_front.py) and
    whose checks all end at once (a pool of four, held at a gate until all are
    in): each is counted and audited, none is a 500."""
    app = create_app(make_settings(database_url, admin_password_workers=4))
    async with app.router.lifespan_context(app):
        await add_admin(app)
        gate = threading.Event()
        counted = Counted(gate)
        monkeypatch.setattr(account_service, "matches", counted)
        clients = [_client(app, f"10.0.0.{i}") for i in range(4)]
        tokens = [login_token((await c.get("/admin/login")).text) for c in clients]
        tries = [asyncio.create_task(c.post("/admin/login", data={
            "username": "root", "password": f"wrong {i}", "csrf_token": t, "next": "/admin"}))
            for i, (c, t) in enumerate(zip(clients, tokens, strict=True))]
        await until(lambda: counted.now == 4, "all four checks at the gate")
        gate.set()
        answers = await asyncio.gather(*tries)
        for c in clients:
            await c.aclose()
        assert [r.status_code for r in answers] == [401] * 4
        async with app.state.parts.engine.connect() as conn:
            rows = dict((await conn.execute(select(account_limits.c.key, account_limits.c.hits))).all())
        assert rows == {"name:root": 4, **{f"addr:10.0.0.{i}": 1 for i in range(4)}}
        assert await _count(app, admin_audit, admin_audit.c.kind == "sign_in_failure") == 4


async def test_argon2_checks_run_in_a_small_pool(database_url: str, monkeypatch: Any) -> None:
    app = create_app(make_settings(database_url, admin_password_workers=2, admin_password_waiting=3))
    async with app.router.lifespan_context(app):
        await add_admin(app)
        gate = threading.Event()
        counted = Counted(gate)
        monkeypatch.setattr(account_service, "matches", counted)
        checks = _admin(app).passwords
        # Ten addresses, so no lock stops a try: only the pool does.
        clients = [_client(app, f"10.0.0.{i}") for i in range(10)]
        tokens = [login_token((await c.get("/admin/login")).text) for c in clients]
        tries = [asyncio.create_task(c.post("/admin/login", data={
            "username": "root", "password": "wrong guess", "csrf_token": t, "next": "/admin"}))
            for c, t in zip(clients, tokens, strict=True)]
        await until(lambda: checks.taken == 5 and counted.now == 2 and sum(t.done() for t in tries) == 5,
                    "two checks running, three waiting, five turned away")
        busy = [t for t in tries if t.done()]
        gate.set()
        answers = await asyncio.gather(*tries)
        for c in clients:
            await c.aclose()
    codes = sorted(r.status_code for r in answers)
    assert codes == [401] * 5 + [503] * 5, codes
    assert len(busy) == 5 and all(t.result().status_code == 503 for t in busy)
    assert all(r.headers["retry-after"] for r in answers if r.status_code == 503)
    assert counted.most == 2 and counted.calls == 5
    assert checks.taken == 0


async def test_an_outsider_locks_out_their_own_address_only(app: Any, client: httpx.AsyncClient) -> None:
    _stop_clock(app)
    await add_admin(app)
    settings = app.state.parts.settings
    async with _client(app, "203.0.113.7") as outsider:
        for _ in range(settings.account_lock_after):
            assert (await sign_in(outsider, password="wrong guess")).status_code == 401
        assert (await sign_in(outsider)).status_code == 429
    assert (await sign_in(client)).status_code == 303  # the admin, from anywhere else


async def test_many_outsiders_lock_the_name_but_not_a_known_address(app: Any) -> None:
    _stop_clock(app)
    await add_admin(app)
    settings = app.state.parts.settings
    async with _client(app, "198.51.100.1") as home:
        assert (await sign_in(home)).status_code == 303  # the admin's own address, now known
    failures = 0
    host = 0
    while failures < settings.account_name_lock_after:
        host += 1
        async with _client(app, f"203.0.113.{host}") as outsider:
            for _ in range(settings.account_lock_after):
                r = await sign_in(outsider, password="wrong guess")
                assert r.status_code == 401, r.text
                failures += 1
    assert host > 1  # one address alone could not lock the name
    async with _client(app, "192.0.2.55") as stranger:
        assert (await sign_in(stranger)).status_code == 429  # a new address: the name's lock holds
    async with _client(app, "198.51.100.1") as home:
        assert (await sign_in(home)).status_code == 303  # the known one gets in
