"""Notifications: the inbox, the outbox of deliveries, the players' choices
(app/db/notify_models.py).

Revision ID: 0027
Revises: 0026
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0027"
down_revision: str | None = "0026"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "notifications",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("kind", sa.String(24), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("read_ms", sa.BigInteger(), nullable=True),
        sa.Column("once_key", sa.String(64), nullable=True),
    )
    op.create_index("ix_notifications_account_id", "notifications", ["account_id", "id"])
    op.create_index("uq_notifications_once", "notifications", ["account_id", "once_key"], unique=True)
    op.create_table(
        "notify_outbox",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("notification_id", sa.Integer(), nullable=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(24), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("due_ms", sa.BigInteger(), nullable=False),
        sa.Column("tries", sa.Integer(), nullable=False),
        sa.Column("lease_until_ms", sa.BigInteger(), nullable=True),
        sa.Column("claimed_by", sa.String(32), nullable=True),
    )
    op.create_index("ix_notify_outbox_due", "notify_outbox", ["channel", "due_ms"])
    op.create_table(
        "notification_preferences",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("kind", sa.String(24), primary_key=True),
        sa.Column("channel", sa.String(16), primary_key=True),
        sa.Column("enabled", sa.Boolean(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("notification_preferences")
    op.drop_index("ix_notify_outbox_due", table_name="notify_outbox")
    op.drop_table("notify_outbox")
    op.drop_index("uq_notifications_once", table_name="notifications")
    op.drop_index("ix_notifications_account_id", table_name="notifications")
    op.drop_table("notifications")
