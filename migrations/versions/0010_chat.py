"""Chat (issue 20): each match's lines in two rooms (players, spectators), and
the accounts an admin muted for a while. Nothing before this revision changes.

Revision ID: 0010
Revises: 0007
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

MOMENT = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "chat_lines",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("match_id", sa.String(24), nullable=False),
        sa.Column("room", sa.String(12), nullable=False),
        sa.Column("author", sa.String(64), nullable=False),
        sa.Column("author_key", sa.String(120), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("seat", sa.String(8), nullable=True),
        sa.Column("text", sa.String(140), nullable=False),
        sa.Column("at", MOMENT, nullable=False),
        sa.Column("reported_at", MOMENT, nullable=True),
        sa.Column("reports", sa.Integer(), nullable=False),
        sa.Column("hidden_at", MOMENT, nullable=True),
        sa.Column("hidden_by", sa.String(64), nullable=True),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_chat_lines_match_id_matches",
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], name="fk_chat_lines_account_id_accounts"),
        sa.PrimaryKeyConstraint("id", name="pk_chat_lines"),
    )
    op.create_index("ix_chat_lines_match", "chat_lines", ["match_id", "id"])
    op.create_index("ix_chat_lines_author", "chat_lines", ["author_key", "id"])
    op.create_index("ix_chat_lines_reported", "chat_lines", ["reported_at"])
    op.create_table(
        "chat_mutes",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("until", MOMENT, nullable=False),
        sa.Column("muted_by", sa.String(64), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column("at", MOMENT, nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], name="fk_chat_mutes_account_id_accounts",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("account_id", name="pk_chat_mutes"),
    )


def downgrade() -> None:
    op.drop_table("chat_mutes")
    op.drop_index("ix_chat_lines_reported", table_name="chat_lines")
    op.drop_index("ix_chat_lines_author", table_name="chat_lines")
    op.drop_index("ix_chat_lines_match", table_name="chat_lines")
    op.drop_table("chat_lines")
