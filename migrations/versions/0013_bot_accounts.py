"""Bot accounts (issue 21): an account turned, once and for good, into one a
program plays (`bot_at`: when; null: a person's account, or a computer level's).

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("accounts", sa.Column("bot_at", sa.DateTime(timezone=True), nullable=True))
    # A pool place: its player is a bot account; its player consents to be paired with one.
    op.add_column("pool_seekers", sa.Column("bot", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.add_column("pool_seekers", sa.Column("bots", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    op.drop_column("pool_seekers", "bots")
    op.drop_column("pool_seekers", "bot")
    op.drop_column("accounts", "bot_at")
