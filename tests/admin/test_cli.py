"""`python -m app.admin`: accounts made, listed and removed on the server's
database (DATABASE_URL), the password from standard input or the environment."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

from tests.admin.conftest import sign_in

ROOT = Path(__file__).resolve().parents[2]


def cli(database_url: str, *args: str, stdin: str = "", env: dict[str, str] | None = None,
        ) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k != "MAGERY_ADMIN_PASSWORD"}
    environ.update({"DATABASE_URL": database_url, **(env or {})})
    return subprocess.run([sys.executable, "-m", "app.admin", *args], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, env=environ, timeout=120)


async def test_add_list_and_remove_admins(database_url: str, app: Any) -> None:
    done = cli(database_url, "add-user", "ops", stdin="a long enough secret\n")
    assert done.returncode == 0, done.stderr
    done = cli(database_url, "add-user", "night.shift", env={"MAGERY_ADMIN_PASSWORD": "from the environment"})
    assert done.returncode == 0, done.stderr
    listed = cli(database_url, "list-users")
    assert listed.returncode == 0 and [line.split("\t")[0] for line in listed.stdout.splitlines()] == [
        "night.shift", "ops"]
    again = cli(database_url, "add-user", "ops", stdin="another long secret\n")
    assert again.returncode == 2 and "already" in again.stderr
    short = cli(database_url, "add-user", "brief", stdin="short\n")
    assert short.returncode == 2 and "at least" in short.stderr
    bad = cli(database_url, "add-user", "no spaces", stdin="a long enough secret\n")
    assert bad.returncode == 2 and "name" in bad.stderr

    # The accounts sign in to the running server, which shares the database.
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as c:
        assert (await sign_in(c, "ops", "a long enough secret")).status_code == 303
        assert (await c.get("/admin/api/matches")).status_code == 200
        removed = cli(database_url, "remove-user", "ops")
        assert removed.returncode == 0, removed.stderr
        # Removing an admin ends its sessions at once.
        assert (await c.get("/admin/api/matches")).status_code == 401
        c.cookies.clear()
        assert (await sign_in(c, "ops", "a long enough secret")).status_code == 401
        assert (await sign_in(c, "night.shift", "from the environment")).status_code == 303
        log = (await c.get("/admin/api/audit", params={"kind": "user_added"})).json()["entries"]
        assert [e["detail"]["account"] for e in log] == ["night.shift", "ops"]
    assert cli(database_url, "list-users").stdout.split("\t")[0] == "night.shift"
    missing = cli(database_url, "remove-user", "ops")
    assert missing.returncode == 1 and "no admin" in missing.stderr
