"""Each account's name folded (NFKC, Unicode's confusables skeleton, case
folded: app/kernel/folding.py), indexed, so that a guest's name that looks like
an account's is found in one read and refused.

Existing accounts are folded here, by the server's own fold; an account made
later is folded when it is made.

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from app.kernel.folding import fold

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

accounts = sa.table("accounts", sa.column("id", sa.Integer), sa.column("name", sa.String),
                    sa.column("name_fold", sa.String))


def upgrade() -> None:
    op.add_column("accounts", sa.Column("name_fold", sa.String(80), nullable=True))
    op.create_index("ix_accounts_name_fold", "accounts", ["name_fold"])
    bind = op.get_bind()
    for row in bind.execute(sa.select(accounts.c.id, accounts.c.name)).all():
        bind.execute(accounts.update().where(accounts.c.id == row.id).values(name_fold=fold(row.name)))


def downgrade() -> None:
    op.drop_index("ix_accounts_name_fold", table_name="accounts")
    op.drop_column("accounts", "name_fold")
