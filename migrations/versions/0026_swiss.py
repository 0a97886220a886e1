"""Swiss events: their settings, players, rounds and games (app/db/swiss_models.py).

Revision ID: 0026
Revises: 0025
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0026"
down_revision: str | None = "0025"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "swiss_events",
        sa.Column("tournament_id", sa.String(24), sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("round_interval_seconds", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("next_round_ms", sa.BigInteger(), nullable=False),
        sa.Column("finished_ms", sa.BigInteger(), nullable=True),
    )
    op.create_index("ix_swiss_events_next_round_ms", "swiss_events", ["next_round_ms"])
    op.create_table(
        "swiss_players",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.String(24), sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("joined_ms", sa.BigInteger(), nullable=False),
        sa.UniqueConstraint("tournament_id", "account_id", name="uq_swiss_players_account"),
    )
    op.create_table(
        "swiss_rounds",
        sa.Column("tournament_id", sa.String(24), sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("paired_ms", sa.BigInteger(), nullable=False),
    )
    op.create_table(
        "swiss_games",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.String(24), sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.String(24), sa.ForeignKey("matches.id", ondelete="SET NULL"), nullable=True,
                  unique=True),
        sa.Column("white", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("black", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("result", sa.String(8), nullable=True),
        sa.Column("made_ms", sa.BigInteger(), nullable=False),
        sa.Column("ended_ms", sa.BigInteger(), nullable=True),
        sa.UniqueConstraint("tournament_id", "round", "board", name="uq_swiss_games_board"),
    )
    op.create_index("ix_swiss_games_status", "swiss_games", ["status"])


def downgrade() -> None:
    op.drop_table("swiss_games")
    op.drop_table("swiss_rounds")
    op.drop_table("swiss_players")
    op.drop_index("ix_swiss_events_next_round_ms", table_name="swiss_events")
    op.drop_table("swiss_events")
