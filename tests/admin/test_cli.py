"""`python -m app.admin`'s old names for the admin commands of
`python -m app.accounts` (add-admin, list-admins, remove-admin, unlock): admins
made, listed and unmade on the server's database (DATABASE_URL), the password
from standard input or the environment.

Most calls run `main()` in this process (a new interpreter costs about 2 s of
CPU each, and the suite runs on two cores); one runs the real command, to prove
the entry point."""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.admin.__main__ import ENV_PASSWORD, main
from app.config import get_settings
from tests.admin.conftest import sign_in

ROOT = Path(__file__).resolve().parents[2]


def command(database_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    """The real `python -m app.admin`, in a process of its own."""
    environ = {k: v for k, v in os.environ.items() if k != ENV_PASSWORD}
    environ["DATABASE_URL"] = database_url
    return subprocess.run([sys.executable, "-m", "app.admin", *args], capture_output=True,
                          text=True, cwd=ROOT, env=environ, timeout=120)


@dataclass
class Done:
    returncode: int
    stdout: str
    stderr: str


class Cli:
    """`main(args)` as the command would run it: DATABASE_URL and the password
    variable from the environment, the password from standard input."""

    def __init__(self, database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
        self.database_url, self.monkeypatch = database_url, monkeypatch

    async def __call__(self, *args: str, stdin: str = "", env: dict[str, str] | None = None) -> Done:
        with self.monkeypatch.context() as patch:
            patch.setenv("DATABASE_URL", self.database_url)
            patch.delenv(ENV_PASSWORD, raising=False)
            for name, value in (env or {}).items():
                patch.setenv(name, value)
            patch.setattr(sys, "stdin", io.StringIO(stdin))
            out, err = io.StringIO(), io.StringIO()
            get_settings.cache_clear()
            try:
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    code = await asyncio.to_thread(main, list(args))  # main() runs a loop of its own
            finally:
                get_settings.cache_clear()
        return Done(code, out.getvalue(), err.getvalue())


async def test_add_list_and_remove_admins(database_url: str, app: Any, monkeypatch: pytest.MonkeyPatch,
                                          ) -> None:
    cli = Cli(database_url, monkeypatch)
    done = await cli("add-user", "ops", stdin="a long enough secret\n")
    assert done.returncode == 0, done.stderr
    done = await cli("add-user", "night-shift", env={"MAGERY_ADMIN_PASSWORD": "from the environment"})
    assert done.returncode == 0, done.stderr
    listed = await cli("list-users")
    assert listed.returncode == 0 and [line.split("\t")[0] for line in listed.stdout.splitlines()] == [
        "night-shift", "ops"]
    again = await cli("add-user", "ops", stdin="another long secret\n")
    assert again.returncode == 2 and "already" in again.stderr
    short = await cli("add-user", "brief", stdin="short\n")
    assert short.returncode == 2 and "at least" in short.stderr
    bad = await cli("add-user", "no spaces", stdin="a long enough secret\n")
    assert bad.returncode == 2 and "name" in bad.stderr

    # The accounts sign in to the running server, which shares the database.
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as c:
        assert (await sign_in(c, "ops", "a long enough secret")).status_code == 303
        assert (await c.get("/admin/api/matches")).status_code == 200
        removed = await cli("remove-user", "ops")
        assert removed.returncode == 0, removed.stderr
        # Removing an admin ends its sessions at once.
        assert (await c.get("/admin/api/matches")).status_code == 401
        c.cookies.clear()
        # The account stays, a player's: its right password no longer opens the dashboard.
        refused = await sign_in(c, "ops", "a long enough secret")
        assert refused.status_code == 403 and "not an admin" in refused.text
        assert (await sign_in(c, "night-shift", "from the environment")).status_code == 303
        log = (await c.get("/admin/api/audit", params={"kind": "user_added"})).json()["entries"]
        assert [e["detail"]["account"] for e in log] == ["night-shift", "ops"]
    real = command(database_url, "list-users")  # the real command, as an operator types it
    assert real.returncode == 0 and real.stdout.split("\t")[0] == "night-shift", real.stderr
    missing = await cli("remove-user", "ops")
    assert missing.returncode == 1 and "no admin" in missing.stderr


async def test_unlock_forgets_a_names_failures(database_url: str, app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Many addresses failing for one name lock it (issue 17, item 3); `unlock` lets
    its admin in from a new address at once."""
    cli = Cli(database_url, monkeypatch)
    assert (await cli("add-user", "ops", stdin="a long enough secret\n")).returncode == 0
    settings = app.state.parts.settings
    failures, host = 0, 0
    while failures < settings.account_name_lock_after:
        host += 1
        transport = httpx.ASGITransport(app=app, client=(f"203.0.113.{host}", 1))
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as outsider:
            for _ in range(settings.account_lock_after):
                assert (await sign_in(outsider, "ops", "wrong guess")).status_code == 401
                failures += 1
    fresh = httpx.ASGITransport(app=app, client=("192.0.2.1", 1))
    async with httpx.AsyncClient(transport=fresh, base_url="http://testserver") as c:
        assert (await sign_in(c, "ops", "a long enough secret")).status_code == 429
        done = await cli("unlock", "ops")
        assert done.returncode == 0 and "unlocked ops" in done.stdout, done.stderr
        assert (await sign_in(c, "ops", "a long enough secret")).status_code == 303
    assert "no failed sign-ins" in (await cli("unlock", "ops")).stdout
