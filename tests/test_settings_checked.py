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


@pytest.mark.parametrize("value", ["redis", "Postgres ", "memroy", ""])
def test_an_unknown_bus_is_refused_naming_the_buses(value: str) -> None:
    with pytest.raises(ValidationError) as refused:
        Settings(realtime_bus=value)
    said = str(refused.value)
    assert "realtime_bus" in said
    for known in ("'auto'", "'postgres'", "'memory'"):
        assert known in said


@pytest.mark.parametrize("value", ["auto", "postgres", "memory"])
def test_each_known_bus_is_taken(value: str) -> None:
    url = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
    assert Settings(realtime_bus=value, database_url=url).realtime_bus == value


def test_the_postgres_bus_on_sqlite_is_refused() -> None:
    with pytest.raises(ValidationError, match="REALTIME_BUS=postgres needs a PostgreSQL DATABASE_URL"):
        Settings(realtime_bus="postgres", database_url="sqlite+aiosqlite:///./x.sqlite3")
    assert Settings(realtime_bus="memory", database_url="sqlite+aiosqlite:///./x.sqlite3").realtime_bus == "memory"


def test_a_server_with_an_unknown_bus_does_not_start(tmp_path: Path) -> None:
    """As the start script runs it: the app factory stops, and says why."""
    env = {**os.environ, "REALTIME_BUS": "redis", "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/s.sqlite3"}
    done = subprocess.run([sys.executable, "-c", "from app.main import create_app; create_app()"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode != 0
    assert "realtime_bus" in done.stderr and "'auto', 'postgres' or 'memory'" in done.stderr, done.stderr[-2000:]
