"""Notifications (migration 0027): a player's inbox, the outbox of what is to be
delivered by a channel (push, email), and each player's choices.

`notifications` is the inbox: one row per thing that happened to the player,
unread until `read_ms`. `once_key` makes a notice that several processes may
find due (a tournament's start, found by every process's tick) land once per
account: unique with the account, empty for everything else.

`notify_outbox` holds one row per notice and channel still to deliver, written
in the transaction of what caused it. A sender takes a due row (`due_ms`) by
setting its lease (`lease_until_ms`, `claimed_by`); a delivered or dropped row
is deleted, a failed one is put off (`tries`, `due_ms`). It carries its own
copy of the notice: a player may keep a kind out of the inbox and still want it
pushed.

`notification_preferences` stores only what a player changed from the
defaults (app/notify/kinds.py).
"""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import JSON, BigInteger, Boolean, ForeignKey, Index, Integer, String, Table
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base


class Notification(Base):
    __tablename__ = "notifications"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(24))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)  # what the page links to: a match, a challenge, an arena
    created_ms: Mapped[int] = mapped_column(BigInteger)
    read_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    once_key: Mapped[str | None] = mapped_column(String(64), nullable=True)

    __table_args__ = (
        Index("ix_notifications_account_id", "account_id", "id"),
        Index("uq_notifications_once", "account_id", "once_key", unique=True),
    )


class NotifyOutbox(Base):
    __tablename__ = "notify_outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    notification_id: Mapped[int | None] = mapped_column(Integer, nullable=True)  # its inbox row, if kept there
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    channel: Mapped[str] = mapped_column(String(16))
    kind: Mapped[str] = mapped_column(String(24))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    due_ms: Mapped[int] = mapped_column(BigInteger)
    tries: Mapped[int] = mapped_column(Integer, default=0)
    lease_until_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    claimed_by: Mapped[str | None] = mapped_column(String(32), nullable=True)

    __table_args__ = (Index("ix_notify_outbox_due", "channel", "due_ms"),)


class NotificationPreference(Base):
    __tablename__ = "notification_preferences"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(24), primary_key=True)
    channel: Mapped[str] = mapped_column(String(16), primary_key=True)  # "inbox", "push", "email"
    enabled: Mapped[bool] = mapped_column(Boolean)


notifications = cast(Table, Notification.__table__)
notify_outbox = cast(Table, NotifyOutbox.__table__)
notification_preferences = cast(Table, NotificationPreference.__table__)
