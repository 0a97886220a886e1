"""The waits before rated play (migration 0019): each account's standing
after leaving rated matches, and each offence (app/ratings/leaving.py).

`playbans` holds one row per account that has ever offended: how many
offences in a row (`level`), until when it waits, when it last offended and
how many rated matches it has finished clean since. `offences` keeps each one
with its match, for the player's page and the admins' evidence, and counts the
aborts of the last day.
"""

from __future__ import annotations

from datetime import datetime
from typing import cast

from sqlalchemy import ForeignKey, Index, Integer, String, Table
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base, UTCDateTime


class Playban(Base):
    __tablename__ = "playbans"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    level: Mapped[int] = mapped_column(Integer)
    until: Mapped[datetime] = mapped_column(UTCDateTime)
    last_offence_at: Mapped[datetime] = mapped_column(UTCDateTime)
    clean: Mapped[int] = mapped_column(Integer)  # rated matches finished without an offence since the last


class Offence(Base):
    __tablename__ = "offences"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    match_id: Mapped[str | None] = mapped_column(ForeignKey("matches.id", ondelete="SET NULL"), nullable=True)
    # left | no_move | late_setup | aborts (an abort; an offence only past the day's allowance)
    kind: Mapped[str] = mapped_column(String(16))
    counted: Mapped[int] = mapped_column(Integer)  # 1: it started a wait; 0: an abort within the allowance
    at: Mapped[datetime] = mapped_column(UTCDateTime)

    __table_args__ = (Index("ix_offences_account_at", "account_id", "at"),)


playbans = cast(Table, Playban.__table__)
offences = cast(Table, Offence.__table__)


class RatingRefund(Base):
    """Points given back to a player who lost them to an account closed for
    cheating (app/accounts/refunds.py), one row per player and variant."""

    __tablename__ = "rating_refunds"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    variant: Mapped[str] = mapped_column(String(32))
    points: Mapped[int] = mapped_column(Integer)
    cheater_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    at: Mapped[datetime] = mapped_column(UTCDateTime)


rating_refunds = cast(Table, RatingRefund.__table__)
