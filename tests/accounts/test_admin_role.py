"""The admin role: an admin is an account (made by `python -m app.accounts`),
signed in by the same service; only a session opened as an admin's opens the
dashboard, and only while its account holds the role and is open."""

from __future__ import annotations

import pytest

from app.accounts import Accounts, NameTaken, admins
from app.accounts import sessions as stored
from app.accounts.errors import AccountError

from .conftest import PASSWORD, player
from .test_cli import _cli


async def test_admins_are_made_listed_and_unmade(database_url: str, accounts: Accounts,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    code, said = await _cli(database_url, monkeypatch, "add-admin", "admin", stdin="the admin's long secret\n")
    assert code == 0 and "added admin admin" in said, said  # a word kept for the site may be an admin's
    code, said = await _cli(database_url, monkeypatch, "add-admin", "Random", stdin="the admin's long secret\n")
    assert code == 2 and "kept for the site" in said  # never a computer level's
    code, said = await _cli(database_url, monkeypatch, "add-admin", "Ops", stdin="short\n")
    assert code == 2 and "at least" in said  # the players' password rules are everyone's
    ada = await player(accounts, "Ada")
    with pytest.raises(NameTaken):
        await admins.add(accounts, "ada", "another long secret", "a test")
    code, said = await _cli(database_url, monkeypatch, "make-admin", "ada")
    assert code == 0 and "Ada is an admin" in said, said
    code, said = await _cli(database_url, monkeypatch, "list-admins")
    assert [line.split("\t")[0] for line in said.splitlines()] == ["Ada", "admin"]
    signed = await accounts.sign_in("Ada", PASSWORD, "10.0.0.1")  # her own password, as ever
    assert signed.admin and signed.id == ada.id
    code, said = await _cli(database_url, monkeypatch, "remove-admin", "Ada")
    assert code == 0 and "stays" in said
    assert not (await accounts.sign_in("Ada", PASSWORD, "10.0.0.1")).admin
    code, said = await _cli(database_url, monkeypatch, "remove-admin", "Ada")
    assert code == 1 and "no admin" in said
    with pytest.raises(AccountError):
        await admins.grant(accounts, "Greedy", "a test")  # a computer level is nobody's to be


async def test_only_an_admins_session_of_an_admin_opens_the_dashboard(accounts: Accounts) -> None:
    ada = await player(accounts, "Ada")
    await admins.grant(accounts, "Ada", "a test")
    now = accounts.now()
    as_player, _ = await accounts.open_session(ada, "10.0.0.1")
    as_admin, _ = await stored.open_admin_session(accounts.engine, ada.id, "10.0.0.1", now, 1)
    assert await stored.find_admin(accounts.engine, as_player, now) is None  # a player's session: never
    assert await accounts.session(as_admin) is None  # and the dashboard's is no player's
    assert (await stored.find_admin(accounts.engine, as_admin, now)) is not None
    await admins.revoke(accounts, "Ada", "a test")
    assert await stored.find_admin(accounts.engine, as_admin, now) is None  # the role's end ends it
    assert await accounts.session(as_player) is not None  # her own sign-in stays
    await admins.grant(accounts, "Ada", "a test")
    again, _ = await stored.open_admin_session(accounts.engine, ada.id, "10.0.0.1", now, 1)
    await accounts.reset_password("Ada", "a brand new password")  # every session ends, the dashboard's too
    assert await stored.find_admin(accounts.engine, again, now) is None
