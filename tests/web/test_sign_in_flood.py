"""Sign-in under a flood from a dozen addresses: nobody else is kept out.

Twelve clients on different addresses (named by X-Forwarded-For through a
trusted proxy, as behind Caddy) loop `POST /login` with made-up names. Before,
the password checks waited in one first-come line of nine: the owner, from a
thirteenth address, was answered `503` at every try, and the `503`s were
neither checked nor counted, so no flooding address was ever locked. Now the
tries wait address by address (app/auth/checks.py), a try with no place is
counted against its address, the browsers and addresses that hold a session
wait apart, and the admins' form has a pool of its own.

Each round is synchronised on the pool itself: the checks are held at a gate
until every flooder has a try in the pool, then the owner tries, then the
gate opens. The accounts' clock stands still, so no lock runs out meanwhile.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from app.accounts import service
from app.auth import tries_in_front
from app.db.account_models import account_limits
from app.main import create_app
from tests.admin.conftest import add_admin
from tests.admin.conftest import sign_in as admin_sign_in
from tests.conftest import make_settings
from tests.waiting import DEADLINE, until
from tests.web.accounts_helpers import PASSWORD, form_token, sign_in, sign_up

PROXY = "127.0.0.1"  # the ASGI transport's peer: the trusted proxy
FLOOD = [f"203.0.113.{i}" for i in range(1, 13)]
OWNER_HOME = "10.7.0.1"
OWNER_AWAY = "198.51.100.7"  # the thirteenth address: a new one
ROUNDS = 10


class Gate:
    """The account service's password check, held at a gate while it is shut
    (only the flood's passwords, when `flood_only`), counting those held."""

    def __init__(self, flood_only: bool = False) -> None:
        self.real = service.matches
        self.open = threading.Event()
        self.open.set()
        self.flood_only = flood_only
        self.lock = threading.Lock()
        self.held = 0

    def __call__(self, digest: str, password: str) -> bool:
        if self.flood_only and not password.startswith("flood"):
            return bool(self.real(digest, password))
        with self.lock:
            self.held += 1
        try:
            self.open.wait(DEADLINE)
            return bool(self.real(digest, password))
        finally:
            with self.lock:
                self.held -= 1


def _client(app: Any, address: str, stack: AsyncExitStack) -> Any:
    return stack.enter_async_context(httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app, client=(PROXY, 1)), base_url="http://testserver",
        headers={"X-Forwarded-For": address}))


async def _app(stack: AsyncExitStack, database_url: str, **settings: Any) -> Any:
    app = create_app(make_settings(database_url, trusted_proxies=[PROXY], **settings))
    await stack.enter_async_context(app.router.lifespan_context(app))
    stopped = time.time()
    app.state.parts.accounts.clock = lambda: stopped
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app, client=(PROXY, 1)),
                                 base_url="http://testserver", headers={"X-Forwarded-For": OWNER_HOME}) as home:
        assert (await sign_up(home, "ada")).status_code == 303
    return app


class Flood:
    """Clients looping `POST /login` with made-up names and wrong passwords, each
    sending its next try as soon as the last is answered."""

    def __init__(self, app: Any, stack: AsyncExitStack, addresses: list[str]) -> None:
        self.app, self.stack, self.addresses = app, stack, addresses
        self.codes: dict[str, list[int]] = {a: [] for a in addresses}
        self.stop = asyncio.Event()
        self.tasks: list[asyncio.Task[None]] = []

    async def __aenter__(self) -> Flood:
        for address in self.addresses:
            client = await _client(self.app, address, self.stack)
            self.tasks.append(asyncio.create_task(self._loop(client, address)))
        return self

    async def _loop(self, client: httpx.AsyncClient, address: str) -> None:
        token = form_token((await client.get("/login")).text)
        n = 0
        while not self.stop.is_set():
            n += 1
            r = await client.post("/login", data={"username": f"x{address.rsplit('.', 1)[1]}n{n}",
                                                  "password": "flood", "csrf_token": token, "next": "/"})
            self.codes[address].append(r.status_code)
            token = form_token(r.text)

    async def __aexit__(self, *_: Any) -> None:
        self.stop.set()
        await asyncio.gather(*self.tasks)


async def test_a_thirteenth_address_signs_in_at_its_first_try_through_a_flood(database_url: str,
                                                                               monkeypatch: Any) -> None:
    """No lock stops the flood here (its addresses may fail without end): only
    the line's fairness lets the owner in."""
    gate = Gate()
    monkeypatch.setattr(service, "matches", gate)
    async with AsyncExitStack() as stack:
        app = await _app(stack, database_url, account_lock_after=1_000_000, password_workers=1)
        checks = app.state.parts.accounts.checks
        first_try = 0
        async with Flood(app, stack, FLOOD) as flood:
            for _ in range(ROUNDS):
                gate.open.clear()
                await until(lambda: gate.held == 1 and checks.taken == len(FLOOD),
                            "every flooder with a try in the pool: one checking, eleven waiting")
                owner = await _client(app, OWNER_AWAY, stack)  # a new browser each round
                token = form_token((await owner.get("/login")).text)
                tried = asyncio.create_task(owner.post("/login", data={
                    "username": "ada", "password": PASSWORD, "csrf_token": token, "next": "/"}))
                await until(lambda: tried.done() or checks.taken == len(FLOOD) + 1,  # noqa: B023
                            "the owner's try answered, or waiting in the pool behind the flood")
                gate.open.set()
                answer = await tried
                if answer.status_code == 303:
                    first_try += 1
        assert first_try == ROUNDS, f"the owner got in at the first try in {first_try} of {ROUNDS} rounds"
        assert all(flood.codes.values())  # every flooder was answered, again and again
        assert set().union(*flood.codes.values()) <= {401}  # each flood try was checked, none refused unchecked


async def test_a_try_with_no_place_is_counted_so_a_flooding_address_is_locked(database_url: str,
                                                                               monkeypatch: Any) -> None:
    """One try checking (held), one address waiting: the pool is full. The next
    address's tries are answered 503, and each is counted against it, so after
    `ACCOUNT_LOCK_AFTER` of them it is locked out (429), as a guesser is."""
    gate = Gate()
    monkeypatch.setattr(service, "matches", gate)
    async with AsyncExitStack() as stack:
        app = await _app(stack, database_url, password_workers=1, password_waiting=1)
        checks = app.state.parts.accounts.checks
        budget = app.state.parts.settings.account_lock_after
        gate.open.clear()
        held = [await _client(app, a, stack) for a in FLOOD[:2]]
        busy = [asyncio.create_task(sign_in(c, f"held{i}", "flood")) for i, c in enumerate(held)]
        await until(lambda: gate.held == 1 and checks.taken == 2, "one checking, one waiting")
        flooder = await _client(app, FLOOD[2], stack)
        codes = [(await sign_in(flooder, f"guess{i}", "flood")).status_code for i in range(budget + 1)]
        assert codes == [503] * budget + [429], codes
        gate.open.set()
        assert [r.status_code for r in await asyncio.gather(*busy)] == [401, 401]
        async with app.state.parts.engine.connect() as conn:
            row = (await conn.execute(select(account_limits).where(
                account_limits.c.key == f"addr:{FLOOD[2]}"))).one()
        assert row.hits == budget and row.locked_until is not None


async def test_tries_turned_away_in_front_are_counted_with_the_next(database_url: str, monkeypatch: Any) -> None:
    """The line in front full (one try inside, none may wait): the second try at
    once is answered 503 in front, unchecked, and counted with the address's
    next reservation."""
    monkeypatch.setattr(tries_in_front, "LINE_MOST", 0)
    gate = Gate()
    monkeypatch.setattr(service, "matches", gate)
    async with AsyncExitStack() as stack:
        app = await _app(stack, database_url)
        client = await _client(app, FLOOD[0], stack)
        tokens = [form_token((await client.get("/login")).text)]
        gate.open.clear()
        inside = asyncio.create_task(client.post("/login", data={
            "username": "bo", "password": "flood", "csrf_token": tokens[0], "next": "/"}))
        await until(lambda: gate.held == 1, "the first try checking")
        turned = await client.post("/login", data={"username": "bo", "password": "flood",
                                                   "csrf_token": tokens[0], "next": "/"})
        assert turned.status_code == 503 and "busy" in turned.text
        gate.open.set()
        assert (await inside).status_code == 401
        assert (await sign_in(client, "bo", "flood again")).status_code == 401
        async with app.state.parts.engine.connect() as conn:
            hits = (await conn.execute(select(account_limits.c.hits).where(
                account_limits.c.key == f"addr:{FLOOD[0]}"))).scalar_one()
        assert hits == 3  # two checked, and the one turned away in front


async def _fill(app: Any, stack: AsyncExitStack, gate: Gate, checks: Any, form: Any) -> list[asyncio.Task[Any]]:
    """Two strangers' tries held in `checks` (one checking at the gate, one
    waiting), sent by `form` (a sign-in helper): with one worker and room for
    one address to wait, the pool is full."""
    gate.open.clear()
    held = [await _client(app, a, stack) for a in FLOOD[:2]]
    busy = [asyncio.create_task(form(c, f"held{i}", "flood")) for i, c in enumerate(held)]
    await until(lambda: gate.held == 1 and checks.taken == 2, "one checking, one waiting")
    stranger = await _client(app, FLOOD[2], stack)
    assert (await form(stranger, "ada", "flood")).status_code == 503  # no room for another stranger
    return busy


@pytest.fixture
async def full(database_url: str, monkeypatch: Any) -> AsyncIterator[tuple[Any, AsyncExitStack, Gate]]:
    """An app whose players' pool is full of strangers for as long as the test runs."""
    gate = Gate(flood_only=True)
    monkeypatch.setattr(service, "matches", gate)
    async with AsyncExitStack() as stack:
        app = await _app(stack, database_url, password_workers=1, password_waiting=1)
        busy = await _fill(app, stack, gate, app.state.parts.accounts.checks, sign_in)
        yield app, stack, gate
        gate.open.set()
        await asyncio.gather(*busy)


async def test_an_address_holding_the_accounts_session_finds_room(full: tuple[Any, AsyncExitStack, Gate]) -> None:
    app, stack, gate = full
    checks = app.state.parts.accounts.checks
    home = await _client(app, OWNER_HOME, stack)  # a new browser, at the address ada signed up from
    tried = asyncio.create_task(sign_in(home, "ada"))
    await until(lambda: tried.done() or checks.taken == 3, "its try answered or waiting")
    gate.open.set()
    assert (await tried).status_code == 303


async def test_the_admins_sign_in_has_a_pool_of_its_own(full: tuple[Any, AsyncExitStack, Gate]) -> None:
    app, stack, _ = full
    await add_admin(app)
    admin = await _client(app, OWNER_AWAY, stack)
    assert (await admin_sign_in(admin)).status_code == 303


async def test_a_browser_signed_in_finds_room_at_the_admins_form(database_url: str, monkeypatch: Any) -> None:
    """The admins' pool full of strangers: an admin whose browser holds a
    player's session (one identity) still gets a place to sign in to the dashboard."""
    gate = Gate(flood_only=True)
    monkeypatch.setattr(service, "matches", gate)
    async with AsyncExitStack() as stack:
        app = await _app(stack, database_url, admin_password_workers=1, admin_password_waiting=1)
        await add_admin(app)
        browser = await _client(app, OWNER_AWAY, stack)
        assert (await sign_in(browser, "root")).status_code == 303  # signed in as a player
        checks = app.state.parts.accounts.admin_checks

        async def at_dashboard(client: httpx.AsyncClient, name: str, password: str) -> httpx.Response:
            return await admin_sign_in(client, name, password)

        busy = await _fill(app, stack, gate, checks, at_dashboard)
        tried = asyncio.create_task(admin_sign_in(browser))
        await until(lambda: tried.done() or checks.taken == 3, "its try answered or waiting")
        gate.open.set()
        assert (await tried).status_code == 303
        await asyncio.gather(*busy)
