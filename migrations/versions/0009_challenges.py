"""Challenges (issue 20): one account asks another for a match.

Revision ID: 0009
Revises: 0007
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

MOMENT = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(16), nullable=False),
        sa.Column("challenger_id", sa.Integer(), nullable=False),
        sa.Column("challenged_id", sa.Integer(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("colour", sa.String(8), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("reason", sa.String(16), nullable=True),
        sa.Column("match_id", sa.String(24), nullable=True),
        sa.Column("created_at", MOMENT, nullable=False),
        sa.Column("expires_at", MOMENT, nullable=False),
        sa.Column("decided_at", MOMENT, nullable=True),
        sa.ForeignKeyConstraint(["challenger_id"], ["accounts.id"], name="fk_challenges_challenger_id_accounts"),
        sa.ForeignKeyConstraint(["challenged_id"], ["accounts.id"], name="fk_challenges_challenged_id_accounts"),
        sa.PrimaryKeyConstraint("id", name="pk_challenges"),
    )
    op.create_index("ix_challenges_challenged_status", "challenges", ["challenged_id", "status"])
    op.create_index("ix_challenges_challenger_status", "challenges", ["challenger_id", "status"])


def downgrade() -> None:
    op.drop_index("ix_challenges_challenger_status", table_name="challenges")
    op.drop_index("ix_challenges_challenged_status", table_name="challenges")
    op.drop_table("challenges")
