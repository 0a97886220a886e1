"""Open challenges: a challenge may name nobody (anyone with its link may take it),
so `challenges.challenged_id` may be null until someone accepts, and `open` says so for good (app/db/challenge_models.py).

Revision ID: 0033
Revises: 0032
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0033"
down_revision: str | None = "0032"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Batch mode: SQLite alters a column's nullability by copying the table.
    with op.batch_alter_table("challenges") as batch:
        batch.alter_column("challenged_id", existing_type=sa.Integer(), nullable=True)
        batch.add_column(sa.Column("open", sa.Boolean(), server_default=sa.false(), nullable=False))


def downgrade() -> None:
    op.execute("DELETE FROM challenges WHERE challenged_id IS NULL")
    with op.batch_alter_table("challenges") as batch:
        batch.drop_column("open")
        batch.alter_column("challenged_id", existing_type=sa.Integer(), nullable=False)
