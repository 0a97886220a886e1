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
