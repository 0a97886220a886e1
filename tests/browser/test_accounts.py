"""The account pages in real Chromium (issue 19), each at a desktop's width and
at a 360 px phone's: signing up, out and in again, a wrong password said on
the form, a guest's seat claimed into the account made after it, API tokens
made and revoked on /account, closing the account, and the home form's
"Rated" box with the session's CSRF header on the page's requests."""

from __future__ import annotations

import re
import secrets
import sqlite3
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import (
    Contexts,
    Server,
    assert_accessible,
    create_on_page,
    page_width,
    seat_token,
    wait_ready,
)

PASSWORD = "correct horse battery"
WIDTHS = [pytest.param(1280, id="desktop"), pytest.param(360, id="phone")]


def fresh_name(prefix: str) -> str:
    return f"{prefix}{secrets.token_hex(3)}"


def phone_or_desk(contexts: Contexts, width: int, axe: bool = False) -> Any:
    if width <= 400:
        return contexts.page(width=width, height=780, axe=axe, is_mobile=True, has_touch=True)
    return contexts.page(width=width, height=900, axe=axe)


def fits(page: Any) -> None:
    """Nothing wider than the window: no sideways scrolling, the header included."""
    overflow = page_width(page) - page.viewport_size["width"]
    assert overflow <= 0, f"{overflow}px wider than the window"
    nav = page.get_by_role("navigation", name="Account").bounding_box()
    assert nav["x"] >= 0 and nav["x"] + nav["width"] <= page.viewport_size["width"], nav


def sign_up(page: Any, name: str, password: str = PASSWORD) -> None:
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Create account").click()


def sign_in(page: Any, name: str, password: str = PASSWORD) -> None:
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()


def signed_in_as(page: Any, name: str) -> None:
    nav = page.get_by_role("navigation", name="Account")
    expect(nav.get_by_role("link", name=name)).to_have_attribute("href", f"/@/{name}")
    expect(nav.get_by_role("button", name="Sign out")).to_be_visible()


def signed_out(page: Any) -> None:
    nav = page.get_by_role("navigation", name="Account")
    expect(nav.get_by_role("link", name="Sign in")).to_be_visible()
    expect(nav.get_by_role("link", name="Sign up")).to_be_visible()
    expect(page.locator('meta[name="csrf-token"]')).to_have_count(0)


def seat_accounts(server: Server, match_id: str) -> dict[str, str | None]:
    """Whose account each seat of the match is, read from the server's database."""
    path = server.database_url.split("///", 1)[1]
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT seats.colour, accounts.name FROM seats LEFT JOIN accounts "
                          "ON accounts.id = seats.account_id WHERE seats.match_id = ?", (match_id,)).fetchall()
    return dict(rows)


@pytest.mark.parametrize("width", WIDTHS)
def test_sign_up_sign_out_and_sign_in_again(contexts: Contexts, width: int) -> None:
    page = phone_or_desk(contexts, width, axe=True)
    name = fresh_name("Ada")
    page.goto("/learn")
    signed_out(page)
    fits(page)
    page.get_by_role("navigation", name="Account").get_by_role("link", name="Sign up").click()
    expect(page.get_by_role("heading", name="Create an account")).to_be_visible()
    assert_accessible(page)
    sign_up(page, name)
    page.wait_for_url(re.compile(r"/learn$"))  # back where the player came from
    signed_in_as(page, name)
    expect(page.locator('meta[name="magery-account"]')).to_have_attribute("content", name)
    fits(page)
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url(re.compile(r"/$"))
    signed_out(page)
    page.get_by_role("navigation", name="Account").get_by_role("link", name="Sign in").click()
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    assert_accessible(page)
    sign_in(page, name)
    page.wait_for_url(re.compile(r"/$"))
    signed_in_as(page, name)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_wrong_password_and_a_bad_one_are_said_on_the_form(contexts: Contexts, width: int) -> None:
    page = phone_or_desk(contexts, width)
    name = fresh_name("Bo")
    page.goto("/signup")
    sign_up(page, name, "short")
    expect(page.get_by_role("alert")).to_have_text("A password has at least 8 characters.")
    expect(page.get_by_label("Username")).to_have_value(name)  # kept for the next try
    sign_up(page, name, "password123")
    expect(page.get_by_role("alert")).to_contain_text("one of the most common")
    sign_up(page, name)
    page.wait_for_url(re.compile(r"/$"))
    page.get_by_role("button", name="Sign out").click()
    page.goto("/login")
    sign_in(page, name, "not the password")
    expect(page.get_by_role("alert")).to_have_text("Wrong username or password.")
    sign_in(page, fresh_name("Nobody"), PASSWORD)
    expect(page.get_by_role("alert")).to_have_text("Wrong username or password.")
    signed_out(page)
    fits(page)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_guests_seat_becomes_the_accounts_after_signing_up(contexts: Contexts, width: int) -> None:
    page = phone_or_desk(contexts, width)
    match_id = create_on_page(page, name="Guest")
    token = seat_token(page, match_id)["token"]
    assert seat_accounts(contexts.server, match_id) == {"white": None}
    name = fresh_name("Cy")
    page.get_by_role("navigation", name="Account").get_by_role("link", name="Sign up").click()
    sign_up(page, name)
    page.wait_for_url(re.compile(f"/matches/{match_id}$"))  # claimed, then back to the match
    wait_ready(page)
    signed_in_as(page, name)
    assert seat_accounts(contexts.server, match_id) == {"white": name}
    assert seat_token(page, match_id)["token"] == token  # the token still proves the seat
    expect(page.get_by_label("Invite link")).to_be_visible()
    fits(page)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_token_is_made_shown_once_and_revoked(contexts: Contexts, width: int) -> None:
    page = phone_or_desk(contexts, width, axe=True)
    page.goto("/signup?next=/account")
    sign_up(page, fresh_name("Di"))
    page.wait_for_url(re.compile(r"/account$"))
    expect(page.get_by_text("No tokens yet")).to_be_visible()
    page.get_by_label("Token name").fill("my bot")
    page.get_by_role("checkbox", name=re.compile("^read")).uncheck()
    page.get_by_role("button", name="Create token").click()
    shown = page.get_by_label("New token")
    expect(shown).to_have_value(re.compile(r"^mgo_[A-Za-z0-9_-]{40,}$"))
    expect(shown).to_have_attribute("readonly", "")
    plain = shown.input_value()
    row = page.get_by_role("row", name=re.compile("my bot"))
    expect(row).to_contain_text("play")
    expect(row).not_to_contain_text("read")
    expect(row).to_contain_text("never")
    assert_accessible(page)
    fits(page)
    page.goto("/account")  # shown once: never again
    expect(page.get_by_label("New token")).to_have_count(0)
    assert plain not in page.content()
    page.get_by_role("button", name="Revoke my bot").click()
    page.get_by_role("button", name="Really revoke my bot?").click()  # it asks first
    expect(page.get_by_role("status")).to_have_text("The token is revoked.")
    expect(page.get_by_role("row", name=re.compile("my bot"))).to_have_count(0)


@pytest.mark.parametrize("width", WIDTHS)
def test_closing_the_account_signs_out_and_keeps_its_matches(contexts: Contexts, width: int) -> None:
    page = phone_or_desk(contexts, width)
    name = fresh_name("Ed")
    match_id = create_on_page(page, name="Guest")
    page.goto("/signup")
    sign_up(page, name)
    page.wait_for_url(re.compile(r"/$"))
    page.get_by_role("navigation", name="Account").get_by_role("link", name="Account").click()
    page.get_by_role("link", name="Close account").click()
    expect(page.get_by_role("heading", name=f"Close the account {name}?")).to_be_visible()
    fits(page)
    page.get_by_role("button", name="Yes, close my account").click()
    expect(page.get_by_role("heading", name="Account closed")).to_be_visible()
    signed_out(page)
    assert seat_accounts(contexts.server, match_id) == {"white": name}  # its match stays the account's
    page.goto("/login")
    sign_in(page, name)
    expect(page.get_by_role("alert")).to_have_text("This account is closed.")


@pytest.mark.parametrize("width", WIDTHS)
def test_the_home_form_offers_rated_only_when_signed_in(contexts: Contexts, width: int) -> None:
    page = phone_or_desk(contexts, width)
    page.goto("/")
    expect(page.get_by_label("Rated")).to_have_count(0)
    page.goto("/signup")
    name = fresh_name("Flo")
    sign_up(page, name)
    page.wait_for_url(re.compile(r"/$"))
    expect(page.get_by_text(f"You play as {name}.")).to_be_visible()
    page.get_by_label("Rated").check()
    page.get_by_label("Opponent").select_option("bot:random")
    fits(page)  # measured here: the click below leaves the home page for the match's
    csrf = page.locator('meta[name="csrf-token"]').get_attribute("content")
    with page.expect_request(lambda r: r.url.endswith("/api/v1/matches") and r.method == "POST") as sent:
        page.get_by_role("button", name="Create match").click()
    request = sent.value
    assert request.post_data_json["rated"] is True and request.post_data_json["name"] == name
    assert request.headers["x-csrf-token"] == csrf
    assert "authorization" not in request.headers  # the session cookie speaks for the account
    page.wait_for_url(re.compile(r"/matches/"))
