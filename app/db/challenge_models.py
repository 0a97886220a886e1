"""A challenge from one account to another (migration 0009): the match
options asked for, and where it stands. Only accounts challenge and are
challenged, so both ends are accounts; a challenge is never deleted, so the
challenger sees a decline (and its reason) after the fact.

`status`: pending → accepted (with `match_id`), declined (with `reason`),
canceled (by the challenger) or expired (its `expires_at` passed). A change of
status is one conditional UPDATE `WHERE status = 'pending'`: of two accepts at
once, one changes the row and makes the match, the other finds it taken.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from sqlalchemy import JSON, Boolean, ForeignKey, Index, String, Table, false
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base, UTCDateTime


class Challenge(Base):
    __tablename__ = "challenges"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    challenger_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    # Null for an open challenge (migration 0032) until someone accepts it: the accepter then.
    challenged_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)  # {"variant", "time_control", "no_progress_rounds"}
    colour: Mapped[str] = mapped_column(String(8))  # the challenger's: white | black | random
    rated: Mapped[bool] = mapped_column(Boolean)
    # An open challenge (migration 0032): made to nobody, taken by the first account
    # that accepts it by its link (who is `challenged_id` from then on).
    open: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    status: Mapped[str] = mapped_column(String(12))
    reason: Mapped[str | None] = mapped_column(String(16), nullable=True)  # a decline's, from a fixed list
    match_id: Mapped[str | None] = mapped_column(String(24), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    decided_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)

    __table_args__ = (
        Index("ix_challenges_challenged_status", "challenged_id", "status"),
        Index("ix_challenges_challenger_status", "challenger_id", "status"),
    )


challenges = cast(Table, Challenge.__table__)
