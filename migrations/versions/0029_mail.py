"""Email: an account's address and preferences, and the mails sent (app/db/mail_models.py).

Revision ID: 0029
Revises: 0028
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0029"
down_revision: str | None = "0028"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "mail_addresses",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("address_key", sa.String(64), nullable=False),
        sa.Column("added_ms", sa.BigInteger(), nullable=False),
        sa.Column("verified_ms", sa.BigInteger(), nullable=True),
        sa.Column("bounced_ms", sa.BigInteger(), nullable=True),
        sa.Column("turn", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("challenge", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("digest", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("digest_hour", sa.Integer(), nullable=False, server_default="8"),
    )
    op.create_table(
        "mail_sends",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("address_key", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("sent_ms", sa.BigInteger(), nullable=False),
        sa.Column("once_key", sa.String(64), nullable=True, unique=True),
    )
    op.create_index("ix_mail_sends_account_sent", "mail_sends", ["account_id", "sent_ms"])
    op.create_index("ix_mail_sends_address_sent", "mail_sends", ["address_key", "sent_ms"])


def downgrade() -> None:
    op.drop_index("ix_mail_sends_address_sent", table_name="mail_sends")
    op.drop_index("ix_mail_sends_account_sent", table_name="mail_sends")
    op.drop_table("mail_sends")
    op.drop_table("mail_addresses")
