"""Matches, seats, the action log and draw offers.

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

MOMENT = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "matches",
        sa.Column("id", sa.String(24), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seed", sa.String(128), nullable=False),
        sa.Column("seed_commitment", sa.String(64), nullable=False),
        sa.Column("custom", sa.Boolean(), nullable=False),
        sa.Column("chaos", sa.JSON(), nullable=True),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("white_ms", sa.BigInteger(), nullable=True),
        sa.Column("black_ms", sa.BigInteger(), nullable=True),
        sa.Column("clock_running", sa.String(8), nullable=True),
        sa.Column("clock_since_ms", sa.BigInteger(), nullable=True),
        sa.Column("due_at_ms", sa.BigInteger(), nullable=True),
        sa.Column("draw_offer", sa.String(8), nullable=True),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("created_at", MOMENT, nullable=False),
        sa.Column("updated_at", MOMENT, nullable=False),
        sa.Column("finished_at", MOMENT, nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_matches"),
    )
    op.create_index("ix_matches_created", "matches", ["created_at", "id"])
    op.create_index("ix_matches_status_created", "matches", ["status", "created_at", "id"])
    op.create_index("ix_matches_due_at_ms", "matches", ["due_at_ms"])

    op.create_table(
        "seats",
        sa.Column("match_id", sa.String(24), nullable=False),
        sa.Column("colour", sa.String(8), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("connected", sa.Boolean(), nullable=False),
        sa.Column("last_seen", MOMENT, nullable=False),
        sa.Column("joined_at", MOMENT, nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_seats_match_id_matches", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id", "colour", name="pk_seats"),
    )
    op.create_index("ix_seats_name", "seats", ["name"])

    op.create_table(
        "actions",
        sa.Column("match_id", sa.String(24), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("player", sa.String(8), nullable=True),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("automatic", sa.Boolean(), nullable=False),
        sa.Column("at", MOMENT, nullable=False),
        sa.Column("client_id", sa.String(64), nullable=True),
        sa.Column("public", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_actions_match_id_matches", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id", "version", name="pk_actions"),
        sa.UniqueConstraint("match_id", "client_id", name="uq_actions_match_id_client_id"),
    )

    op.create_table(
        "draw_offers",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("match_id", sa.String(24), nullable=False),
        sa.Column("colour", sa.String(8), nullable=False),
        sa.Column("offered_version", sa.Integer(), nullable=False),
        sa.Column("closed_version", sa.Integer(), nullable=True),
        sa.Column("outcome", sa.String(16), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_draw_offers_match_id_matches", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_draw_offers"),
    )
    op.create_index("ix_draw_offers_match_id", "draw_offers", ["match_id"])


def downgrade() -> None:
    op.drop_table("draw_offers")
    op.drop_table("actions")
    op.drop_table("seats")
    op.drop_table("matches")
