"""Quick pairing's table (migration 0008): who waits in which pool.

One row per player and pool. The database is the truth of a pool, so every
process pairs from the same rows and a pool outlives any one process. A row
waits while its lease runs (the player's waiting request renews it); a row
whose lease ran out is nobody. Once paired, the row names the match and the
colour; a guest collects its seat's token with its ticket, which makes the
token again (migration 0011: only the ticket's hash, the place's nonce and the
token's hash are kept, none of them the seat). `last_opponent` carries whom the player met last, so that the same two
are not paired twice in a row while someone else waits; `origin` (migration
0022) where the place was taken from, folded to a keyed hash.
"""

from __future__ import annotations

from typing import cast

from sqlalchemy import (
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base


class PoolSeeker(Base):
    __tablename__ = "pool_seekers"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    pool: Mapped[str] = mapped_column(String(40))  # "standard:10+5"
    player: Mapped[str] = mapped_column(String(80))  # "account:42" or "guest:<hash of the ticket's hash>"
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True)
    name: Mapped[str] = mapped_column(String(64))
    rating: Mapped[float | None] = mapped_column(Float, nullable=True)  # an account's, in the pool's variant
    ticket_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)  # a guest's ticket, hashed
    joined_ms: Mapped[int] = mapped_column(BigInteger)
    lease_until_ms: Mapped[int] = mapped_column(BigInteger)
    last_opponent: Mapped[str | None] = mapped_column(String(80), nullable=True)
    match_id: Mapped[str | None] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), nullable=True)
    colour: Mapped[str | None] = mapped_column(String(8), nullable=True)
    # A guest's place: the nonce and the hash of the seat token its ticket makes
    # with it (app/pools/seat_key.py); the token itself is never stored.
    seat_nonce: Mapped[str | None] = mapped_column(String(24), nullable=True)
    seat_token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    paired_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    # Migration 0013: the player is a bot account; the player consents to meet one.
    bot: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    bots: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # Migration 0022: where the place was taken from, a keyed hash of the address
    # (app/kernel/origins.py): counted per address, and never paired with its like.
    origin: Mapped[str | None] = mapped_column(String(16), nullable=True)

    __table_args__ = (
        UniqueConstraint("pool", "player", name="uq_pool_seekers_pool_player"),
        Index("ix_pool_seekers_player", "player"),
        Index("ix_pool_seekers_pool_match", "pool", "match_id"),
        Index("ix_pool_seekers_origin", "origin"),
    )


pool_seekers = cast(Table, PoolSeeker.__table__)
