"""The chat's tables (migration 0010): each match's lines, and the
accounts an admin muted for a while.

A line belongs to its match (deleted with it) and to one room: the players'
or the spectators'. It keeps who wrote it as shown (`author`), the key its
flood limits count (`author_key`: an account, a guest's seat or a spectator's
address), and the account when there is one, so that a mute holds. A hidden
line stays (the audit log names it) but is sent to nobody.
"""

from __future__ import annotations

from datetime import datetime
from typing import cast

from sqlalchemy import ForeignKey, Index, Integer, String, Table
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base, UTCDateTime


class ChatLine(Base):
    __tablename__ = "chat_lines"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    room: Mapped[str] = mapped_column(String(12))  # "players" or "spectators"
    author: Mapped[str] = mapped_column(String(64))  # the name shown
    author_key: Mapped[str] = mapped_column(String(120))  # "account:7", "seat:<match>:white", "address:1.2.3.4"
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)
    seat: Mapped[str | None] = mapped_column(String(8), nullable=True)  # the writer's colour, a player's line
    text: Mapped[str] = mapped_column(String(140))
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    reported_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)  # in the admins' queue
    reports: Mapped[int] = mapped_column(Integer, default=0)
    hidden_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    hidden_by: Mapped[str | None] = mapped_column(String(64), nullable=True)  # the admin

    __table_args__ = (
        Index("ix_chat_lines_match", "match_id", "id"),
        Index("ix_chat_lines_author", "author_key", "id"),
        Index("ix_chat_lines_reported", "reported_at"),
    )


class ChatMute(Base):
    """An account that may not write in any chat until `until`."""

    __tablename__ = "chat_mutes"

    # An account is closed, never deleted; should one go even so, its mute goes with it.
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    until: Mapped[datetime] = mapped_column(UTCDateTime)
    muted_by: Mapped[str] = mapped_column(String(64))
    reason: Mapped[str] = mapped_column(String(500))
    at: Mapped[datetime] = mapped_column(UTCDateTime)


class ChatReport(Base):
    """Who reported a line (migration 0011): one report per reporter and line, so
    that one person pressing Report twice is one report, not two."""

    __tablename__ = "chat_reports"

    line_id: Mapped[int] = mapped_column(ForeignKey("chat_lines.id", ondelete="CASCADE"), primary_key=True)
    reporter: Mapped[str] = mapped_column(String(120), primary_key=True)  # as chat_lines.author_key
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    # Why (app.chat.service.REPORT_REASONS); null for a report made before reasons were asked (migration 0021).
    reason: Mapped[str | None] = mapped_column(String(16), nullable=True)


chat_lines = cast(Table, ChatLine.__table__)
chat_mutes = cast(Table, ChatMute.__table__)
chat_reports = cast(Table, ChatReport.__table__)
