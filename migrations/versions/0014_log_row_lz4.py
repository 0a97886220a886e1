"""The log row's public state compressed with lz4 instead of pglz (issue 22).

Every action writes one `actions` row whose `public` (the match as the action
left it, 2-4 KB of JSON) is over PostgreSQL's inline limit, so it is compressed
on the way in. With pglz that compression was about a tenth of PostgreSQL's CPU
per action (perf, 16 concurrent savers); lz4 does the same job in about half the
time, for a similar size. Only rows written from now on change; old rows stay
readable as they are. PostgreSQL only, and only where the server was built
with lz4 (14 and later): elsewhere this does nothing.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _has_lz4() -> bool:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return False
    return bool(bind.execute(sa.text(
        "SELECT count(*) FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)"
    )).scalar())


def upgrade() -> None:
    if _has_lz4():
        op.execute("ALTER TABLE actions ALTER COLUMN public SET COMPRESSION lz4")


def downgrade() -> None:
    if _has_lz4():
        op.execute("ALTER TABLE actions ALTER COLUMN public SET COMPRESSION default")
