"""Sessions and API tokens, and what closing an account does to them: they
stop at once. An admin's closing and reopening is in the audit log; the
operator's password reset signs every browser out."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from app.accounts import AccountClosed, AccountError, Accounts, SignInFailed
from app.auth import digest
from app.db.account_models import account_sessions, account_tokens
from app.db.admin_models import admin_audit

from .conftest import PASSWORD, player


async def test_a_session_is_found_by_its_token_until_it_ends_or_expires(accounts: Accounts, engine: Any,
                                                                       settings: Any) -> None:
    ada = await player(accounts, "Ada")
    token, opened = await accounts.open_session(ada, "10.0.0.1")
    found = await accounts.session(token)
    assert found is not None and (found.account_id, found.name) == (ada.id, "Ada") and found.csrf_token
    async with engine.connect() as conn:
        ids = (await conn.execute(select(account_sessions.c.id))).scalars().all()
    assert ids == [digest(token)]  # only the digest is kept
    assert await accounts.session(token + "x") is None and await accounts.session(None) is None
    start = accounts.clock()
    accounts.clock = lambda: start + settings.account_session_days * 86_400
    assert await accounts.session(token) is None  # expired
    accounts.clock = lambda: start
    await accounts.sign_out(opened.id)
    assert await accounts.session(token) is None


async def test_a_token_is_shown_once_kept_as_a_hash_and_knows_its_scopes(accounts: Accounts,
                                                                        engine: Any) -> None:
    ada = await player(accounts, "Ada")
    plain, made = await accounts.create_token(ada, "my client", ["read", "play"])
    assert plain.startswith("mgo_") and made.scopes == ("play", "read") and made.last_used_at is None
    async with engine.connect() as conn:
        row = (await conn.execute(select(account_tokens))).one()
    assert row.token_hash == digest(plain) and plain not in str(tuple(row))
    holder = await accounts.verify_token(plain)
    assert holder is not None and (holder.account_id, holder.account, holder.scopes) == (ada.id, "Ada",
                                                                                         ("play", "read"))
    listed = await accounts.tokens(ada)
    assert [t.name for t in listed] == ["my client"] and listed[0].last_used_at is not None  # its use recorded
    _, reader = await accounts.create_token(ada, "reader", ["read"])
    assert reader.scopes == ("read",)
    assert await accounts.verify_token("mgo_" + "x" * 43) is None and await accounts.verify_token(plain[4:]) is None


@pytest.mark.parametrize(("name", "scopes", "rule"), [
    ("", ["read"], "1 to 40"), ("x" * 41, ["read"], "1 to 40"), ("a\nb", ["read"], "1 to 40"),
    ("ok", [], "scopes"), ("ok", ["admin"], "scopes"), ("ok", ["read", "read"], "scopes"), ("ok", "read", "scopes"),
])
async def test_a_token_needs_a_name_and_known_scopes(accounts: Accounts, name: str, scopes: Any, rule: str) -> None:
    ada = await player(accounts, "Ada")
    with pytest.raises(AccountError, match=rule):
        await accounts.create_token(ada, name, scopes)


async def test_a_revoked_token_stops(accounts: Accounts) -> None:
    ada, bea = await player(accounts, "Ada"), await player(accounts, "Bea")
    plain, made = await accounts.create_token(ada, "client", ["play"])
    assert not await accounts.revoke_token(bea, made.id)  # not hers to revoke
    assert await accounts.revoke_token(ada, made.id)
    assert await accounts.verify_token(plain) is None
    assert not await accounts.revoke_token(ada, made.id)


async def test_closing_an_account_stops_its_sessions_and_tokens_at_once(accounts: Accounts) -> None:
    ada = await player(accounts, "Ada")
    cookie, _ = await accounts.open_session(ada, "10.0.0.1")
    plain, _ = await accounts.create_token(ada, "client", ["play", "read"])
    closed = await accounts.close("Ada")
    assert closed.closed and closed.closed_reason == "closed by its player"
    assert await accounts.session(cookie) is None and await accounts.verify_token(plain) is None
    with pytest.raises(AccountClosed):  # told only to the one who knows the password
        await accounts.sign_in("Ada", PASSWORD, "10.0.0.1")
    with pytest.raises(SignInFailed):
        await accounts.sign_in("Ada", "wrong password", "10.0.0.1")
    with pytest.raises(AccountError):
        await accounts.sign_up("ADA", PASSWORD, "10.0.0.2")  # the name stays taken


async def test_an_admin_closes_and_reopens_with_a_reason_in_the_audit_log(accounts: Accounts, engine: Any) -> None:
    ada = await player(accounts, "Ada")
    plain, _ = await accounts.create_token(ada, "client", ["read"])
    with pytest.raises(AccountError, match="needs a reason"):
        await accounts.close("Ada", "  ", admin="root")
    closed = await accounts.close("ada", "abusive names in matches", admin="root", address="10.9.9.9")
    assert closed.closed_reason == "abusive names in matches"
    with pytest.raises(AccountError, match="never closed"):
        await accounts.close("Strong", "no", admin="root")
    await accounts.reopen("Ada", "appeal heard", admin="root")
    assert (await accounts.sign_in("Ada", PASSWORD, "10.0.0.1")).id == ada.id
    assert await accounts.verify_token(plain) is None  # revoked by the closing, for good
    async with engine.connect() as conn:
        audit = (await conn.execute(select(admin_audit).where(  # other tests' entries may share the table
            admin_audit.c.kind.in_(("account_closed", "account_reopened")), admin_audit.c.admin == "root")
            .order_by(admin_audit.c.id))).all()
    assert [(a.kind, a.admin, a.detail) for a in audit] == [
        ("account_closed", "root", {"account": "Ada", "reason": "abusive names in matches"}),
        ("account_reopened", "root", {"account": "Ada", "reason": "appeal heard"})]


async def test_the_operators_reset_changes_the_password_and_signs_every_browser_out(accounts: Accounts) -> None:
    ada = await player(accounts, "Ada")
    cookie, _ = await accounts.open_session(ada, "10.0.0.1")
    with pytest.raises(AccountError, match="most common"):
        await accounts.reset_password("Ada", "password")
    await accounts.reset_password("ada", "a brand new secret")
    assert await accounts.session(cookie) is None
    with pytest.raises(SignInFailed):
        await accounts.sign_in("Ada", PASSWORD, "10.0.0.1")
    assert (await accounts.sign_in("Ada", "a brand new secret", "10.0.0.1")).id == ada.id
