"""Changing the password on the account page: the old password asked again,
the new one twice and through the sign-up rules, the session's CSRF token;
every other browser of the account signed out, this one kept."""

from __future__ import annotations

from typing import Any

import httpx

from tests.web.accounts_helpers import PASSWORD, csrf_of, sign_in, sign_up

NEW = "a quieter horse"


def _browser(app: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver")


def _change(old: str, new: str, again: str | None = None, csrf: str = "") -> dict[str, str]:
    return {"old_password": old, "new_password": new, "new_password_again": new if again is None else again,
            "csrf_token": csrf}


async def test_the_page_offers_the_form(client: httpx.AsyncClient) -> None:
    await sign_up(client, "Ada")
    page = (await client.get("/account")).text
    for text in ('action="/account/password"', '<label for="old-password">Old password</label>',
                 'name="new_password" type="password" autocomplete="new-password"',
                 '<label for="new-password-again">New password again</label>', "Change password</button>"):
        assert text in page


async def test_a_change_signs_out_the_other_browsers_and_keeps_this_one(app: Any, client: httpx.AsyncClient) -> None:
    await sign_up(client, "Ada")
    async with _browser(app) as other:
        await sign_in(other, "Ada")
        assert "magery-account" in (await other.get("/")).text
        r = await client.post("/account/password", data=_change(PASSWORD, NEW, csrf=await csrf_of(client)))
        assert r.status_code == 303 and r.headers["location"] == "/account?password=1"
        shown = await client.get(r.headers["location"])
        assert shown.status_code == 200 and "Your password is changed." in shown.text
        assert "magery-account" not in (await other.get("/")).text  # the other browser is signed out
        assert (await sign_in(other, "Ada")).status_code == 401  # the old password no longer signs in
        assert (await sign_in(other, "Ada", NEW)).status_code == 303


async def test_a_wrong_old_password_is_refused_beside_the_form(app: Any, client: httpx.AsyncClient) -> None:
    await sign_up(client, "Ada")
    r = await client.post("/account/password", data=_change("not my password", NEW, csrf=await csrf_of(client)))
    assert r.status_code == 403
    assert '<p class="error" id="password-error" role="alert">Password not changed: The old password is not right.' \
        in r.text
    assert 'id="old-password" name="old_password" type="password" autocomplete="current-password" required ' \
        'aria-invalid="true"' in r.text
    async with _browser(app) as other:
        assert (await sign_in(other, "Ada", NEW)).status_code == 401
        assert (await sign_in(other, "Ada")).status_code == 303


async def test_the_new_password_keeps_the_sign_up_rules_and_is_typed_twice(app: Any,
                                                                         client: httpx.AsyncClient) -> None:
    await sign_up(client, "Ada")
    csrf = await csrf_of(client)
    for data, words in [(_change(PASSWORD, "short"), "A password has at least 8 characters."),
                        (_change(PASSWORD, "password123"), "one of the most common"),
                        (_change(PASSWORD, "aaaaaaaaaa"), "more than one character over and over"),
                        (_change(PASSWORD, NEW, "a quieter mouse"), "The new password and its repetition differ")]:
        r = await client.post("/account/password", data={**data, "csrf_token": csrf})
        assert r.status_code == 400 and words in r.text
    async with _browser(app) as other:
        assert (await sign_in(other, "Ada")).status_code == 303  # nothing changed


async def test_a_change_needs_the_sessions_csrf_token(app: Any, client: httpx.AsyncClient) -> None:
    await sign_up(client, "Ada")
    r = await client.post("/account/password", data=_change(PASSWORD, NEW, csrf="forged"))
    assert r.status_code == 403 and "This form had expired" in r.text
    async with _browser(app) as other:
        assert (await sign_in(other, "Ada")).status_code == 303


async def test_nobody_signed_out_changes_a_password(client: httpx.AsyncClient) -> None:
    r = await client.post("/account/password", data=_change(PASSWORD, NEW))
    assert r.status_code == 303 and r.headers["location"].startswith("/login")


async def test_wrong_old_passwords_meet_the_sign_in_lock(app: Any, client: httpx.AsyncClient) -> None:
    """The old password is guessed no more often than at the sign-in form: a
    stolen session is no way round the lock."""
    await sign_up(client, "Ada")
    after = app.state.parts.settings.account_lock_after
    statuses = [(await client.post("/account/password", data=_change(f"guess {n}", NEW, csrf=await csrf_of(client))))
                .status_code for n in range(after + 1)]
    assert statuses[:after] == [403] * after and statuses[after] == 429, statuses
    locked = await client.post("/account/password", data=_change(PASSWORD, NEW, csrf=await csrf_of(client)))
    assert locked.status_code == 429 and "Too many wrong passwords" in locked.text  # even the right one waits
    async with _browser(app) as other:
        assert (await sign_in(other, "Ada", NEW)).status_code != 303  # nothing was changed
