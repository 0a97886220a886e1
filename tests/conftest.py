"""Fixtures for tests against the app and a real database.

Every test that uses `database_url` (and so `app`, `client`, `api`, `service`)
runs twice: on SQLite (a fresh file per test) and on PostgreSQL. For
PostgreSQL a database `magery_test_<random>` is created once per session on
the server of TEST_POSTGRES_URL (default: user postgres on 127.0.0.1:5432),
migrated, emptied before each test (every table, the admin's too) and dropped at the end. When that server
does not answer the PostgreSQL runs are skipped, except under CI=true, where
they fail.

argon2 runs at its cheapest costs in every test, and in every server a test
starts (they inherit the environment): what the tests prove of a sign-in is
what is done with a hash, not argon2's cost, which at the production costs made
the sign-in tests the slowest of the suite on a busy machine.
tests/test_password_costs.py proves the production costs are the ones used
when nothing is set.

Helpers for the other test files: the `api` fixture (an `Api`: create, join,
start, setups, act, legal, play_random), `ROW` (a legal backrow), `FakeTime`
(moves the service's clock) and `make_settings` (test settings with overrides).
"""

from __future__ import annotations

import asyncio
import math
import os
import random
import secrets
import shutil
import time
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy.engine import make_url

from app.auth import use_password_costs
from app.config import Settings
from app.db import make_engine, upgrade
from app.kernel.limits import SharedWindow
from app.main import MageryApp, create_app
from app.matches import MatchService
from app.puzzles.service import Puzzles, read_seed
from app.wiring import build
from tests.waiting import DEADLINE

PG_SERVER = os.environ.get("TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
ROW = ["construct", "fey", "elemental", "dragon", "undead", "beast", "spirit", "myrmidon"]


def _emptying() -> str:
    """DELETE of every table, children before parents, that keeps only the computer
    levels' accounts (migration 0007 made them). A DELETE of a near-empty table
    takes about a millisecond where a TRUNCATE of the same tables took 90 ms: a
    tenth of a second of every PostgreSQL test."""
    import app.admin  # noqa: F401  (its tables join the metadata)
    from app.db.models import Base

    steps = [f"DELETE FROM {table.name}" + (" WHERE computer IS NULL" if table.name == "accounts" else "")
             for table in reversed(Base.metadata.sorted_tables)]
    return "; ".join(steps)


EMPTY_EVERY_TABLE = _emptying()


def _asyncpg_dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def _migrate(url: str) -> None:
    engine = make_engine(url)
    try:
        await upgrade(engine)
    finally:
        await engine.dispose()


async def _migrate_with_seed_puzzles(url: str) -> None:
    """Migrated, and holding the shipped puzzles, as every app's start leaves a
    database (app/main.py): the start then only reads their ids where it wrote 307
    rows into each SQLite test's copy."""
    await _migrate(url)
    engine = make_engine(url)
    try:
        await Puzzles(engine).load(read_seed())
    finally:
        await engine.dispose()


def _run(coro: Any) -> Any:
    """Run `coro` to the end on a loop of its own (session fixtures may be set up
    from inside a test's running loop)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


async def _admin(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(_asyncpg_dsn(PG_SERVER), timeout=3)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


# ---- argon2, at its cheapest -------------------------------------------------------

# One pass over 8 KiB in one lane: the least argon2 accepts.
CHEAP_PASSWORDS = {"password_time_cost": 1, "password_memory_kib": 8, "password_parallelism": 1}


def pytest_configure(config: pytest.Config) -> None:
    os.environ.update({name.upper(): str(value) for name, value in CHEAP_PASSWORDS.items()})
    use_password_costs(*CHEAP_PASSWORDS.values())


# ---- databases ------------------------------------------------------------------


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated SQLite file holding the shipped puzzles, copied for each test
    (migrating and loading them once is faster)."""
    path = tmp_path_factory.mktemp("sqlite") / "template.sqlite3"
    _run(_migrate_with_seed_puzzles(f"sqlite+aiosqlite:///{path}"))
    return path


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A fresh, migrated database for this session on the test PostgreSQL server."""
    name = f"magery_test_{secrets.token_hex(4)}"
    try:
        _run(_admin(f'CREATE DATABASE "{name}"'))
    except Exception as error:  # unreachable, refused, no such role...
        message = f"PostgreSQL at {make_url(PG_SERVER).render_as_string()} is not reachable: {error!r}"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    url = make_url(PG_SERVER).set(database=name).render_as_string(hide_password=False)
    try:
        _run(_migrate(url))
        yield url
    finally:
        _run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


REDIS_SERVER = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


@pytest.fixture(scope="session")
def redis_server() -> str:
    """The test Redis's URL (TEST_REDIS_URL; scripts/test starts one when none
    answers). Skipped when it does not answer, except under CI=true: failed."""
    import redis

    try:
        client = redis.Redis.from_url(REDIS_SERVER, socket_connect_timeout=3)
        try:
            client.ping()
        finally:
            client.close()
    except Exception as error:
        message = f"Redis at {REDIS_SERVER} is not reachable: {error!r}"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    return REDIS_SERVER


@pytest.fixture
def redis_prefix() -> str:
    """Channels and keys of this test's own: pub/sub channels ignore Redis's db
    numbers, so tests running side by side (xdist) are kept apart by prefix."""
    return f"magery-test-{secrets.token_hex(4)}"


@pytest.fixture(params=["sqlite", "postgres"])
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty, migrated database: SQLite, then PostgreSQL."""
    if request.param == "sqlite":
        path = tmp_path / "magery.sqlite3"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        return f"sqlite+aiosqlite:///{path}"
    url: str = request.getfixturevalue("postgres_url")
    import asyncpg

    conn = await asyncpg.connect(_asyncpg_dsn(url))
    try:
        await conn.execute(EMPTY_EVERY_TABLE)
    finally:
        await conn.close()
    _start_the_shared_windows_now(request.getfixturevalue("monkeypatch"))
    return url


def _start_the_shared_windows_now(monkeypatch: pytest.MonkeyPatch) -> None:
    """On PostgreSQL the write limits count in fixed windows aligned to the epoch
    (SharedWindow). A test that counts writes against a small budget would see the
    count begin again if its writes straddled a window's end (CI saw it once, with a
    30 s window). So each test's limiter clock reads the start of an hour when the
    test begins, and runs at the real rate from there: every window the tests use
    (30, 60, 600 s) divides an hour, so each test has a whole window before it."""
    began = time.time()
    hour = math.ceil(began / 3600) * 3600
    monkeypatch.setattr(SharedWindow, "clock", staticmethod(lambda: hour + (time.time() - began)))


# ---- the app --------------------------------------------------------------------


def make_settings(database_url: str, **overrides: Any) -> Settings:
    """Settings for tests: no write limit, no cap on bot matches, no bot delay, a
    sweeper that waits (and no sweep, tournament tick or clock alarm at the start),
    a readiness probe that waits a minute for the database, as long as
    tests/waiting.py waits for anything (a resend for its first too), and argon2
    at its cheapest."""
    values: dict[str, Any] = {
        "database_url": database_url, "rate_limit_writes": 1_000_000, "rate_limit_reads": 1_000_000,
        "bot_delay_seconds": 0.0,
        "sweep_seconds": 3600.0, "touch_seconds": 0.0, "rate_limit_hold_seconds": 0.0,
        # No sweep, tick or alarm at the app's start: each queried the whole database (about nine
        # queries) beside every test, which drives these steps itself when it is about them.
        "ticks_wait_first": True,
        "ready_timeout_seconds": 60.0,
        "idempotency_wait_seconds": DEADLINE,  # racing resends wait for the first however busy the machine
        "bot_matches_per_address": 0,  # no cap: every test client comes from one address
        "bot_matches_per_account": 0,  # nor one account
        "tournament_schedule": False,  # no arena of the server's own in a test that did not ask for one
        "notify_sender": False,  # the outbox's passes run by the tests that deliver (`sender.send_due`)
        **CHEAP_PASSWORDS,
    }
    values.update(overrides)
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]




@pytest.fixture
def settings(database_url: str) -> Settings:
    return make_settings(database_url)


class Apps:
    """One app per configuration for the session (per test process): its routes,
    their schemas and /openapi.json are built once, at its first test (some
    seconds of CPU each: built per test, they were most of the suite's time).
    Every test after gets fresh parts for its own database, served by the same
    app (app/main.py's `MageryApp.serve`). The configuration is the settings
    but the database's URL."""

    def __init__(self) -> None:
        self.made: dict[str, MageryApp] = {}

    def serving(self, settings: Settings) -> MageryApp:
        """The configuration's app, serving fresh parts built with `settings`."""
        shape = settings.model_copy(update={"database_url": ""})
        key = repr(sorted((name, _revealed(value)) for name, value in shape))
        app = self.made.get(key)
        if app is None:
            app = self.made[key] = create_app(settings)
        else:
            app.serve(build(settings))
        return app


def _revealed(value: Any) -> Any:
    """A setting as it is, a secret's value too (two secrets are two configurations)."""
    return value.get_secret_value() if hasattr(value, "get_secret_value") else value


@pytest.fixture(scope="session")
def apps() -> Apps:
    return Apps()


@pytest.fixture
async def app(settings: Settings, apps: Apps) -> AsyncIterator[Any]:
    """The app of the test's configuration, serving fresh parts on the test's own
    database, with its lifespan run (migrations, service, sweeper). What a test
    swaps in `dependency_overrides` is put back when it ends."""
    application = apps.serving(settings)
    try:
        async with application.router.lifespan_context(application):
            yield application
    finally:
        application.dependency_overrides.clear()


@pytest.fixture
async def client(app: Any) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
        yield c


@pytest.fixture
def service(app: Any) -> MatchService:
    return app.state.parts.service


# ---- helpers ----------------------------------------------------------------------


class FakeTime:
    """Replaces the service's clock so a test can move time on: `FakeTime(service).advance(61)`."""

    def __init__(self, service: MatchService) -> None:
        self.now = service.clock()
        service.clock = lambda: self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


async def created_in_turn(api: Api, service: MatchService, names: list[str]) -> list[Game]:
    """Matches made a millisecond apart: two made in the same millisecond would
    be ordered by their random ids, not by when they were made."""
    clock, made = FakeTime(service), []
    for name in names:
        made.append(await api.create(name=name))
        clock.advance(0.001)
    return made


@dataclass
class Game:
    """A match seen from the test: its id, the seats' tokens, the last state seen."""

    id: str
    tokens: dict[str, str] = field(default_factory=dict)
    match: dict[str, Any] = field(default_factory=dict)

    def auth(self, colour: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[colour]}"}

    @property
    def version(self) -> int:
        return int(self.match["version"])


class Api:
    """Short ways to drive matches through the REST API."""

    base = "/api/v1/matches"

    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client

    async def create(self, *, seat: str = "white", name: str = "Ada", opponent: str = "human",
                     **options: Any) -> Game:
        r = await self.client.post(self.base, json={"options": options, "seat": seat, "opponent": opponent,
                                                     "name": name})
        assert r.status_code == 201, r.text
        body = r.json()
        return Game(body["match"]["id"], {body["seat"]: body["token"]}, body["match"])

    async def join(self, game: Game, name: str = "Bo") -> Game:
        r = await self.client.post(f"{self.base}/{game.id}/join", json={"name": name})
        assert r.status_code == 200, r.text
        body = r.json()
        game.tokens[body["seat"]] = body["token"]
        game.match = body["match"]
        return game

    async def start(self, **options: Any) -> Game:
        """A match with both seats taken: White created it, Black joined."""
        return await self.join(await self.create(**options))

    async def state(self, game: Game) -> dict[str, Any]:
        r = await self.client.get(f"{self.base}/{game.id}")
        assert r.status_code == 200, r.text
        game.match = r.json()
        return game.match

    async def legal(self, game: Game, colour: str) -> dict[str, Any]:
        r = await self.client.get(f"{self.base}/{game.id}/legal", headers=game.auth(colour))
        assert r.status_code == 200, r.text
        return r.json()

    async def post(self, game: Game, colour: str, action: dict[str, Any], version: int | None = None,
                   id: str | None = None) -> httpx.Response:
        body: dict[str, Any] = {"action": action, "version": game.version if version is None else version}
        if id is not None:
            body["id"] = id
        return await self.client.post(f"{self.base}/{game.id}/actions", json=body, headers=game.auth(colour))

    async def act(self, game: Game, colour: str, action: dict[str, Any], **kw: Any) -> dict[str, Any]:
        r = await self.post(game, colour, action, **kw)
        assert r.status_code == 200, r.text
        game.match = r.json()["match"]
        return game.match

    async def setups(self, game: Game, white: list[str] = ROW, black: list[str] = ROW) -> dict[str, Any]:
        await self.act(game, "white", {"type": "setup", "backrow": white})
        return await self.act(game, "black", {"type": "setup", "backrow": black})

    async def play_random(self, game: Game, rng: random.Random, max_actions: int = 5000) -> dict[str, Any]:
        """Both seats play random legal actions (asked of GET /legal) until the match ends."""
        for _ in range(max_actions):
            if game.match["status"] == "finished":
                return game.match
            await self.step(game, rng)
        raise AssertionError(f"no end after {max_actions} actions")

    async def step(self, game: Game, rng: random.Random) -> dict[str, Any]:
        """One random legal action (asked of GET /legal) by whoever is to move."""
        colour = game.match["to_move"]
        legal = await self.legal(game, colour)
        assert legal["version"] == game.version
        if legal["setup"]:
            row = list(legal["setup"])
            rng.shuffle(row)
            action = {"type": "setup", "backrow": row}
        else:
            action = rng.choice(legal["actions"])
        return await self.act(game, colour, action)


@pytest.fixture
def api(client: httpx.AsyncClient) -> Api:
    return Api(client)
