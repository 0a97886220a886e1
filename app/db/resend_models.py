"""The answers kept for `Idempotency-Key` (migration 0012).

Create and join hand out a seat's token once. A client that lost the answer
resends the request with the same `Idempotency-Key` and is answered as before
(app/api/resends.py). The row holds no usable secret: `id` is a hash of the key
(with the caller and the call it belongs to), and the answer, token included, is
sealed with a key derived from the Idempotency-Key itself, which only the client
has. Rows older than a day are deleted as new ones come (as sessions are).
"""

from __future__ import annotations

from datetime import datetime
from typing import cast

from sqlalchemy import Index, Integer, LargeBinary, String, Table
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base, UTCDateTime


class KeptAnswer(Base):
    __tablename__ = "kept_answers"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)  # sha256 of call, caller and key
    request_hash: Mapped[str] = mapped_column(String(64))  # sha256 of the call and its body
    status: Mapped[int | None] = mapped_column(Integer, nullable=True)  # None: the first is still at work
    sealed: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True)  # nonce + AES-GCM of the body
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)

    __table_args__ = (Index("ix_kept_answers_created_at", "created_at"),)


kept_answers = cast(Table, KeptAnswer.__table__)
