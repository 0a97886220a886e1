"""docs/operations.md's backup and restore, done: `pg_dump -Fc` of a database in
play, `pg_restore --clean --if-exists --no-owner` into another, and a server on
the copy sees every match and every action as they were, and is ready (the
copy stands at the head migration). Skipped without PostgreSQL or its client
tools (failed under CI=true)."""

from __future__ import annotations

import os
import secrets
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from tests.conftest import PG_SERVER, _admin, _run
from tests.ops.conftest import need
from tests.realtime.conftest import custom_app


@pytest.fixture
async def two_databases(postgres_url: str) -> AsyncIterator[tuple[str, str]]:
    names = [f"magery_backup_{secrets.token_hex(4)}" for _ in range(2)]
    for name in names:
        _run(_admin(f'CREATE DATABASE "{name}"'))
    try:
        urls = [make_url(PG_SERVER).set(database=n).render_as_string(hide_password=False) for n in names]
        yield urls[0], urls[1]
    finally:
        for name in names:
            _run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def libpq(url: str) -> list[str]:
    """pg_dump's and pg_restore's connection arguments for a SQLAlchemy URL."""
    u = make_url(url)
    return ["-h", u.host or "127.0.0.1", "-p", str(u.port or 5432), "-U", u.username or "postgres",
            "-d", u.database or ""]


async def test_a_dump_restores_into_a_server_that_sees_everything(
        two_databases: tuple[str, str], tmp_path: Path) -> None:
    pg_dump = need("pg_dump", "the backup of docs/operations.md")
    pg_restore = need("pg_restore", "the restore of docs/operations.md")
    source, target = two_databases
    async with custom_app(source) as (_, api):  # migrates the source, then plays a little
        game = await api.start()
        await api.setups(game)
        waiting = await api.create(name="Cy")
        before = {m: (await api.client.get(f"{api.base}/{m}")).json() for m in (game.id, waiting.id)}
        log = (await api.client.get(f"{api.base}/{game.id}/actions")).json()
        dump = tmp_path / "magery-backup.dump"
        env = {**os.environ, "PGPASSWORD": make_url(source).password or ""}
        done = subprocess.run([pg_dump, "-Fc", "-f", str(dump), *libpq(source)], env=env,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
    done = subprocess.run([pg_restore, "--clean", "--if-exists", "--no-owner", *libpq(target), str(dump)],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    async with custom_app(target) as (_, api):
        assert (await api.client.get("/readyz")).status_code == 200
        for match_id, state in before.items():
            after = (await api.client.get(f"{api.base}/{match_id}")).json()
            # Players' presence and the moment of the read (server_time) are of the read, not the match.
            assert {k: v for k, v in after.items() if k not in ("players", "server_time")} == \
                {k: v for k, v in state.items() if k not in ("players", "server_time")}
        assert (await api.client.get(f"{api.base}/{game.id}/actions")).json() == log
        # And play goes on from where it stood, with the tokens handed out before the backup.
        legal = await api.legal(game, game.match["to_move"])
        assert legal["version"] == game.version
        assert (await api.post(game, game.match["to_move"], legal["actions"][0])).status_code == 200
