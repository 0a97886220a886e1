"""Bot matches as a shared resource (issue 17, items 1 and 2).

One row per match with a bot seat: who made it (`owner`, the creator's address
as the limits count it), so that every process counts the same running bot
matches per owner; and the claim on the bot's current turn (`turn_version`,
`claimed_by`, `lease_until_ms`), which a process takes with one conditional
UPDATE before it searches, so that each turn is searched by one process, and
which another process may take over once the lease has run out (its holder
died). Bot matches made before this revision get a row with no owner.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "bot_matches",
        sa.Column("match_id", sa.String(24), nullable=False),
        sa.Column("owner", sa.String(80), nullable=True),
        sa.Column("turn_version", sa.Integer(), nullable=True),
        sa.Column("claimed_by", sa.String(64), nullable=True),
        sa.Column("lease_until_ms", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_bot_matches_match_id_matches",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id", name="pk_bot_matches"),
    )
    op.create_index("ix_bot_matches_owner", "bot_matches", ["owner"])
    op.execute("INSERT INTO bot_matches (match_id) SELECT DISTINCT match_id FROM seats WHERE bot IS NOT NULL")


def downgrade() -> None:
    op.drop_index("ix_bot_matches_owner", "bot_matches")
    op.drop_table("bot_matches")
