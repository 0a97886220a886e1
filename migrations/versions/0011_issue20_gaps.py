"""Issue 20's gaps: quick pairing keeps no seat token, and chat reports are
counted once per reporter and line.

A guest's place holds the nonce and the hash of the seat token its ticket makes
(app/pools/seat_key.py) instead of the token itself.

Guests' rows are cleared: a place of before has no nonce (a guest waiting
across the upgrade joins again, within its lease of seconds), and a pairing of
before kept its token in plain, which is exactly what goes. Accounts' rows stay.

`chat_reports`: who reported which line (one row each); reports made before
stay counted in chat_lines.reports, with no reporter known.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute("DELETE FROM pool_seekers WHERE account_id IS NULL")
    # Plain ADD and DROP COLUMN (SQLite 3.35 and later do both in place), as 0005.
    op.drop_column("pool_seekers", "seat_token")
    op.add_column("pool_seekers", sa.Column("seat_nonce", sa.String(24), nullable=True))
    op.add_column("pool_seekers", sa.Column("seat_token_hash", sa.String(64), nullable=True))
    op.create_table(
        "chat_reports",
        sa.Column("line_id", sa.Integer(), nullable=False),
        sa.Column("reporter", sa.String(120), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["line_id"], ["chat_lines.id"], name="fk_chat_reports_line_id_chat_lines",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("line_id", "reporter", name="pk_chat_reports"),
    )


def downgrade() -> None:
    op.drop_table("chat_reports")
    op.execute("DELETE FROM pool_seekers WHERE account_id IS NULL")
    op.drop_column("pool_seekers", "seat_token_hash")
    op.drop_column("pool_seekers", "seat_nonce")
    op.add_column("pool_seekers", sa.Column("seat_token", sa.String(64), nullable=True))
