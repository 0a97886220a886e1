"""Quick pairing (issue 20): who waits in which pool, and what pairing made.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "pool_seekers",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("pool", sa.String(40), nullable=False),
        sa.Column("player", sa.String(80), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("rating", sa.Float(), nullable=True),
        sa.Column("ticket_hash", sa.String(64), nullable=True),
        sa.Column("joined_ms", sa.BigInteger(), nullable=False),
        sa.Column("lease_until_ms", sa.BigInteger(), nullable=False),
        sa.Column("last_opponent", sa.String(80), nullable=True),
        sa.Column("match_id", sa.String(24), nullable=True),
        sa.Column("colour", sa.String(8), nullable=True),
        sa.Column("seat_token", sa.String(64), nullable=True),
        sa.Column("paired_ms", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], name="fk_pool_seekers_account_id_accounts",
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_pool_seekers_match_id_matches",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_pool_seekers"),
        sa.UniqueConstraint("pool", "player", name="uq_pool_seekers_pool_player"),
    )
    op.create_index("ix_pool_seekers_player", "pool_seekers", ["player"])
    op.create_index("ix_pool_seekers_pool_match", "pool_seekers", ["pool", "match_id"])


def downgrade() -> None:
    op.drop_index("ix_pool_seekers_pool_match", "pool_seekers")
    op.drop_index("ix_pool_seekers_player", "pool_seekers")
    op.drop_table("pool_seekers")
