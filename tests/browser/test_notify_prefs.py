"""The account page's grid of notifications in real Chromium, on a 390×844
phone and a 1366×768 laptop: each box saves as it changes (what is stored read
back through the API), the page's one status region says so, the grid works
by keyboard alone (Tab between the boxes, Space to switch), fits the phone's
width, and works as a plain form with JavaScript off. The email column is
disabled and says why (this server has no SMTP_URL; the enabled column is
route-tested in tests/mail/test_account_page.py). Asking the browser's
permission belongs to the push button alone: tests/push/test_push_page.py."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Contexts, assert_accessible
from .test_accounts import fits, fresh_name, sign_up

SHOTS = os.environ.get("MAGERY_SHOTS")
PREFS = "/api/v1/account/notification-preferences"
SIZES = [pytest.param((390, 844), id="phone"), pytest.param((1366, 768), id="laptop")]


def opened(contexts: Contexts, size: tuple[int, int], **kw: Any) -> Any:
    width, height = size
    phone = width < 600
    page = contexts.page(width=width, height=height, is_mobile=phone, has_touch=phone, **kw)
    page.goto("/signup?next=/account")
    sign_up(page, fresh_name("Nt"))
    page.wait_for_url(re.compile(r"/account$"))
    return page


def stored(page: Any) -> dict[str, dict[str, bool]]:
    """The choices as the API answers them, with the page's own session."""
    answer = page.request.get(PREFS)
    assert answer.ok, answer.text()
    return answer.json()["preferences"]  # type: ignore[no-any-return]


def box(page: Any, label: str) -> Any:
    return page.get_by_role("checkbox", name=label, exact=True)


def ready(page: Any) -> None:
    """The grid's script has started: it hides the Save button of the plain form."""
    expect(page.locator("#notify-save")).to_be_hidden()


@pytest.mark.parametrize("size", SIZES)
def test_each_box_saves_as_it_changes_and_the_page_fits(contexts: Contexts, size: tuple[int, int]) -> None:
    page = opened(contexts, size, axe=True)
    ready(page)
    grid = page.get_by_role("table", name=re.compile("What reaches you"))
    expect(grid.get_by_role("row")).to_have_count(10)  # the head and nine kinds
    ended = box(page, "A match of yours ended: by push")
    expect(ended).not_to_be_checked()
    expect(ended).to_have_accessible_description(re.compile("where you pressed “Notify me by push”"))
    assert stored(page)["match_ended"]["push"] is False
    ended.click()
    status = page.get_by_role("status")
    expect(status).to_have_text("Saved: A match of yours ended: by push, on.")
    expect(page.locator("#notify-saved")).to_have_text("Saved: A match of yours ended: by push, on.")
    assert stored(page)["match_ended"]["push"] is True
    box(page, "Your turn in a correspondence match: in the bell").click()
    expect(status).to_have_text("Saved: Your turn in a correspondence match: in the bell, off.")
    assert stored(page)["your_turn"] == {"inbox": False, "push": True, "email": False}
    # No SMTP_URL on this server: the email boxes are there, disabled, and say why.
    email = box(page, "Your turn in a correspondence match: by email")
    expect(email).to_be_disabled()
    expect(email).to_have_accessible_description(re.compile("This server sends no email"))
    expect(page.get_by_role("status")).to_have_count(1)
    fits(page)
    assert_accessible(page)
    if SHOTS:
        page.locator("#notify-title").scroll_into_view_if_needed()
        page.screenshot(path=os.path.join(SHOTS, f"account-notify-{size[0]}.png"))
        page.locator("section[aria-labelledby='notify-title']").screenshot(
            path=os.path.join(SHOTS, f"account-notify-{size[0]}-grid.png"))
    page.reload()  # what the page draws is what was stored
    expect(box(page, "A match of yours ended: by push")).to_be_checked()
    expect(box(page, "Your turn in a correspondence match: in the bell")).not_to_be_checked()


def test_the_grid_works_by_keyboard_alone(contexts: Contexts) -> None:
    page = opened(contexts, (1366, 768))
    ready(page)
    first = box(page, "Your turn in a correspondence match: in the bell")
    # From the push section's link to the grid, Tab on past the push button.
    page.locator("#push-title ~ p a[href='#notify-title']").focus()
    for _ in range(4):
        page.keyboard.press("Tab")
        if first.evaluate("(e) => e === document.activeElement"):
            break
    expect(first).to_be_focused()
    page.keyboard.press("Space")
    expect(page.get_by_role("status")).to_have_text("Saved: Your turn in a correspondence match: in the bell, off.")
    page.keyboard.press("Tab")
    expect(box(page, "Your turn in a correspondence match: by push")).to_be_focused()
    page.keyboard.press("Space")
    expect(page.get_by_role("status")).to_have_text("Saved: Your turn in a correspondence match: by push, off.")
    page.keyboard.press("Tab")  # the disabled email box is passed over: the next row's first
    expect(box(page, "Your correspondence clock is running low: in the bell")).to_be_focused()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Space")
    expect(page.get_by_role("status")).to_have_text("Saved: Your turn in a correspondence match: by push, on.")
    assert stored(page)["your_turn"] == {"inbox": False, "push": True, "email": False}


def test_without_javascript_the_grid_is_a_form(contexts: Contexts) -> None:
    signing_up = opened(contexts, (390, 844))  # signing up needs the claim page's script
    page = contexts.page(width=390, height=844, is_mobile=True, has_touch=True, java_script_enabled=False,
                         storage_state=signing_up.context.storage_state())
    page.goto("/account")
    save = page.get_by_role("button", name="Save", exact=True)
    expect(save).to_be_visible()
    box(page, "A challenge to you: by push").uncheck()
    box(page, "A chat line you reported was looked at: by push").check()
    save.click()
    page.wait_for_url(re.compile(r"/account\?notifications=saved"))
    expect(page.get_by_role("status")).to_have_text("Your notification choices are saved.")
    got = stored(page)
    assert got["challenge"]["push"] is False and got["report_handled"]["push"] is True
    assert got["your_turn"] == {"inbox": True, "push": True, "email": False}  # the rest as they were
    expect(box(page, "A challenge to you: by push")).not_to_be_checked()
    fits(page)
