"""OAuth: the authorization codes, and the app a token was approved for (app/db/account_models.py).

Revision ID: 0032
Revises: 0031
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0032"
down_revision: str | None = "0031"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

MOMENT = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.add_column("account_tokens", sa.Column("client_id", sa.String(40), nullable=True))
    op.create_table(
        "oauth_codes",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("client_id", sa.String(40), nullable=False),
        sa.Column("redirect_uri", sa.String(2000), nullable=False),
        sa.Column("challenge", sa.String(64), nullable=False),
        sa.Column("scopes", sa.String(32), nullable=False),
        sa.Column("expires_at", MOMENT, nullable=False),
        sa.Column("used_at", MOMENT, nullable=True),
        sa.Column("token_id", sa.Integer(), sa.ForeignKey("account_tokens.id", ondelete="SET NULL"), nullable=True),
    )
    op.create_index("ix_oauth_codes_account_id", "oauth_codes", ["account_id"])
    op.create_index("ix_oauth_codes_expires_at", "oauth_codes", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_oauth_codes_expires_at", "oauth_codes")
    op.drop_index("ix_oauth_codes_account_id", "oauth_codes")
    op.drop_table("oauth_codes")
    with op.batch_alter_table("account_tokens") as batch:
        batch.drop_column("client_id")
