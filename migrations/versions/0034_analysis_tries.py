"""Analyses count their tries: an analysis whose search keeps failing is given up
(`failed`, with a short reason) after ANALYSIS_TRIES, instead of being taken up
again for ever (app/db/analysis_models.py).

Revision ID: 0034
Revises: 0033
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0034"
down_revision: str | None = "0033"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("analyses") as batch:
        batch.add_column(sa.Column("tries", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("failure", sa.String(120), nullable=True))


def downgrade() -> None:
    # An older server knows no `failed`: such an analysis waits again, its tries forgotten.
    op.execute("UPDATE analyses SET status = 'queued', claimed_by = NULL, lease_until_ms = NULL "
               "WHERE status = 'failed'")
    with op.batch_alter_table("analyses") as batch:
        batch.drop_column("failure")
        batch.drop_column("tries")
