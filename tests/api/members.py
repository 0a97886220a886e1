"""Accounts for the API's tests (issue 19): a `Member` holds an account and each
credential it may call with: account tokens of either scope, and a signed-in
session (its cookie and CSRF token). Made through the app's own Accounts, with
argon2 at the tests' low costs (tests/conftest.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.accounts import Account, Accounts
from app.accounts.sessions import COOKIE

PASSWORD = "correct horse battery"


@dataclass
class Member:
    account: Account
    play: str  # an account token with both scopes
    read: str  # an account token with `read` only
    cookie: str  # the session's cookie
    csrf: str  # the session's CSRF token

    @property
    def name(self) -> str:
        return self.account.name

    def token(self, which: str | None = None) -> dict[str, str]:
        return {"Authorization": f"Bearer {which or self.play}"}

    def session(self, csrf: bool = True) -> dict[str, str]:
        """The headers a page's call sends: the cookie, and the CSRF token unless told."""
        headers = {"Cookie": f"{COOKIE}={self.cookie}"}
        if csrf:
            headers["X-CSRF-Token"] = self.csrf
        return headers


async def member(app: Any, name: str) -> Member:
    accounts: Accounts = app.state.parts.accounts
    account = await accounts.sign_up(name, PASSWORD, f"10.9.0.{len(name)}-{name}")
    play, _ = await accounts.create_token(account, "client", ["play", "read"])
    read, _ = await accounts.create_token(account, "reader", ["read"])
    cookie, session = await accounts.open_session(account, "10.9.0.1")
    return Member(account, play, read, cookie, session.csrf_token)
