"""One identity: an admin is an account with the admin role.

Until now admins had tables of their own (`admin_users`, `admin_sessions`,
`admin_throttle`) beside the players' (`accounts`, `account_sessions`,
`account_limits`), and the two did the same security-critical job twice. Here
each admin becomes an account (`accounts.admin_at`: since when it is one) with
its password's hash kept, so it signs in with the same password; its open
dashboard sessions move to `account_sessions`, marked `admin` (only such a
session opens the dashboard). The failed sign-ins counted for admins are
dropped: the accounts' counts (`account_limits`) hold every sign-in from now on.

An admin name is made an account name: characters an account name has no
room for become `_`, and it is cut to 20; a name that then clashes with an
account's (folded as accounts fold names, to lower case) gets `-admin` and,
if need be, a number. Every renamed admin has a line in the admin audit log
(`admin_renamed`, the old name and the new) saying so.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-29
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

MOMENT = sa.DateTime(timezone=True)
LONGEST = 20  # an account name's (app/accounts/names.py)
NOT_IN_A_NAME = re.compile(r"[^A-Za-z0-9_-]")

admin_users = sa.table("admin_users", sa.column("id", sa.Integer), sa.column("name", sa.String),
                       sa.column("password_hash", sa.String), sa.column("created_at", MOMENT))
admin_sessions = sa.table("admin_sessions", sa.column("id", sa.String), sa.column("user_id", sa.Integer),
                          sa.column("csrf_token", sa.String), sa.column("address", sa.String),
                          sa.column("created_at", MOMENT), sa.column("expires_at", MOMENT))
accounts = sa.table("accounts", sa.column("id", sa.Integer), sa.column("name", sa.String),
                    sa.column("name_lower", sa.String), sa.column("password_hash", sa.String),
                    sa.column("created_at", MOMENT), sa.column("admin_at", MOMENT))
account_sessions = sa.table("account_sessions", sa.column("id", sa.String), sa.column("account_id", sa.Integer),
                            sa.column("csrf_token", sa.String), sa.column("address", sa.String),
                            sa.column("created_at", MOMENT), sa.column("expires_at", MOMENT),
                            sa.column("admin", sa.Boolean))
admin_audit = sa.table("admin_audit", sa.column("at", MOMENT), sa.column("admin", sa.String),
                       sa.column("kind", sa.String), sa.column("match_id", sa.String),
                       sa.column("address", sa.String), sa.column("detail", sa.JSON))


def fit(name: str) -> str:
    """`name` made an account name's shape: 2 to 20 of A-Z a-z 0-9 _ -."""
    return NOT_IN_A_NAME.sub("_", name)[:LONGEST].ljust(2, "_")


def account_name(name: str, taken: set[str]) -> str:
    """The account name an admin named `name` gets: `name` itself when it is a
    free account name; else the nearest free one (see the module's text)."""
    fitted = fit(name)
    if fitted.lower() not in taken:
        return fitted
    number = 1
    while True:
        tail = "-admin" if number == 1 else f"-admin{number}"
        candidate = fitted[:LONGEST - len(tail)] + tail
        if candidate.lower() not in taken:
            return candidate
        number += 1


def _now() -> datetime:
    now = datetime.now(UTC)
    return now.replace(tzinfo=None) if op.get_context().dialect.name == "sqlite" else now


def upgrade() -> None:
    op.add_column("accounts", sa.Column("admin_at", MOMENT, nullable=True))
    op.add_column("account_sessions", sa.Column("admin", sa.Boolean(), nullable=False, server_default=sa.false()))
    bind = op.get_bind()
    taken = {n for (n,) in bind.execute(sa.select(accounts.c.name_lower))}
    for admin in bind.execute(sa.select(admin_users).order_by(admin_users.c.id)).all():
        name = account_name(admin.name, taken)
        taken.add(name.lower())
        bind.execute(accounts.insert().values(name=name, name_lower=name.lower(), password_hash=admin.password_hash,
                                              created_at=admin.created_at, admin_at=admin.created_at))
        account_id = bind.execute(sa.select(accounts.c.id).where(accounts.c.name_lower == name.lower())).scalar_one()
        for s in bind.execute(sa.select(admin_sessions).where(admin_sessions.c.user_id == admin.id)).all():
            bind.execute(account_sessions.insert().values(
                id=s.id, account_id=account_id, csrf_token=s.csrf_token, address=s.address,
                created_at=s.created_at, expires_at=s.expires_at, admin=True))
        if name != admin.name:
            why = ("an account had that name already" if fit(admin.name) == admin.name
                   else "an account name is 2 to 20 of A-Z a-z 0-9 _ -")
            bind.execute(admin_audit.insert().values(
                at=_now(), admin=None, kind="admin_renamed", match_id=None, address=None,
                detail={"from": admin.name[:64], "to": name, "why": why}))
    op.drop_index("ix_admin_sessions_expires_at", table_name="admin_sessions")
    op.drop_index("ix_admin_sessions_user_id", table_name="admin_sessions")
    op.drop_table("admin_sessions")
    op.drop_table("admin_users")
    op.drop_table("admin_throttle")


def downgrade() -> None:
    op.create_table(
        "admin_users",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", MOMENT, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_admin_users"),
        sa.UniqueConstraint("name", name="uq_admin_users_name"),
    )
    op.create_table(
        "admin_sessions",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("csrf_token", sa.String(64), nullable=False),
        sa.Column("address", sa.String(64), nullable=True),
        sa.Column("created_at", MOMENT, nullable=False),
        sa.Column("expires_at", MOMENT, nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["admin_users.id"], name="fk_admin_sessions_user_id_admin_users",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_admin_sessions"),
    )
    op.create_index("ix_admin_sessions_user_id", "admin_sessions", ["user_id"])
    op.create_index("ix_admin_sessions_expires_at", "admin_sessions", ["expires_at"])
    op.create_table(
        "admin_throttle",
        sa.Column("key", sa.String(160), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("last_failure_at", MOMENT, nullable=False),
        sa.Column("locked_until", MOMENT, nullable=True),
        sa.PrimaryKeyConstraint("key", name="pk_admin_throttle"),
    )
    # The admins go back to their own table, keeping their account names and
    # hashes (a computer level or a closed account is no admin of the old kind).
    bind = op.get_bind()
    admins = bind.execute(sa.select(accounts).where(accounts.c.admin_at.is_not(None),
                                                    accounts.c.password_hash.is_not(None))).all()
    for a in admins:
        bind.execute(admin_users.insert().values(name=a.name, password_hash=a.password_hash,
                                                 created_at=a.created_at))
    op.drop_column("account_sessions", "admin")
    op.drop_column("accounts", "admin_at")
