"""The player filter's index: on lower(name), as the match list compares names.

The list filters seats by `lower(name) = lower(:player)` (names match whatever
their case); an index on `name` itself cannot serve that, so the filter read
every seat.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.drop_index("ix_seats_name", table_name="seats")
    op.create_index("ix_seats_name_lower", "seats", [sa.text("lower(name)")])


def downgrade() -> None:
    op.drop_index("ix_seats_name_lower", table_name="seats")
    op.create_index("ix_seats_name", "seats", ["name"])
