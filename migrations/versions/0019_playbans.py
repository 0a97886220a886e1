"""Waits before rated play for players who leave rated matches
(app/ratings/leaving.py): `playbans`, one row per account that has offended,
and `offences`, each offence with its match; and `rating_refunds`, the points
given back to players who lost them to an account closed for cheating
(app/accounts/refunds.py).

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

MOMENT = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "playbans",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("level", sa.Integer(), nullable=False),
        sa.Column("until", MOMENT, nullable=False),
        sa.Column("last_offence_at", MOMENT, nullable=False),
        sa.Column("clean", sa.Integer(), nullable=False),
    )
    op.create_table(
        "offences",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("match_id", sa.String(24), sa.ForeignKey("matches.id", ondelete="SET NULL"), nullable=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("counted", sa.Integer(), nullable=False),
        sa.Column("at", MOMENT, nullable=False),
    )
    op.create_index("ix_offences_account_at", "offences", ["account_id", "at"])
    op.create_table(
        "rating_refunds",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("cheater_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("at", MOMENT, nullable=False),
    )
    op.create_index("ix_rating_refunds_account_id", "rating_refunds", ["account_id"])


def downgrade() -> None:
    op.drop_table("rating_refunds")
    op.drop_table("offences")
    op.drop_table("playbans")
