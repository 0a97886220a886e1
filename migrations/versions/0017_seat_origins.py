"""Where each seat was taken from, and whether its result counts on a profile.

`seats.origin` is the address a seat was taken from, folded to a keyed hash
(app/kernel/origins.py) under a key kept in the new `site_secrets` table;
`seats.counted` is false for a guest seat brought into an account while both
seats of its match came from one browser or one address. Seats made before
have no origin and count, as they always did.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "site_secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )
    op.add_column("seats", sa.Column("origin", sa.String(16), nullable=True))
    op.add_column("seats", sa.Column("counted", sa.Boolean(), nullable=False, server_default=sa.true()))


def downgrade() -> None:
    op.drop_column("seats", "counted")
    op.drop_column("seats", "origin")
    op.drop_table("site_secrets")
