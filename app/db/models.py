"""The tables. Alembic migrations (migrations/versions/) make them; never create_all.

A match is stored as its options, its seed, its ordered action log and a
snapshot of the engine state with a `version`. The log is the truth; the
snapshot is a cache that `app.matches.replay` reproduces exactly.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    TypeDecorator,
    UniqueConstraint,
    false,
    func,
    text,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s_%(column_1_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UTCDateTime(TypeDecorator[datetime]):
    """A moment in UTC: aware on the way out, on SQLite as on Postgres."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class Match(Base):
    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    status: Mapped[str] = mapped_column(String(16))  # waiting | active | finished
    variant: Mapped[str] = mapped_column(String(32))
    # The public options: variant, no_progress_rounds, time_control,
    # join_timeout_seconds, abandon_seconds.
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[str] = mapped_column(String(128))  # secret while running, unless custom (R20)
    seed_commitment: Mapped[str] = mapped_column(String(64))
    custom: Mapped[bool] = mapped_column(Boolean)
    chaos: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)  # the creator's chaos mages
    state: Mapped[dict[str, Any]] = mapped_column(JSON)  # State.to_json(): server-side only
    version: Mapped[int] = mapped_column(Integer)
    # Clocks in milliseconds; `clock_since_ms` is when the running clock started.
    white_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    black_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    clock_running: Mapped[str | None] = mapped_column(String(8), nullable=True)
    clock_since_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    # When something happens by itself (a flag falls, a join times out): the sweeper's index.
    due_at_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True, index=True)
    draw_offer: Mapped[str | None] = mapped_column(String(8), nullable=True)  # who offers now
    # Who asks for a takeback now (migration 0015; casual matches only).
    takeback_offer: Mapped[str | None] = mapped_column(String(8), nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    # Playing again (migration 0005): the public offer, {"offered_by", "declined_by",
    # "match_id"}; the hash of the token the offerer's seat in the new match takes;
    # and, on a rematch, the match it follows (unique: one rematch per match).
    rematch: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    rematch_token: Mapped[str | None] = mapped_column(String(64), nullable=True)
    rematch_of: Mapped[str | None] = mapped_column(String(24), nullable=True)
    # Rated or casual, chosen when the match is made (migration 0007): a rated
    # one, between two accounts or an account and a computer level, moves
    # ratings when it ends (app/accounts/rated.py).
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    __table_args__ = (
        Index("ix_matches_created", "created_at", "id"),
        Index("ix_matches_status_created", "status", "created_at", "id"),
        # The admin history's filters and sorts (migration 0003); `->>` reads JSON
        # alike on PostgreSQL and SQLite (3.38+), so one expression serves both.
        Index("ix_matches_variant_created", "variant", "created_at", "id"),
        Index("ix_matches_finished", "finished_at", "id"),
        Index("ix_matches_reason_created", text("(result ->> 'reason')"), "created_at", "id"),
        Index("ix_matches_winner_created", text("(result ->> 'winner')"), "created_at", "id"),
        Index("ix_matches_rematch_of", "rematch_of", unique=True),
    )


class Seat(Base):
    __tablename__ = "seats"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    colour: Mapped[str] = mapped_column(String(8), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    # sha256 hex of the seat's token; null for a bot.
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)  # bot level, null for a person
    # The account playing this seat (migration 0007): a signed-in player, or
    # the computer level's account in a rated bot match; null for a guest.
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True, index=True)
    connected: Mapped[bool] = mapped_column(Boolean, default=False)
    last_seen: Mapped[datetime] = mapped_column(UTCDateTime)
    joined_at: Mapped[datetime] = mapped_column(UTCDateTime)
    # Where the seat was taken from, as a keyed hash of the address
    # (app/kernel/origins.py; migration 0017); null when unknown.
    origin: Mapped[str | None] = mapped_column(String(16), nullable=True)
    # False when a guest seat was brought into an account while both seats of
    # the match came from one browser or one address: a match against oneself
    # adds no result to a profile.
    counted: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())

    # The match list's player filter compares lower(name) (migration 0002).
    __table_args__ = (Index("ix_seats_name_lower", func.lower(name)),)


class ActionEntry(Base):
    """The log: one row per version, in order, service events included."""

    __tablename__ = "actions"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    player: Mapped[str | None] = mapped_column(String(8), nullable=True)  # null: the server itself
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    automatic: Mapped[bool] = mapped_column(Boolean)
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    client_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # The public match state right after this entry, as its update carried it.
    public: Mapped[dict[str, Any]] = mapped_column(JSON)

    __table_args__ = (UniqueConstraint("match_id", "client_id"),)


class DrawOffer(Base):
    __tablename__ = "draw_offers"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    colour: Mapped[str] = mapped_column(String(8))  # who offered
    offered_version: Mapped[int] = mapped_column(Integer)
    closed_version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # pending | accepted | declined | withdrawn | lapsed | ended
    outcome: Mapped[str] = mapped_column(String(16))


class RateCounter(Base):
    """Writes counted for one limited key in one fixed window, by every process
    together (app/kernel/limits.py, SharedWindow)."""

    __tablename__ = "rate_counters"

    key: Mapped[str] = mapped_column(String(80), primary_key=True)  # "seat:<hash>" or "addr:<address>"
    window_start: Mapped[int] = mapped_column(BigInteger, primary_key=True)  # seconds since the epoch
    hits: Mapped[int] = mapped_column(Integer)


class SiteSecret(Base):
    """Keys this database keeps for the site, made at random on first use
    (app/kernel/origins.py: the key addresses are folded under)."""

    __tablename__ = "site_secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


class BotMatch(Base):
    """A match with a bot seat: who made it, counted against a cap per owner by
    every process alike, and the claim on the bot's current turn, taken by one
    process before it searches (app/matches/bot_store.py, migration 0006)."""

    __tablename__ = "bot_matches"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    owner: Mapped[str | None] = mapped_column(String(80), nullable=True, index=True)  # "addr:<address>"
    turn_version: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the version claimed
    claimed_by: Mapped[str | None] = mapped_column(String(64), nullable=True)  # a runner's id
    lease_until_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)  # the claim's end


# The Core tables, for statements that want no ORM objects (the hot path).
matches = cast(Table, Match.__table__)
seats = cast(Table, Seat.__table__)
actions = cast(Table, ActionEntry.__table__)
draw_offers = cast(Table, DrawOffer.__table__)
bot_matches = cast(Table, BotMatch.__table__)
site_secrets = cast(Table, SiteSecret.__table__)
