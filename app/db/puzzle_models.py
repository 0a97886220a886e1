"""Puzzles (migration 0031): the puzzles themselves, each rated like a
player, every account's puzzle rating, and each account's first try at each
puzzle (the one that moves both ratings).

A puzzle's `position` is the whole position text (docs/notation.md): the
server plays on from it, so it is never sent as it is; clients get its
public form. Its `solution` is the forced line, both sides' actions, as JSON.
"""

from __future__ import annotations

from typing import cast

from sqlalchemy import BigInteger, Boolean, Float, ForeignKey, Index, Integer, String, Table, Text
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base


class Puzzle(Base):
    __tablename__ = "puzzles"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # a digest of the position
    position: Mapped[str] = mapped_column(Text)
    solution: Mapped[str] = mapped_column(Text)  # JSON: [{"player", "action"}]
    themes: Mapped[str] = mapped_column(String(400))  # comma separated
    moves: Mapped[int] = mapped_column(Integer)  # the solver's actions in the solution
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    plays: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    source: Mapped[str] = mapped_column(String(32))  # "seed" (shipped), later "match"
    added_ms: Mapped[int] = mapped_column(BigInteger)

    __table_args__ = (Index("ix_puzzles_rating", "rating"),)


class PuzzleRating(Base):
    __tablename__ = "puzzle_ratings"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    last_ms: Mapped[int] = mapped_column(BigInteger)


class PuzzleAttempt(Base):
    """An account's first finished try at a puzzle: solved or not, and the
    player's puzzle rating before and after it."""

    __tablename__ = "puzzle_attempts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    puzzle_id: Mapped[str] = mapped_column(ForeignKey("puzzles.id", ondelete="CASCADE"))
    solved: Mapped[bool] = mapped_column(Boolean)
    rating_before: Mapped[float] = mapped_column(Float)
    rating_after: Mapped[float] = mapped_column(Float)
    at_ms: Mapped[int] = mapped_column(BigInteger)

    __table_args__ = (
        Index("uq_puzzle_attempts_account_puzzle", "account_id", "puzzle_id", unique=True),
        Index("ix_puzzle_attempts_account_at", "account_id", "at_ms"),
    )


puzzles = cast(Table, Puzzle.__table__)
puzzle_ratings = cast(Table, PuzzleRating.__table__)
puzzle_attempts = cast(Table, PuzzleAttempt.__table__)
