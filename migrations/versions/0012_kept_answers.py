"""Answers kept for `Idempotency-Key` on create and join (issue 21, item 1): a
hash of the key, a hash of the request, and the answer sealed with the key.
Nothing before this revision changes.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "kept_answers",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("request_hash", sa.String(64), nullable=False),
        sa.Column("status", sa.Integer(), nullable=True),
        sa.Column("sealed", sa.LargeBinary(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_kept_answers"),
    )
    op.create_index("ix_kept_answers_created_at", "kept_answers", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_kept_answers_created_at", table_name="kept_answers")
    op.drop_table("kept_answers")
