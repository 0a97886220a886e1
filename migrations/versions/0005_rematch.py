"""Rematches (issue 16): an offer to play again, and the match it made.

`rematch` is the public part (who offers, who declined, the new match's id),
`rematch_token` the hash of the token the offerer's seat in the new match will
take (handed to the offerer alone, in the answer to its offer). `rematch_of`
names, on the new match, the match it is the rematch of: unique, so however
many processes accept at once, the database holds one rematch per match.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Plain ADD COLUMN, which SQLite does in place: a batch (copy the table)
    # would drop the expression indexes of 0003, which SQLite cannot reflect.
    op.add_column("matches", sa.Column("rematch", sa.JSON(), nullable=True))
    op.add_column("matches", sa.Column("rematch_token", sa.String(64), nullable=True))
    op.add_column("matches", sa.Column("rematch_of", sa.String(24), nullable=True))
    op.create_index("ix_matches_rematch_of", "matches", ["rematch_of"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_matches_rematch_of", table_name="matches")
    # Plain DROP COLUMN (SQLite 3.35 and later), for the same reason as above.
    for column in ("rematch_of", "rematch_token", "rematch"):
        op.drop_column("matches", column)
