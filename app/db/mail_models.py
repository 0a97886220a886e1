"""Email (migration 0029): an account's address, its verification and its
preferences per kind, and every mail sent, counted to bound them.

The address is private: only its owner reads it (app/mail). A mail goes to an
address only once it is verified; one the receiving server refused for good is
marked bounced and must be verified again before mail goes to it.
"""

from __future__ import annotations

from typing import cast

from sqlalchemy import BigInteger, Boolean, ForeignKey, Index, Integer, String, Table, false
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base


class MailAddress(Base):
    __tablename__ = "mail_addresses"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    address: Mapped[str] = mapped_column(String(254))  # as typed
    # A keyed hash of the address folded to lower case: what the sends to one
    # address are counted by, whichever accounts named it.
    address_key: Mapped[str] = mapped_column(String(64))
    added_ms: Mapped[int] = mapped_column(BigInteger)
    verified_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    bounced_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    turn: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    challenge: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    digest: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    digest_hour: Mapped[int] = mapped_column(Integer, default=8, server_default="8")  # UTC


class MailSend(Base):
    """One mail handed to the SMTP server (or, for a digest, claimed for its day)."""

    __tablename__ = "mail_sends"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    address_key: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(16))  # verify | turn | challenge | alarm | digest
    sent_ms: Mapped[int] = mapped_column(BigInteger)
    # "digest:<account>:<day>": two processes never both send one day's digest.
    once_key: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)

    __table_args__ = (
        Index("ix_mail_sends_account_sent", "account_id", "sent_ms"),
        Index("ix_mail_sends_address_sent", "address_key", "sent_ms"),
    )


mail_addresses = cast(Table, MailAddress.__table__)
mail_sends = cast(Table, MailSend.__table__)
