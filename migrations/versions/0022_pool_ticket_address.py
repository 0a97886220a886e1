"""Where each place in a pool was taken from.

`pool_seekers.origin` is the address a place was taken from, folded to a keyed
hash as a seat's origin is (app/kernel/origins.py, migration 0017): the pools
count the places one address holds against `POOL_PLACES_PER_ADDRESS`, on every
process, and never pair two places of one origin with each other. Places taken
before have no origin: they count for no address, as they always did.

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("pool_seekers", sa.Column("origin", sa.String(16), nullable=True))
    op.create_index("ix_pool_seekers_origin", "pool_seekers", ["origin"])


def downgrade() -> None:
    op.drop_index("ix_pool_seekers_origin", table_name="pool_seekers")
    op.drop_column("pool_seekers", "origin")
