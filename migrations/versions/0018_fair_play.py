"""Fair play: the quick decisive results of rated matches, the admins' queue of
cases, and where each account was made from.

`quick_results` holds each rated match that ended decisively after only a few
actions (app/ratings/fairness.py counts them per pair and per loser);
`fair_play_cases` the cases raised for the admins; `accounts.signup_origin`
the keyed hash of the address an account was made from (app/kernel/origins.py).
Nothing is filled in for what came before: old accounts have no origin.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

MOMENT = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "quick_results",
        sa.Column("match_id", sa.String(24), sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("winner_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("loser_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("actions", sa.Integer(), nullable=False),
        sa.Column("at", MOMENT, nullable=False),
    )
    op.create_index("ix_quick_results_loser_id", "quick_results", ["loser_id"])
    op.create_index("ix_quick_results_pair", "quick_results", ["winner_id", "loser_id", "at"])
    op.create_table(
        "fair_play_cases",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("other_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True),
        sa.Column("match_id", sa.String(24), sa.ForeignKey("matches.id", ondelete="SET NULL"), nullable=True),
        sa.Column("evidence", sa.JSON(), nullable=False),
        sa.Column("created_at", MOMENT, nullable=False),
        sa.Column("cleared_at", MOMENT, nullable=True),
        sa.Column("cleared_by", sa.String(20), nullable=True),
    )
    op.create_index("ix_fair_play_cases_account_id", "fair_play_cases", ["account_id"])
    op.create_index("ix_fair_play_cases_created_at", "fair_play_cases", ["created_at"])
    op.add_column("accounts", sa.Column("signup_origin", sa.String(16), nullable=True))


def downgrade() -> None:
    op.drop_column("accounts", "signup_origin")
    op.drop_table("fair_play_cases")
    op.drop_table("quick_results")
