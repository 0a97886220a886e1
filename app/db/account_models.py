"""The accounts' tables (migration 0007; admins joined in 0016): accounts, their signed-in
browsers and API tokens, a rating per account and variant, and each rated
match's change of rating.

The computer levels are accounts too (`computer` names the level): their
ratings move like anyone's. An account is closed, never deleted, so the
matches that name it keep their seats.
"""

from __future__ import annotations

from datetime import datetime
from typing import cast

from sqlalchemy import (
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from .models import Base, UTCDateTime


class Account(Base):
    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(20))  # as typed
    name_lower: Mapped[str] = mapped_column(String(20))  # unique: no two names differ only in case
    # The name folded as names compare (migration 0020; app/kernel/folding.py):
    # a guest's name that folds to it is refused, it looks like this account's.
    name_fold: Mapped[str | None] = mapped_column(String(80), nullable=True, index=True)
    password_hash: Mapped[str | None] = mapped_column(String(255), nullable=True)  # argon2id; none: a computer
    computer: Mapped[str | None] = mapped_column(String(16), nullable=True)  # the bot level it plays as
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    last_seen: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    closed_reason: Mapped[str | None] = mapped_column(String(500), nullable=True)
    # Where the account was made from: a keyed hash of the address
    # (app/kernel/origins.py; migration 0018), for fair play; never shown.
    signup_origin: Mapped[str | None] = mapped_column(String(16), nullable=True)
    # A bot account (migration 0013): a program plays it; when it became one, for good.
    bot_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    # An admin (migration 0016): the dashboard's role, since when; null: none. An
    # admin is an account like any other, signed in by the same machinery.
    admin_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)

    __table_args__ = (
        UniqueConstraint("name_lower", name="uq_accounts_name_lower"),
        UniqueConstraint("computer", name="uq_accounts_computer"),
    )


class AccountSession(Base):
    """A signed-in browser: only the sha256 of its cookie's token is kept (a copy
    of the table signs nobody in); deleting the row signs the browser out."""

    __tablename__ = "account_sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)  # sha256 hex of the cookie token
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    csrf_token: Mapped[str] = mapped_column(String(64))
    address: Mapped[str | None] = mapped_column(String(64), nullable=True)  # where it signed in
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    # Opened at the admin dashboard's sign-in: only such a session opens the
    # dashboard (and only while its account is an admin); a player's session never does.
    admin: Mapped[bool] = mapped_column(Boolean, server_default=false())


class AccountToken(Base):
    """A client's API token: named by its owner, shown once, kept as its sha256."""

    __tablename__ = "account_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    scopes: Mapped[str] = mapped_column(String(32))  # space-separated: "play read"
    token_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    # The app an OAuth approval made it for (its client_id, migration 0032); None: made on /account.
    client_id: Mapped[str | None] = mapped_column(String(40), nullable=True)

    __table_args__ = (UniqueConstraint("token_hash", name="uq_account_tokens_token_hash"),)


class OAuthCode(Base):
    """An OAuth authorization code (app/accounts/oauth.py, migration 0032): kept
    only as its sha256, bound to the app, its redirect and its PKCE challenge,
    short-lived, and spent once (`used_at`); the token it made is remembered, so
    a second use of the code revokes that token too."""

    __tablename__ = "oauth_codes"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    client_id: Mapped[str] = mapped_column(String(40))
    redirect_uri: Mapped[str] = mapped_column(String(2000))
    challenge: Mapped[str] = mapped_column(String(64))
    scopes: Mapped[str] = mapped_column(String(32))
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    token_id: Mapped[int | None] = mapped_column(ForeignKey("account_tokens.id", ondelete="SET NULL"), nullable=True)


class AccountLimit(Base):
    """What the sign-in and sign-up limits count, by every process alike
    (app/accounts/limits.py): failed sign-ins in a row per "name:<name>" and
    "addr:<address>" (`since`: the last failure), players' and admins' alike;
    sign-ups per "signup:<address>" (`since`: the window's start)."""

    __tablename__ = "account_limits"

    key: Mapped[str] = mapped_column(String(80), primary_key=True)
    hits: Mapped[int] = mapped_column(Integer)
    since: Mapped[datetime] = mapped_column(UTCDateTime)
    locked_until: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class PlayerRating(Base):
    """An account's rating in one variant (app.ratings.Rating), as it stood after
    its last rated match; a variant never played has no row (NEW)."""

    __tablename__ = "ratings"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    variant: Mapped[str] = mapped_column(String(32), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    last_rated_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)

    # The leaderboard of a variant: the highest first.
    __table_args__ = (Index("ix_ratings_variant_rating", "variant", "rating"),)


class RatingChange(Base):
    """What one rated match did to one side's rating. The key (match, colour)
    is the database's word that a match's change is applied once."""

    __tablename__ = "rating_changes"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    colour: Mapped[str] = mapped_column(String(8), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    variant: Mapped[str] = mapped_column(String(32))
    score: Mapped[float] = mapped_column(Float)  # 1 won, 0.5 drawn, 0 lost
    rating_before: Mapped[float] = mapped_column(Float)
    rd_before: Mapped[float] = mapped_column(Float)
    rating_after: Mapped[float] = mapped_column(Float)
    rd_after: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(UTCDateTime)

    # A player's history in a variant, oldest first (the profile's chart).
    __table_args__ = (Index("ix_rating_changes_account_variant_at", "account_id", "variant", "at"),)


accounts = cast(Table, Account.__table__)
account_sessions = cast(Table, AccountSession.__table__)
account_tokens = cast(Table, AccountToken.__table__)
account_limits = cast(Table, AccountLimit.__table__)
oauth_codes = cast(Table, OAuthCode.__table__)
ratings = cast(Table, PlayerRating.__table__)
rating_changes = cast(Table, RatingChange.__table__)
