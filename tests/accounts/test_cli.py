"""`python -m app.accounts`: the operator's password reset (there is no
e-mail), closing and reopening with a reason, unlocking. `main()` runs in this
process, as tests/admin/test_cli.py does (a new interpreter costs seconds)."""

from __future__ import annotations

import asyncio
import contextlib
import io
import sys
from typing import Any

import pytest

from app.accounts import AccountClosed, Accounts, SignInFailed
from app.accounts.__main__ import ENV_PASSWORD, main
from app.config import get_settings

from .conftest import PASSWORD, player


async def _cli(database_url: str, monkeypatch: pytest.MonkeyPatch, *args: str, stdin: str = "") -> tuple[int, str]:
    with monkeypatch.context() as patch:
        patch.setenv("DATABASE_URL", database_url)
        patch.delenv(ENV_PASSWORD, raising=False)
        patch.setattr(sys, "stdin", io.StringIO(stdin))
        out, err = io.StringIO(), io.StringIO()
        get_settings.cache_clear()
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = await asyncio.to_thread(main, list(args))
        finally:
            get_settings.cache_clear()
    # What it printed, its errors last (another test's logging may have written to stderr first).
    return code, out.getvalue() + err.getvalue()


async def test_reset_close_reopen_from_the_command_line(database_url: str, accounts: Accounts,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    ada = await player(accounts, "Ada")
    cookie, _ = await accounts.open_session(ada, "10.0.0.1")
    code, said = await _cli(database_url, monkeypatch, "reset-password", "ada", stdin="the new one, long\n")
    assert code == 0 and "Ada" in said, said
    assert await accounts.session(cookie) is None
    with pytest.raises(SignInFailed):
        await accounts.sign_in("Ada", PASSWORD, "10.0.0.1")
    code, said = await _cli(database_url, monkeypatch, "reset-password", "Ada", stdin="password\n")
    assert code == 2 and "most common" in said
    code, said = await _cli(database_url, monkeypatch, "close", "Ada", "")
    assert code == 2 and "reason" in said
    assert (await _cli(database_url, monkeypatch, "close", "Ada", "asked by mail"))[0] == 0
    with pytest.raises(AccountClosed):
        await accounts.sign_in("Ada", "the new one, long", "10.0.0.1")
    assert (await _cli(database_url, monkeypatch, "reopen", "Ada", "asked again"))[0] == 0
    assert (await accounts.sign_in("Ada", "the new one, long", "10.0.0.1")).id == ada.id
    code, said = await _cli(database_url, monkeypatch, "close", "Nobody", "why not")
    assert code == 2 and "no account" in said


async def test_unlock_forgets_a_names_failures(database_url: str, accounts: Accounts, settings: Any,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    await player(accounts, "Ada")
    code, said = await _cli(database_url, monkeypatch, "unlock", "Ada")
    assert code == 0 and "no failed sign-ins" in said, said
    with pytest.raises(SignInFailed):
        await accounts.sign_in("Ada", "wrong password", "10.0.0.1")
    code, said = await _cli(database_url, monkeypatch, "unlock", "ada")
    assert code == 0 and "unlocked ada" in said, said
