"""Migration 0015: a database with admins of the old kind (`admin_users`,
`admin_sessions`) and players upgrades to one identity, and everyone still
signs in with the password they had: the admins, as accounts with the admin
role, at the dashboard; the players where they always did. An admin whose
name an account has already (folded to lower case), or whose name is no
account name, is renamed, and the audit log says so."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from sqlalchemy import inspect, select

from app.accounts import SignInFailed
from app.auth import digest, hash_password, use_password_costs
from app.db import make_engine, upgrade
from app.db.account_models import accounts
from app.db.migrate import downgrade
from app.db.models import UTCDateTime
from app.main import create_app
from tests.admin.conftest import sign_in
from tests.conftest import make_settings

OLD_ADMINS = sa.table("admin_users", sa.column("id", sa.Integer), sa.column("name", sa.String),
                      sa.column("password_hash", sa.String), sa.column("created_at", UTCDateTime()))
OLD_SESSIONS = sa.table("admin_sessions", sa.column("id", sa.String), sa.column("user_id", sa.Integer),
                        sa.column("csrf_token", sa.String), sa.column("address", sa.String),
                        sa.column("created_at", UTCDateTime()), sa.column("expires_at", UTCDateTime()))
# name: (the password, an admin of the old kind?)
PEOPLE = {"root": ("root's long secret", True), "Ops": ("the ops admin's secret", True),
          "night.shift": ("the night admin's secret", True),
          "ops": ("the ops player's secret", False), "Ada": ("Ada's own password", False)}
SESSION_TOKEN = "an admin's cookie from before the upgrade"


async def _old_database(database_url: str) -> None:
    """The database as 0017 left it (the revision before 0015), holding both kinds of people."""
    engine = make_engine(database_url)
    now = datetime.now(UTC)
    try:
        await downgrade(engine, "0017")
        async with engine.begin() as conn:
            for name, (password, admin) in PEOPLE.items():
                if admin:
                    await conn.execute(OLD_ADMINS.insert().values(name=name, password_hash=hash_password(password),
                                                                  created_at=now))
                else:
                    await conn.execute(accounts.insert().values(
                        name=name, name_lower=name.lower(), password_hash=hash_password(password), created_at=now))
            root = (await conn.execute(select(OLD_ADMINS.c.id).where(OLD_ADMINS.c.name == "root"))).scalar_one()
            await conn.execute(OLD_SESSIONS.insert().values(
                id=digest(SESSION_TOKEN), user_id=root, csrf_token="its csrf", address="192.0.2.1",
                created_at=now, expires_at=now + timedelta(hours=6)))
        await upgrade(engine)
        async with engine.connect() as conn:
            tables = set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
        assert not tables & {"admin_users", "admin_sessions", "admin_throttle"}
    finally:
        await engine.dispose()


async def test_admins_become_accounts_and_everyone_still_signs_in(database_url: str) -> None:
    settings = make_settings(database_url)
    use_password_costs(*settings.password_costs)  # the hashes below cost what the tests' do
    await _old_database(database_url)
    app: Any = create_app(settings)
    async with app.router.lifespan_context(app):
        service = app.state.parts.accounts
        renamed = {"root": "root", "Ops": "Ops-admin", "night.shift": "night_shift"}
        for old, new in renamed.items():
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as c:
                r = await sign_in(c, new, PEOPLE[old][0])
                assert r.status_code == 303, (old, r.text)
                assert (await c.get("/admin/api/matches")).status_code == 200
                if old == "root":
                    log = (await c.get("/admin/api/audit", params={"kind": "admin_renamed"})).json()["entries"]
                    assert sorted((e["detail"]["from"], e["detail"]["to"]) for e in log) == [
                        ("Ops", "Ops-admin"), ("night.shift", "night_shift")]
        for player in ("ops", "Ada"):  # the players sign in as before, and are no admins
            account = await service.sign_in(player, PEOPLE[player][0], "198.51.100.1")
            assert account.name == player and not account.admin
        with pytest.raises(SignInFailed):  # the admin's password is not the player's
            await service.sign_in("ops", PEOPLE["Ops"][0], "198.51.100.2")
        # An admin's dashboard session of the old kind carries over.
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver",
                                     cookies={"magery_admin": SESSION_TOKEN}) as kept:
            assert (await kept.get("/admin/api/matches")).status_code == 200
