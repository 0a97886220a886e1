"""Players (issue 19): accounts, their sessions and API tokens, the sign-in
and sign-up limits' counts, a rating per account and variant, each rated match's change of
rating; the account of a seat and whether a match is rated.

Every match stored before this revision stays as it was: casual (`rated`
false) and its seats with no account (guests' matches stay guests'). The
computer levels get their accounts here ("Random", "Greedy", "Strong"), and
again at start should they be missing (app/accounts/computers.py).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

MOMENT = sa.DateTime(timezone=True)
COMPUTERS = (("Random", "random"), ("Greedy", "greedy"), ("Strong", "strong"))


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(20), nullable=False),
        sa.Column("name_lower", sa.String(20), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=True),
        sa.Column("computer", sa.String(16), nullable=True),
        sa.Column("created_at", MOMENT, nullable=False),
        sa.Column("last_seen", MOMENT, nullable=True),
        sa.Column("closed_at", MOMENT, nullable=True),
        sa.Column("closed_reason", sa.String(500), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_accounts"),
        sa.UniqueConstraint("name_lower", name="uq_accounts_name_lower"),
        sa.UniqueConstraint("computer", name="uq_accounts_computer"),
    )
    op.create_table(
        "account_sessions",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("csrf_token", sa.String(64), nullable=False),
        sa.Column("address", sa.String(64), nullable=True),
        sa.Column("created_at", MOMENT, nullable=False),
        sa.Column("expires_at", MOMENT, nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], name="fk_account_sessions_account_id_accounts",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_account_sessions"),
    )
    op.create_index("ix_account_sessions_account_id", "account_sessions", ["account_id"])
    op.create_index("ix_account_sessions_expires_at", "account_sessions", ["expires_at"])
    op.create_table(
        "account_tokens",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("scopes", sa.String(32), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created_at", MOMENT, nullable=False),
        sa.Column("last_used_at", MOMENT, nullable=True),
        sa.Column("revoked_at", MOMENT, nullable=True),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], name="fk_account_tokens_account_id_accounts",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_account_tokens"),
        sa.UniqueConstraint("token_hash", name="uq_account_tokens_token_hash"),
    )
    op.create_index("ix_account_tokens_account_id", "account_tokens", ["account_id"])
    op.create_table(
        "account_limits",
        sa.Column("key", sa.String(80), nullable=False),
        sa.Column("hits", sa.Integer(), nullable=False),
        sa.Column("since", MOMENT, nullable=False),
        sa.Column("locked_until", MOMENT, nullable=True),
        sa.PrimaryKeyConstraint("key", name="pk_account_limits"),
    )
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("last_rated_at", MOMENT, nullable=True),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], name="fk_ratings_account_id_accounts",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("account_id", "variant", name="pk_ratings"),
    )
    op.create_index("ix_ratings_variant_rating", "ratings", ["variant", "rating"])
    op.create_table(
        "rating_changes",
        sa.Column("match_id", sa.String(24), nullable=False),
        sa.Column("colour", sa.String(8), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("rating_before", sa.Float(), nullable=False),
        sa.Column("rd_before", sa.Float(), nullable=False),
        sa.Column("rating_after", sa.Float(), nullable=False),
        sa.Column("rd_after", sa.Float(), nullable=False),
        sa.Column("at", MOMENT, nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_rating_changes_match_id_matches",
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], name="fk_rating_changes_account_id_accounts",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id", "colour", name="pk_rating_changes"),
    )
    op.create_index("ix_rating_changes_account_variant_at", "rating_changes", ["account_id", "variant", "at"])

    # Plain ADD COLUMN, which SQLite does in place: a batch (copy the table)
    # would drop the expression indexes SQLite cannot reflect (0002, 0003).
    op.add_column("matches", sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()))
    if op.get_context().dialect.name == "sqlite":
        # SQLite adds a column's foreign key only inline; alembic's add_column
        # would leave it out there.
        op.execute("ALTER TABLE seats ADD COLUMN account_id INTEGER REFERENCES accounts (id)")
    else:
        op.add_column("seats", sa.Column("account_id", sa.Integer(), nullable=True))
        op.create_foreign_key("fk_seats_account_id_accounts", "seats", "accounts", ["account_id"], ["id"])
    op.create_index("ix_seats_account_id", "seats", ["account_id"])

    created = datetime.now(UTC)
    accounts = sa.table("accounts", sa.column("name", sa.String), sa.column("name_lower", sa.String),
                        sa.column("computer", sa.String), sa.column("created_at", MOMENT))
    op.bulk_insert(accounts, [
        {"name": name, "name_lower": name.lower(), "computer": level,
         "created_at": created.replace(tzinfo=None) if op.get_context().dialect.name == "sqlite" else created}
        for name, level in COMPUTERS])


def downgrade() -> None:
    op.drop_index("ix_seats_account_id", table_name="seats")
    if op.get_context().dialect.name == "sqlite":
        # SQLite drops no column a foreign key names: the table is copied
        # without it, and the expression index a copy loses is made again.
        with op.batch_alter_table("seats", recreate="always") as batch:
            batch.drop_column("account_id")
        op.execute("DROP INDEX IF EXISTS ix_seats_name_lower")
        op.create_index("ix_seats_name_lower", "seats", [sa.text("lower(name)")])
    else:
        op.drop_constraint("fk_seats_account_id_accounts", "seats", type_="foreignkey")
        op.drop_column("seats", "account_id")
    op.drop_column("matches", "rated")
    op.drop_index("ix_rating_changes_account_variant_at", table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_index("ix_ratings_variant_rating", table_name="ratings")
    op.drop_table("ratings")
    op.drop_table("account_limits")
    op.drop_index("ix_account_tokens_account_id", table_name="account_tokens")
    op.drop_table("account_tokens")
    op.drop_index("ix_account_sessions_expires_at", table_name="account_sessions")
    op.drop_index("ix_account_sessions_account_id", table_name="account_sessions")
    op.drop_table("account_sessions")
    op.drop_table("accounts")
