"""Computer analyses of finished matches and their plies (app/db/analysis_models.py).

Revision ID: 0030
Revises: 0029
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0030"
down_revision: str | None = "0029"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("match_id", sa.String(24), sa.ForeignKey("matches.id", ondelete="CASCADE"), nullable=False,
                  unique=True),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("engine", sa.String(40), nullable=False),
        sa.Column("depth", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("requester", sa.String(80), nullable=False),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True),
        sa.Column("address", sa.String(64), nullable=True),
        sa.Column("requested_ms", sa.BigInteger(), nullable=False),
        sa.Column("started_ms", sa.BigInteger(), nullable=True),
        sa.Column("finished_ms", sa.BigInteger(), nullable=True),
        sa.Column("claimed_by", sa.String(80), nullable=True),
        sa.Column("lease_until_ms", sa.BigInteger(), nullable=True),
        sa.Column("accuracy_white", sa.Float(), nullable=True),
        sa.Column("accuracy_black", sa.Float(), nullable=True),
    )
    op.create_index("ix_analyses_status_requested", "analyses", ["status", "requested_ms"])
    op.create_index("ix_analyses_requester_requested", "analyses", ["requester", "requested_ms"])
    op.create_index("ix_analyses_address_requested", "analyses", ["address", "requested_ms"])
    op.create_table(
        "analysis_plies",
        sa.Column("analysis_id", sa.Integer(), sa.ForeignKey("analyses.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("version", sa.Integer(), primary_key=True),
        sa.Column("eval", sa.Float(), nullable=False),
        sa.Column("best", sa.JSON(), nullable=True),
        sa.Column("choices", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("mover", sa.String(5), nullable=True),
        sa.Column("as_best", sa.Boolean(), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("analysis_plies")
    op.drop_index("ix_analyses_address_requested", table_name="analyses")
    op.drop_index("ix_analyses_requester_requested", table_name="analyses")
    op.drop_index("ix_analyses_status_requested", table_name="analyses")
    op.drop_table("analyses")
