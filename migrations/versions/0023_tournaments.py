"""Tournaments: an arena, its players and its games (app/db/tournament_models.py).

Revision ID: 0023
Revises: 0022
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("time_control", sa.String(16), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("starts_ms", sa.BigInteger(), nullable=False),
        sa.Column("ends_ms", sa.BigInteger(), nullable=False),
        sa.Column("created_by", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_tournaments_starts_ms", "tournaments", ["starts_ms"])
    op.create_index("ix_tournaments_ends_ms", "tournaments", ["ends_ms"])
    op.create_table(
        "tournament_players",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.String(24), sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("match_id", sa.String(24), sa.ForeignKey("matches.id", ondelete="SET NULL"), nullable=True),
        sa.Column("last_opponent", sa.Integer(), nullable=True),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("streak", sa.Integer(), nullable=False),
        sa.Column("joined_ms", sa.BigInteger(), nullable=False),
        sa.Column("free_ms", sa.BigInteger(), nullable=False),
        sa.UniqueConstraint("tournament_id", "account_id", name="uq_tournament_players_account"),
    )
    op.create_index("ix_tournament_players_account_match", "tournament_players", ["account_id", "match_id"])
    op.create_table(
        "tournament_games",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.String(24), sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("match_id", sa.String(24), sa.ForeignKey("matches.id", ondelete="CASCADE"), nullable=False,
                  unique=True),
        sa.Column("white", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("black", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("white_rating", sa.Float(), nullable=False),
        sa.Column("black_rating", sa.Float(), nullable=False),
        sa.Column("white_berserk", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("black_berserk", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("result", sa.String(8), nullable=True),
        sa.Column("actions", sa.Integer(), nullable=True),
        sa.Column("white_points", sa.Integer(), nullable=True),
        sa.Column("black_points", sa.Integer(), nullable=True),
        sa.Column("made_ms", sa.BigInteger(), nullable=False),
        sa.Column("ended_ms", sa.BigInteger(), nullable=True),
    )
    op.create_index("ix_tournament_games_tournament_id", "tournament_games", ["tournament_id"])
    op.create_index("ix_tournament_games_status", "tournament_games", ["status"])


def downgrade() -> None:
    op.drop_table("tournament_games")
    op.drop_table("tournament_players")
    op.drop_index("ix_tournaments_ends_ms", table_name="tournaments")
    op.drop_index("ix_tournaments_starts_ms", table_name="tournaments")
    op.drop_table("tournaments")
