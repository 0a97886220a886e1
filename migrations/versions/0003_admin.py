"""The admin dashboard: accounts, sessions, throttling, the audit log, the
figures' summaries, and the indexes the match history's filters and sorts use.

The history filters matches by variant, ending reason and winner and sorts by
creation or finish, newest first, a page at a time: each gets an index that
ends in (created_at, id) or (finished_at, id), so a page is a short walk of one
index whatever the table's size. Reason and winner live in the `result` JSON;
`result ->> 'key'` reads it alike on PostgreSQL and SQLite (3.38+), so the same
expression indexes serve both. None of these columns changes on an ordinary
move (status and result change once at the end), so moves keep PostgreSQL's
cheap in-place (HOT) updates.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

MOMENT = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_index("ix_matches_variant_created", "matches", ["variant", "created_at", "id"])
    op.create_index("ix_matches_finished", "matches", ["finished_at", "id"])
    op.create_index("ix_matches_reason_created", "matches",
                    [sa.text("(result ->> 'reason')"), "created_at", "id"])
    op.create_index("ix_matches_winner_created", "matches",
                    [sa.text("(result ->> 'winner')"), "created_at", "id"])

    op.create_table(
        "admin_users",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", MOMENT, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_admin_users"),
        sa.UniqueConstraint("name", name="uq_admin_users_name"),
    )
    op.create_table(
        "admin_sessions",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("csrf_token", sa.String(64), nullable=False),
        sa.Column("address", sa.String(64), nullable=True),
        sa.Column("created_at", MOMENT, nullable=False),
        sa.Column("expires_at", MOMENT, nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["admin_users.id"], name="fk_admin_sessions_user_id_admin_users",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_admin_sessions"),
    )
    op.create_index("ix_admin_sessions_user_id", "admin_sessions", ["user_id"])
    op.create_index("ix_admin_sessions_expires_at", "admin_sessions", ["expires_at"])
    op.create_table(
        "admin_throttle",
        sa.Column("key", sa.String(160), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("last_failure_at", MOMENT, nullable=False),
        sa.Column("locked_until", MOMENT, nullable=True),
        sa.PrimaryKeyConstraint("key", name="pk_admin_throttle"),
    )
    op.create_table(
        "admin_audit",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("at", MOMENT, nullable=False),
        sa.Column("admin", sa.String(64), nullable=True),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("match_id", sa.String(24), nullable=True),
        sa.Column("address", sa.String(64), nullable=True),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_admin_audit"),
    )
    op.create_index("ix_admin_audit_kind_id", "admin_audit", ["kind", "id"])

    op.create_table(
        "match_summaries",
        sa.Column("match_id", sa.String(24), nullable=False),
        sa.Column("finished_at", MOMENT, nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("against_bot", sa.Boolean(), nullable=False),
        sa.Column("winner", sa.String(8), nullable=True),
        sa.Column("reason", sa.String(32), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("actions", sa.Integer(), nullable=False),
        sa.Column("think", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_match_summaries_match_id_matches",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id", name="pk_match_summaries"),
    )
    op.create_index("ix_match_summaries_day", "match_summaries", ["day"])
    op.create_table(
        "figure_sums",
        sa.Column("span", sa.String(8), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("against_bot", sa.Boolean(), nullable=False),
        sa.Column("finished", sa.Integer(), nullable=False),
        sa.Column("white_wins", sa.Integer(), nullable=False),
        sa.Column("black_wins", sa.Integer(), nullable=False),
        sa.Column("counts", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("span", "day", "variant", "against_bot", name="pk_figure_sums"),
    )
    op.create_table(
        "figure_marks",
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("finished_at", MOMENT, nullable=True),
        sa.PrimaryKeyConstraint("name", name="pk_figure_marks"),
    )


def downgrade() -> None:
    for table in ("figure_marks", "figure_sums", "match_summaries", "admin_audit", "admin_throttle",
                  "admin_sessions", "admin_users"):
        op.drop_table(table)
    for index in ("ix_matches_winner_created", "ix_matches_reason_created", "ix_matches_finished",
                  "ix_matches_variant_created"):
        op.drop_index(index, table_name="matches")
