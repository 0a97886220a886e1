"""Why a chat line was reported: abuse, spam, cheating talk or other, one per
reporter and line, beside the row that counts the report. Reports made before
keep no reason (null). Nothing else changes.

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("chat_reports", sa.Column("reason", sa.String(16), nullable=True))


def downgrade() -> None:
    op.drop_column("chat_reports", "reason")
