"""The browsers that asked to be told by web push (migration 0028): one row per
push subscription, held by one account (app/push).

`endpoint` is the push service's address for that browser: one browser, one
subscription, so it is unique across accounts (posted again by another account
signed in on the same browser, the row moves to that account). `p256dh` and
`auth` are the browser's keys the payload is encrypted to (RFC 8291), as the
browser gave them (URL-safe base64). The VAPID key pair every process signs
with is kept beside the other site keys (`site_secrets`, name "vapid").
"""

from __future__ import annotations

from datetime import datetime
from typing import cast

from sqlalchemy import ForeignKey, Index, Integer, String, Table
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base, UTCDateTime


class PushSubscription(Base):
    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    endpoint: Mapped[str] = mapped_column(String(2048))
    p256dh: Mapped[str] = mapped_column(String(128))
    auth: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)  # when posted last (the oldest goes first)

    __table_args__ = (Index("uq_push_subscriptions_endpoint", "endpoint", unique=True),
                      Index("ix_push_subscriptions_account", "account_id", "created_at"))


push_subscriptions = cast(Table, PushSubscription.__table__)
