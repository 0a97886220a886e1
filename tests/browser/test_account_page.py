"""The account page's comforts in real Chromium, at a desktop's width and a
360 px phone's: changing the password (a wrong old one said beside the form;
another browser signed out, this one kept), a Copy button for the token shown
once, and Revoke asking before it revokes."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Contexts, assert_accessible
from .test_accounts import PASSWORD, WIDTHS, fits, fresh_name, phone_or_desk, sign_in, sign_up

NEW = "a quieter horse"

SHOTS = os.environ.get("MAGERY_SHOTS")


def signed_up_on_account(page: Any, prefix: str) -> str:
    name = fresh_name(prefix)
    page.goto("/signup?next=/account")
    sign_up(page, name)
    page.wait_for_url(re.compile(r"/account$"))
    return name


def change_password(page: Any, old: str, new: str, again: str | None = None) -> None:
    page.get_by_label("Old password").fill(old)
    page.get_by_label("New password", exact=True).fill(new)
    page.get_by_label("New password again").fill(new if again is None else again)
    page.get_by_role("button", name="Change password").click()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_password_is_changed_and_other_browsers_signed_out(contexts: Contexts, width: int) -> None:
    page = phone_or_desk(contexts, width, axe=True)
    name = signed_up_on_account(page, "Pa")
    other = phone_or_desk(contexts, width)
    other.goto("/login?next=/account")
    sign_in(other, name)
    other.wait_for_url(re.compile(r"/account$"))
    change_password(page, "not my password", NEW)
    form = page.locator("form.password-form")
    refusal = page.get_by_role("alert")
    expect(refusal).to_have_text("Password not changed: The old password is not right.")
    expect(page.get_by_label("Old password")).to_have_attribute("aria-invalid", "true")
    gap = form.bounding_box()["y"] - (refusal.bounding_box()["y"] + refusal.bounding_box()["height"])
    assert abs(gap) < 40, gap  # said just above the form, not at the page's top
    assert_accessible(page)
    fits(page)
    change_password(page, PASSWORD, NEW, "a quieter mouse")
    expect(page.get_by_role("alert")).to_contain_text("The new password and its repetition differ")
    change_password(page, PASSWORD, NEW)
    expect(page.get_by_role("status")).to_have_text(
        "Your password is changed. Every other browser signed in to your account is signed out.")
    other.reload()
    expect(other.get_by_role("heading", name="Sign in")).to_be_visible()  # the other browser is signed out
    sign_in(other, name, PASSWORD)
    expect(other.get_by_role("alert")).to_have_text("Wrong username or password.")
    sign_in(other, name, NEW)
    other.wait_for_url(re.compile(r"/account$"))
    page.reload()
    expect(page.get_by_role("heading", name=f"Your account: {name}")).to_be_visible()  # this one stays


@pytest.mark.parametrize("width", WIDTHS)
def test_a_new_token_is_copied_and_revoke_asks_first(contexts: Contexts, width: int) -> None:
    clipboard = {"permissions": ["clipboard-read", "clipboard-write"]}
    page = (contexts.page(width=width, height=780, axe=True, is_mobile=True, has_touch=True, **clipboard)
            if width <= 400 else contexts.page(width=width, height=900, axe=True, **clipboard))
    signed_up_on_account(page, "Co")
    page.get_by_label("Token name").fill("my bot")
    page.get_by_role("button", name="Create token").click()
    plain = page.get_by_label("New token").input_value()
    page.get_by_role("button", name="Copy", exact=True).click()
    expect(page.locator("#copy-said")).to_have_text("Copied")
    expect(page.locator("#copy-said")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == plain
    assert_accessible(page)
    fits(page)
    if SHOTS:  # a folder to keep the screenshots in, when set
        page.screenshot(path=os.path.join(SHOTS, f"account-page-copied-{width}.png"), full_page=True)
    revoke = page.get_by_role("button", name="Revoke my bot")
    revoke.click()
    asking = page.get_by_role("button", name="Really revoke my bot?")
    expect(asking).to_have_text("Really revoke?")
    expect(page.get_by_role("row", name=re.compile("my bot"))).to_have_count(1)  # nothing revoked yet
    page.get_by_label("Token name").focus()  # moving on takes the question back
    expect(page.get_by_role("button", name="Revoke my bot")).to_have_text("Revoke")
    page.get_by_role("button", name="Revoke my bot").click()
    page.get_by_role("button", name="Really revoke my bot?").click()
    expect(page.get_by_role("status")).to_have_text("The token is revoked.")
    expect(page.get_by_role("row", name=re.compile("my bot"))).to_have_count(0)
