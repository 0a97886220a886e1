"""Signing up and in: names unique without regard to case and shown as typed,
the same answer for an unknown name and a wrong password (each after one
password check), failed sign-ins locked out, sign-ups limited per address."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from app.accounts import AccountError, Accounts, NameTaken, SignInFailed, TooMany
from app.accounts import service as account_service
from app.db.account_models import accounts as accounts_table

from .conftest import PASSWORD, player


class Counted:
    """app.auth.matches, counting the password checks."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.real = account_service.matches
        self.digests: list[str] = []
        monkeypatch.setattr(account_service, "matches", self)

    def __call__(self, digest: str, password: str) -> bool:
        self.digests.append(digest)
        return self.real(digest, password)


async def test_a_player_signs_up_and_in_by_any_case_of_the_name(accounts: Accounts, engine: Any) -> None:
    made = await accounts.sign_up("Ada_L", PASSWORD, "10.0.0.1")
    assert made.name == "Ada_L" and not made.closed
    signed = await accounts.sign_in("ada_l", PASSWORD, "10.0.0.2")
    assert (signed.id, signed.name) == (made.id, "Ada_L")  # shown as typed
    async with engine.connect() as conn:
        row = (await conn.execute(select(accounts_table).where(accounts_table.c.id == made.id))).one()
    assert row.password_hash.startswith("$argon2id$") and PASSWORD not in row.password_hash


async def test_a_name_is_taken_whatever_its_case(accounts: Accounts) -> None:
    await accounts.sign_up("Ada_L", PASSWORD, "10.0.0.1")
    with pytest.raises(NameTaken, match="taken"):
        await accounts.sign_up("ADA_l", PASSWORD, "10.0.0.2")


async def test_sign_up_refuses_by_the_rule(accounts: Accounts) -> None:
    with pytest.raises(AccountError, match="2 to 20"):
        await accounts.sign_up("A", PASSWORD, None)
    with pytest.raises(AccountError, match="kept for the site"):
        await accounts.sign_up("Strong", PASSWORD, None)
    with pytest.raises(AccountError, match="most common"):
        await accounts.sign_up("Bea", "password1", None)


async def test_an_unknown_name_and_a_wrong_password_answer_the_same_after_one_check(
        accounts: Accounts, monkeypatch: pytest.MonkeyPatch) -> None:
    await player(accounts, "Ada")
    checks = Counted(monkeypatch)
    answers = []
    for name, password in (("Nobody", PASSWORD), ("Ada", "not the password"), ("Random", PASSWORD),
                           ("bad name!", PASSWORD)):
        with pytest.raises(SignInFailed) as failed:
            await accounts.sign_in(name, password, "10.0.0.9")
        answers.append((type(failed.value), str(failed.value), failed.value.status))
    assert len(set(answers)) == 1 and answers[0][1] == "wrong name or password"
    assert len(checks.digests) == 4  # a check each: the same time for every kind of wrong
    assert checks.digests[0] == checks.digests[2] == checks.digests[3] != checks.digests[1]


async def test_failed_sign_ins_lock_the_address_out_even_with_the_right_password(
        accounts: Accounts, settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    await player(accounts, "Ada")
    checks = Counted(monkeypatch)
    for _ in range(settings.account_lock_after):
        with pytest.raises(SignInFailed):
            await accounts.sign_in("Ada", "wrong password", "10.6.6.6")
    with pytest.raises(TooMany) as locked:
        await accounts.sign_in("Ada", PASSWORD, "10.6.6.6")
    assert locked.value.retry_after >= settings.account_lock_seconds and locked.value.status == 429
    assert len(checks.digests) == settings.account_lock_after  # the locked try checked nothing
    assert (await accounts.sign_in("Ada", PASSWORD, "10.0.0.7")).name == "Ada"  # another address


async def test_the_names_lock_spares_an_address_the_player_is_signed_in_from(
        accounts: Accounts, settings: Any) -> None:
    ada = await player(accounts, "Ada")
    await accounts.open_session(ada, "10.1.1.1")
    for i in range(settings.account_name_lock_after):
        with pytest.raises((SignInFailed, TooMany)):
            await accounts.sign_in("Ada", "wrong password", f"10.9.{i // 250}.{i % 250}")
    with pytest.raises(TooMany):  # the name is locked for any address the player never used
        await accounts.sign_in("Ada", PASSWORD, "10.2.2.2")
    assert (await accounts.sign_in("Ada", PASSWORD, "10.1.1.1")).id == ada.id


async def test_sign_ups_are_limited_per_address(accounts: Accounts, settings: Any) -> None:
    limit = settings.account_signups_per_address
    for i in range(limit):
        await accounts.sign_up(f"Player{i}", PASSWORD, "10.3.3.3")
    with pytest.raises(TooMany) as refused:
        await accounts.sign_up("OneMore", PASSWORD, "10.3.3.3")
    assert 0 < refused.value.retry_after <= settings.account_signup_window_seconds + 1
    await accounts.sign_up("OneMore", PASSWORD, "10.4.4.4")  # another address
    start = accounts.clock()
    accounts.clock = lambda: start + settings.account_signup_window_seconds
    await accounts.sign_up("NextHour", PASSWORD, "10.3.3.3")  # a new window


async def test_an_ipv6_host_counts_as_its_64_for_sign_ups(accounts: Accounts, settings: Any) -> None:
    """A provider hands an IPv6 host a whole /64, and the host picks any address
    in it at will: a fresh address of that /64 is no fresh budget."""
    for i in range(settings.account_signups_per_address):
        await accounts.sign_up(f"Six{i}", PASSWORD, f"2001:db8:7:7::{i + 1:x}")
    with pytest.raises(TooMany):
        await accounts.sign_up("SixMore", PASSWORD, "2001:db8:7:7:abcd:ef01:2345:6789")
    await accounts.sign_up("SixNext", PASSWORD, "2001:db8:7:8::1")  # the next /64 is another household


async def test_racing_sign_ups_of_one_name_make_one_account(accounts: Accounts) -> None:
    import asyncio

    tries = await asyncio.gather(*(accounts.sign_up(name, PASSWORD, f"10.5.5.{i}")
                                   for i, name in enumerate(["Twin", "twin", "TWIN", "tWin"])),
                                 return_exceptions=True)
    made = [t for t in tries if not isinstance(t, BaseException)]
    assert len(made) == 1 and all(isinstance(t, NameTaken) for t in tries if t not in made), tries
