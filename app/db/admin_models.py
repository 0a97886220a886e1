"""The admin dashboard's tables (migration 0003): the audit log, and the
figures' per-match summaries and their sums per day and month. Admins are
accounts with the admin role (app/db/account_models.py, since migration 0015):
their sessions and failed sign-ins are kept with every account's.

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
)
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base, UTCDateTime


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


admin_audit = cast(Table, AdminAudit.__table__)
match_summaries = cast(Table, MatchSummary.__table__)
figure_sums = cast(Table, FigureSum.__table__)
figure_marks = cast(Table, FigureMark.__table__)
