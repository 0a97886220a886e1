"""A setting with a closed set of values refuses any other at start, naming the
values it takes: a misspelt REALTIME_BUS once became the one-process memory bus
without a word, and two processes stopped hearing each other."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from app.config import Settings

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("value", ["reddis", "Postgres ", "memroy", ""])
def test_an_unknown_bus_is_refused_naming_the_buses(value: str) -> None:
    with pytest.raises(ValidationError) as refused:
        Settings(realtime_bus=value)
    said = str(refused.value)
    assert "realtime_bus" in said
    for known in ("'auto'", "'postgres'", "'redis'", "'memory'"):
        assert known in said


@pytest.mark.parametrize("value", ["auto", "postgres", "redis", "memory"])
def test_each_known_bus_is_taken(value: str) -> None:
    url = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
    taken = Settings(realtime_bus=value, database_url=url, redis_url="redis://127.0.0.1:6379/0")
    assert taken.realtime_bus == value


def test_the_postgres_bus_on_sqlite_is_refused() -> None:
    with pytest.raises(ValidationError, match="REALTIME_BUS=postgres needs a PostgreSQL DATABASE_URL"):
        Settings(realtime_bus="postgres", database_url="sqlite+aiosqlite:///./x.sqlite3")
    assert Settings(realtime_bus="memory", database_url="sqlite+aiosqlite:///./x.sqlite3").realtime_bus == "memory"


def test_a_server_with_an_unknown_bus_does_not_start(tmp_path: Path) -> None:
    """As the start script runs it: the app factory stops, and says why."""
    env = {**os.environ, "REALTIME_BUS": "reddis", "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/s.sqlite3"}
    done = subprocess.run([sys.executable, "-c", "from app.main import create_app; create_app()"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode != 0
    assert "realtime_bus" in done.stderr and "'auto', 'postgres', 'redis' or 'memory'" in done.stderr, \
        done.stderr[-2000:]


def test_the_redis_bus_without_a_redis_url_is_refused() -> None:
    """Else it would have nowhere to connect, and say so only at the first socket."""
    with pytest.raises(ValidationError, match="REALTIME_BUS=redis needs REDIS_URL"):
        Settings(realtime_bus="redis", _env_file=None)  # type: ignore[call-arg]
    with pytest.raises(ValidationError, match="REALTIME_BUS=redis needs REDIS_URL"):
        Settings(realtime_bus="redis", redis_url="", _env_file=None)  # type: ignore[call-arg]
    taken = Settings(realtime_bus="redis", redis_url="redis://cache:6379/2", _env_file=None)  # type: ignore[call-arg]
    assert taken.redis_url == "redis://cache:6379/2"


@pytest.mark.parametrize("url", ["127.0.0.1:6379", "http://cache:6379", "postgresql://x/y"])
def test_a_redis_url_that_is_no_redis_address_is_refused(url: str) -> None:
    with pytest.raises(ValidationError, match="REDIS_URL is a redis://"):
        Settings(realtime_bus="redis", redis_url=url)


def test_a_server_with_the_redis_bus_and_no_redis_url_does_not_start(tmp_path: Path) -> None:
    env = {**os.environ, "REALTIME_BUS": "redis", "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/s.sqlite3"}
    env.pop("REDIS_URL", None)
    done = subprocess.run([sys.executable, "-c", "from app.main import create_app; create_app()"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode != 0
    assert "REALTIME_BUS=redis needs REDIS_URL" in done.stderr, done.stderr[-2000:]


PG = "postgresql+asyncpg://postgres@127.0.0.1:6432/test"


def test_an_unknown_pooler_is_refused_naming_the_poolers() -> None:
    with pytest.raises(ValidationError) as refused:
        Settings(database_pooler="pgbouncr", database_url=PG)
    assert "database_pooler" in str(refused.value) and "'none'" in str(refused.value) \
        and "'pgbouncer'" in str(refused.value)


def test_listen_notify_behind_a_pooler_is_refused() -> None:
    """LISTEN would hear nothing once its transaction's server connection went
    back to the pool: the processes would stop hearing each other in silence."""
    with pytest.raises(ValidationError, match="REALTIME_BUS=postgres .* cannot pass through DATABASE_POOLER"):
        Settings(database_pooler="pgbouncer", realtime_bus="postgres", database_url=PG,
                 redis_url="redis://127.0.0.1:6379/0")
    with pytest.raises(ValidationError, match="DATABASE_POOLER=pgbouncer needs REALTIME_BUS=redis"):
        Settings(database_pooler="pgbouncer", database_url=PG, _env_file=None)  # type: ignore[call-arg]
    with pytest.raises(ValidationError, match="DATABASE_POOLER=pgbouncer is for PostgreSQL"):
        Settings(database_pooler="pgbouncer", realtime_bus="memory", database_url="sqlite+aiosqlite:///./x.sqlite3")


def test_behind_a_pooler_auto_is_the_redis_bus() -> None:
    taken = Settings(database_pooler="pgbouncer", database_url=PG, redis_url="redis://127.0.0.1:6379/0")
    assert taken.realtime_bus == "redis"
    assert Settings(database_pooler="pgbouncer", database_url=PG, realtime_bus="memory").realtime_bus == "memory"
    assert Settings(database_url=PG).realtime_bus == "auto"  # no pooler: LISTEN/NOTIFY as ever


def test_a_server_behind_a_pooler_with_the_postgres_bus_does_not_start() -> None:
    env = {**os.environ, "REALTIME_BUS": "postgres", "DATABASE_POOLER": "pgbouncer", "DATABASE_URL": PG,
           "REDIS_URL": "redis://127.0.0.1:6379/0"}
    done = subprocess.run([sys.executable, "-c", "from app.main import create_app; create_app()"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode != 0
    assert "cannot pass through DATABASE_POOLER=pgbouncer" in done.stderr, done.stderr[-2000:]
