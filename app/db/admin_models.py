"""The admin dashboard's tables (migration 0003): accounts, sessions, sign-in
throttling, the audit log, and the figures' per-match summaries and their sums per day and month.

The summaries are derived from finished matches (app/admin/figures.py), never
written by the match service: a match's row and log stay the truth.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, cast

from sqlalchemy import (
    JSON,
    Boolean,
    Date,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base, UTCDateTime


class AdminUser(Base):
    __tablename__ = "admin_users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64))
    password_hash: Mapped[str] = mapped_column(String(255))  # argon2id, with its salt and costs
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)

    __table_args__ = (UniqueConstraint("name", name="uq_admin_users_name"),)


class AdminSession(Base):
    """A signed-in browser. Only the sha256 of the cookie's token is kept, so a
    copy of the database signs nobody in; deleting the row signs the browser out."""

    __tablename__ = "admin_sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)  # sha256 hex of the cookie token
    user_id: Mapped[int] = mapped_column(ForeignKey("admin_users.id", ondelete="CASCADE"), index=True)
    csrf_token: Mapped[str] = mapped_column(String(64))
    address: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)


class AdminThrottle(Base):
    """Failed sign-ins in a row, per "user:<name>" and per "addr:<address>"."""

    __tablename__ = "admin_throttle"

    key: Mapped[str] = mapped_column(String(160), primary_key=True)
    failures: Mapped[int] = mapped_column(Integer)
    last_failure_at: Mapped[datetime] = mapped_column(UTCDateTime)
    locked_until: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class AdminAudit(Base):
    """Every admin action: sign-in and its failures, sign-out, moderation, export."""

    __tablename__ = "admin_audit"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    admin: Mapped[str | None] = mapped_column(String(64), nullable=True)  # the name given, for a failure
    kind: Mapped[str] = mapped_column(String(32))
    match_id: Mapped[str | None] = mapped_column(String(24), nullable=True)
    address: Mapped[str | None] = mapped_column(String(64), nullable=True)
    detail: Mapped[dict[str, Any]] = mapped_column(JSON)

    __table_args__ = (Index("ix_admin_audit_kind_id", "kind", "id"),)


class MatchSummary(Base):
    """One finished match, as the figures count it."""

    __tablename__ = "match_summaries"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    finished_at: Mapped[datetime] = mapped_column(UTCDateTime)
    day: Mapped[date] = mapped_column(Date)
    variant: Mapped[str] = mapped_column(String(32))
    against_bot: Mapped[bool] = mapped_column(Boolean)
    winner: Mapped[str | None] = mapped_column(String(8), nullable=True)
    reason: Mapped[str] = mapped_column(String(32))
    rounds: Mapped[int] = mapped_column(Integer)
    actions: Mapped[int] = mapped_column(Integer)  # moves chosen by a player (not automatic ones)
    # Histogram of the times between a player's moves: {bucket: count} (figures.py's buckets).
    think: Mapped[dict[str, int]] = mapped_column(JSON)

    __table_args__ = (Index("ix_match_summaries_day", "day"),)


class FigureSum(Base):
    """The summaries of one day, or one month, variant and opponent kind, added up.

    Months spare a figure over years the reading of every day's row; `counts`
    holds the ending reasons and the histograms in one JSON object, keyed
    "reason:<reason>", "rounds:<bucket>", "moves:<bucket>", "think:<bucket>".
    """

    __tablename__ = "figure_sums"

    span: Mapped[str] = mapped_column(String(8), primary_key=True)  # day | month
    day: Mapped[date] = mapped_column(Date, primary_key=True)  # the day, or the month's first
    variant: Mapped[str] = mapped_column(String(32), primary_key=True)
    against_bot: Mapped[bool] = mapped_column(Boolean, primary_key=True)
    finished: Mapped[int] = mapped_column(Integer)
    white_wins: Mapped[int] = mapped_column(Integer)
    black_wins: Mapped[int] = mapped_column(Integer)
    counts: Mapped[dict[str, int]] = mapped_column(JSON)


class FigureMark(Base):
    """How far the summaries have read the finished matches (one row)."""

    __tablename__ = "figure_marks"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


admin_users = cast(Table, AdminUser.__table__)
admin_sessions = cast(Table, AdminSession.__table__)
admin_throttle = cast(Table, AdminThrottle.__table__)
admin_audit = cast(Table, AdminAudit.__table__)
match_summaries = cast(Table, MatchSummary.__table__)
figure_sums = cast(Table, FigureSum.__table__)
figure_marks = cast(Table, FigureMark.__table__)
