"""A Swiss event's tables (migration 0026), beside the tournament's own row
(tournaments, kind "swiss"): its settings and progress, its players, each
round paired, and each round's games.

`swiss_rounds` has one row per round paired: its primary key is what lets a
round be paired once however many processes try (app/tournaments/swiss/store.py).
A game is written with the round, before its match exists ("pending"); the
match is made after and fills `match_id`, which any process may do, once.
"""

from __future__ import annotations

from typing import cast

from sqlalchemy import (
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base


class SwissEvent(Base):
    __tablename__ = "swiss_events"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    rounds: Mapped[int] = mapped_column(Integer)
    round_interval_seconds: Mapped[int] = mapped_column(Integer)
    round: Mapped[int] = mapped_column(Integer, default=0)  # the last round paired (0: none yet)
    next_round_ms: Mapped[int] = mapped_column(BigInteger, index=True)  # the next round is paired from then on
    finished_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class SwissPlayer(Base):
    __tablename__ = "swiss_players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(64))
    rating: Mapped[float] = mapped_column(Float)  # when they joined: their place in the starting order
    active: Mapped[bool] = mapped_column(Boolean)  # joined and not withdrawn: paired in the next round
    joined_ms: Mapped[int] = mapped_column(BigInteger)

    __table_args__ = (UniqueConstraint("tournament_id", "account_id", name="uq_swiss_players_account"),)


class SwissRound(Base):
    __tablename__ = "swiss_rounds"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    paired_ms: Mapped[int] = mapped_column(BigInteger)


class SwissGame(Base):
    __tablename__ = "swiss_games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    round: Mapped[int] = mapped_column(Integer)
    board: Mapped[int] = mapped_column(Integer)  # 1: the top board
    match_id: Mapped[str | None] = mapped_column(ForeignKey("matches.id", ondelete="SET NULL"), nullable=True,
                                                 unique=True)
    white: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    black: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True)
    status: Mapped[str] = mapped_column(String(8))  # "pending" | "playing" | "finished"
    result: Mapped[str | None] = mapped_column(String(8), nullable=True)  # white|black|draw|aborted|bye
    made_ms: Mapped[int] = mapped_column(BigInteger)
    ended_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)

    __table_args__ = (
        UniqueConstraint("tournament_id", "round", "board", name="uq_swiss_games_board"),
        Index("ix_swiss_games_status", "status"),
    )


swiss_events = cast(Table, SwissEvent.__table__)
swiss_players = cast(Table, SwissPlayer.__table__)
swiss_rounds = cast(Table, SwissRound.__table__)
swiss_games = cast(Table, SwissGame.__table__)
