"""Tournaments' tables (migrations 0023, 0024, 0025): an arena, its players, its games, its podium.

The database is the truth of an arena, so every process pairs from the same
rows. A player waits when `active` (joined, not withdrawn) and `match_id` is
empty; pairing fills `match_id` for both players in the transaction that makes
the match (app/tournaments/store.py), and a game's end empties it again, adds
the game's points to the player's kept score and streak, and writes the
result on the game's row, from which the standings can always be made again.
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
    false,
    true,
)
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base


class Tournament(Base):
    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # "arena"
    name: Mapped[str] = mapped_column(String(64))
    variant: Mapped[str] = mapped_column(String(32))
    time_control: Mapped[str] = mapped_column(String(16))  # "5+3": minutes and increment
    rated: Mapped[bool] = mapped_column(Boolean)
    starts_ms: Mapped[int] = mapped_column(BigInteger, index=True)
    ends_ms: Mapped[int] = mapped_column(BigInteger, index=True)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    # Rules of entry (migration 0024): a password's salted hash, never the password
    # (app/tournaments/entry.py); a rating floor and ceiling; bot accounts let in.
    password_hash: Mapped[str | None] = mapped_column(String(128), nullable=True)
    min_rating: Mapped[int | None] = mapped_column(Integer, nullable=True)
    max_rating: Mapped[int | None] = mapped_column(Integer, nullable=True)
    bots: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # Migration 0025: a scheduled arena's slot (unique: one arena per slot, whichever
    # process makes it), an admin's cancel, and when its result was kept.
    schedule_key: Mapped[str | None] = mapped_column(String(64), nullable=True)
    cancelled_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    closed_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)

    __table_args__ = (Index("uq_tournaments_schedule_key", "schedule_key", unique=True),)


class TournamentPlayer(Base):
    __tablename__ = "tournament_players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(64))
    active: Mapped[bool] = mapped_column(Boolean)  # joined and not withdrawn: paired when free
    match_id: Mapped[str | None] = mapped_column(ForeignKey("matches.id", ondelete="SET NULL"), nullable=True)
    last_opponent: Mapped[int | None] = mapped_column(Integer, nullable=True)  # an account id
    score: Mapped[int] = mapped_column(Integer, default=0)
    games: Mapped[int] = mapped_column(Integer, default=0)
    streak: Mapped[int] = mapped_column(Integer, default=0)
    joined_ms: Mapped[int] = mapped_column(BigInteger)
    free_ms: Mapped[int] = mapped_column(BigInteger)  # since when it waits (joined, or its last game ended)
    removed_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)  # by an admin: out, never back

    __table_args__ = (
        UniqueConstraint("tournament_id", "account_id", name="uq_tournament_players_account"),
        Index("ix_tournament_players_account_match", "account_id", "match_id"),
    )


class TournamentGame(Base):
    __tablename__ = "tournament_games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), unique=True)
    white: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    black: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    white_rating: Mapped[float] = mapped_column(Float)  # each player's when paired: their performance's opponent
    black_rating: Mapped[float] = mapped_column(Float)
    white_berserk: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    black_berserk: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    status: Mapped[str] = mapped_column(String(8))  # "playing" | "finished"
    result: Mapped[str | None] = mapped_column(String(8), nullable=True)  # "white" | "black" | "draw" | "aborted"
    actions: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the fewer of the two players' own
    white_points: Mapped[int | None] = mapped_column(Integer, nullable=True)
    black_points: Mapped[int | None] = mapped_column(Integer, nullable=True)
    made_ms: Mapped[int] = mapped_column(BigInteger)
    ended_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    # False: the match ended after its arena did (or was cancelled): it scores nothing.
    counted: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())

    __table_args__ = (Index("ix_tournament_games_status", "status"),)


class TournamentPodium(Base):
    """One of the first three of a finished arena: the trophy on the player's profile."""

    __tablename__ = "tournament_podiums"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    place: Mapped[int] = mapped_column(Integer)  # 1, 2, 3
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(64))
    score: Mapped[int] = mapped_column(Integer)
    games: Mapped[int] = mapped_column(Integer)
    performance: Mapped[int | None] = mapped_column(Integer, nullable=True)
    at_ms: Mapped[int] = mapped_column(BigInteger)  # when the arena's result was kept

    __table_args__ = (UniqueConstraint("tournament_id", "place", name="uq_tournament_podiums_place"),)


tournaments = cast(Table, Tournament.__table__)
tournament_players = cast(Table, TournamentPlayer.__table__)
tournament_games = cast(Table, TournamentGame.__table__)
tournament_podiums = cast(Table, TournamentPodium.__table__)
