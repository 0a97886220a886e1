"""Fair play's tables (migration 0018): the quick decisive results rated
matches ended with, which the boosting and sandbagging rules count
(app/ratings/fairness.py), and the cases sent to the admins' queue.

A case names the accounts it concerns, the match that raised it and its
evidence (counts and timings; where both seats or both accounts came from one
address, only that they did, never the address). An admin clears a case or
closes the account for cheating (app/admin).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from sqlalchemy import JSON, ForeignKey, Index, Integer, String, Table
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base, UTCDateTime


class QuickResult(Base):
    __tablename__ = "quick_results"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    winner_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    loser_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    actions: Mapped[int] = mapped_column(Integer)  # the players' own actions after setup
    at: Mapped[datetime] = mapped_column(UTCDateTime)

    __table_args__ = (Index("ix_quick_results_pair", "winner_id", "loser_id", "at"),)


class FairPlayCase(Base):
    __tablename__ = "fair_play_cases"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    # boosting | sandbagging_warned | sandbagging | shared_address | accounts_from_one_address
    kind: Mapped[str] = mapped_column(String(32))
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    other_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True)
    match_id: Mapped[str | None] = mapped_column(ForeignKey("matches.id", ondelete="SET NULL"), nullable=True)
    evidence: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    cleared_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    cleared_by: Mapped[str | None] = mapped_column(String(20), nullable=True)  # the admin's name


quick_results = cast(Table, QuickResult.__table__)
fair_play_cases = cast(Table, FairPlayCase.__table__)
