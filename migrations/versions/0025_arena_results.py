"""Arenas the server schedules, their ends kept, and the admin's hand on them.

`tournaments.schedule_key` names a scheduled arena's slot ("hourly:standard:
5+3:2026-11-29T10:00Z"): unique, so every process may make the same slot and
only one arena is kept. `cancelled_ms` is an admin's cancel; `closed_ms` when
the arena's result was kept (its podium written, once). A player removed by an
admin keeps a row (`removed_ms`) so that they cannot join again. A game that
ended after its arena did is written with `counted` false: it scores nothing.
`tournament_podiums` holds the first three of each finished arena: the
trophies on the players' profiles.

Revision ID: 0025
Revises: 0024
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0025"
down_revision: str | None = "0024"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("tournaments", sa.Column("schedule_key", sa.String(64), nullable=True))
    op.add_column("tournaments", sa.Column("cancelled_ms", sa.BigInteger(), nullable=True))
    op.add_column("tournaments", sa.Column("closed_ms", sa.BigInteger(), nullable=True))
    op.create_index("uq_tournaments_schedule_key", "tournaments", ["schedule_key"], unique=True)
    op.add_column("tournament_players", sa.Column("removed_ms", sa.BigInteger(), nullable=True))
    op.add_column("tournament_games", sa.Column("counted", sa.Boolean(), nullable=False, server_default=sa.true()))
    op.create_table(
        "tournament_podiums",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.String(24), sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("performance", sa.Integer(), nullable=True),
        sa.Column("at_ms", sa.BigInteger(), nullable=False),
        sa.UniqueConstraint("tournament_id", "place", name="uq_tournament_podiums_place"),
    )
    op.create_index("ix_tournament_podiums_account_id", "tournament_podiums", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_podiums_account_id", table_name="tournament_podiums")
    op.drop_table("tournament_podiums")
    op.drop_column("tournament_games", "counted")
    op.drop_column("tournament_players", "removed_ms")
    op.drop_index("uq_tournaments_schedule_key", table_name="tournaments")
    op.drop_column("tournaments", "closed_ms")
    op.drop_column("tournaments", "cancelled_ms")
    op.drop_column("tournaments", "schedule_key")
