"""Arenas' rules of entry: a password (its salted hash), a rating floor and
ceiling, and whether bot accounts may join (app/db/tournament_models.py).

Revision ID: 0024
Revises: 0023
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0024"
down_revision: str | None = "0023"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("tournaments", sa.Column("password_hash", sa.String(128), nullable=True))
    op.add_column("tournaments", sa.Column("min_rating", sa.Integer(), nullable=True))
    op.add_column("tournaments", sa.Column("max_rating", sa.Integer(), nullable=True))
    op.add_column("tournaments", sa.Column("bots", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("bots")
        batch.drop_column("max_rating")
        batch.drop_column("min_rating")
        batch.drop_column("password_hash")
