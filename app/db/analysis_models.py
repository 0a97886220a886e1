"""Computer analyses of finished matches (migration 0030): one per match, the
queue they wait in, the lease of the process searching one, and its plies.

An analysis row is the queue's entry too: `queued` until a process claims it
(`running`, with `claimed_by` and `lease_until_ms`), `done` once every ply is
written, or `failed` once ANALYSIS_TRIES processes took it up and none
finished it (`tries` counts them; `failure` says why, in a few words).
`requester` is whom the fair share counts it against ("account:42",
or "addr:<address>" for a seat token's holder without an account); `address`
the client's address, which the per-address bound counts. A ply is written as
soon as it is searched, so a process taking over a dead one's lease starts
where it stopped.
"""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import JSON, BigInteger, Boolean, Float, ForeignKey, Index, Integer, String, Table
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base


class Analysis(Base):
    __tablename__ = "analyses"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), unique=True)
    status: Mapped[str] = mapped_column(String(8))  # queued | running | done | failed
    engine: Mapped[str] = mapped_column(String(40))  # e.g. "strong depth 3"
    depth: Mapped[int] = mapped_column(Integer)
    total: Mapped[int] = mapped_column(Integer)  # the plies it will hold (the match's versions + 1)
    done: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # plies written
    requester: Mapped[str] = mapped_column(String(80))
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True)
    address: Mapped[str | None] = mapped_column(String(64), nullable=True)
    requested_ms: Mapped[int] = mapped_column(BigInteger)
    started_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    finished_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    claimed_by: Mapped[str | None] = mapped_column(String(80), nullable=True)
    lease_until_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    accuracy_white: Mapped[float | None] = mapped_column(Float, nullable=True)
    accuracy_black: Mapped[float | None] = mapped_column(Float, nullable=True)
    # Times a process took it up since it was last requested (migration 0034);
    # a try cut short by a stop of the server or of the database is given back.
    tries: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    failure: Mapped[str | None] = mapped_column(String(120), nullable=True)  # why it is `failed`

    __table_args__ = (
        Index("ix_analyses_status_requested", "status", "requested_ms"),
        Index("ix_analyses_requester_requested", "requester", "requested_ms"),
        Index("ix_analyses_address_requested", "address", "requested_ms"),
    )


class AnalysisPly(Base):
    """One version of the match judged: the eval after it, the engine's best
    action there, and what the action that made it cost its mover."""

    __tablename__ = "analysis_plies"

    analysis_id: Mapped[int] = mapped_column(ForeignKey("analyses.id", ondelete="CASCADE"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    eval: Mapped[float] = mapped_column(Float)
    best: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    choices: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # the mover's choices here
    # Who played the action that made this version (a player's own engine
    # action; None for the rest), and whether it was the engine's best there.
    mover: Mapped[str | None] = mapped_column(String(5), nullable=True)
    as_best: Mapped[bool | None] = mapped_column(Boolean, nullable=True)


analyses = cast(Table, Analysis.__table__)
analysis_plies = cast(Table, AnalysisPly.__table__)
