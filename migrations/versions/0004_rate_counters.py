"""Write counters shared by every server process (issue 12, defect 6).

One row per limited key (a seat's token hash, a client address) and fixed
window; each process adds its count with one UPSERT and reads the total back.
Rows of windows long past are deleted as the counting goes on.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "rate_counters",
        sa.Column("key", sa.String(80), primary_key=True),
        sa.Column("window_start", sa.BigInteger(), primary_key=True),
        sa.Column("hits", sa.Integer(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rate_counters")
