"""Takebacks in casual matches: who asks for one now, beside the
draw offer. Empty on every match made before.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("matches", sa.Column("takeback_offer", sa.String(8), nullable=True))


def downgrade() -> None:
    op.drop_column("matches", "takeback_offer")
