"""The bell in the header (templates/_bell.html, static/js/bell.js), in real
Chromium on a phone and a desktop: a challenge made by another player shows as
an unread count at once (the person channel), the bell opens by keyboard on
the list, inside the window, and opening it marks the list read; Escape
closes it and gives the focus back to the bell."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Contexts
from .test_accounts import WIDTHS, fits, fresh_name, phone_or_desk, sign_up
from .test_phone_header import header_fits

SHOTS = os.environ.get("MAGERY_SHOTS")  # a folder to keep the screenshots in, when set


def signed_up(page: Any, prefix: str) -> str:
    page.goto("/signup")
    name = fresh_name(prefix)
    sign_up(page, name)
    page.wait_for_url(re.compile(r"/$"))
    return name


def challenge(page: Any, name: str) -> None:
    """From `page`'s signed-in session, as the profile's form would."""
    status = page.evaluate("""async (name) => {
        const csrf = document.querySelector('meta[name="csrf-token"]').content;
        const r = await fetch(`/api/v1/challenges/${name}`, {method: "POST", body: "{}",
            headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf}});
        return r.status;
    }""", name)
    assert status == 201


@pytest.mark.parametrize("width", WIDTHS)
def test_the_bell_counts_opens_by_keyboard_and_marks_read(contexts: Contexts, width: int) -> None:
    page = phone_or_desk(contexts, width, axe=True)
    name = signed_up(page, "Bl")
    bell = page.get_by_role("button", name=re.compile("^Notifications"))
    expect(bell).to_have_accessible_name("Notifications: none unread")

    other = contexts.page(width=1280)
    challenger = signed_up(other, "Ch")
    challenge(other, name)
    expect(bell).to_have_accessible_name("Notifications: 1 unread")  # no reload: the channel told it

    bell.focus()
    page.keyboard.press("Enter")
    panel = page.get_by_role("region", name="Notifications")
    expect(panel).to_be_visible()
    expect(bell).to_have_attribute("aria-expanded", "true")
    item = panel.get_by_role("listitem").first
    expect(item).to_contain_text(f"{challenger} challenges you to a match.")
    expect(bell).to_have_accessible_name("Notifications: none unread")  # read on open
    box, view = panel.bounding_box(), page.viewport_size
    assert box["x"] >= 0 and box["x"] + box["width"] <= view["width"], box
    assert box["y"] >= 0 and box["y"] + box["height"] <= view["height"], box
    header_fits(page)
    fits(page)
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"bell-{width}.png"))

    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    expect(bell).to_be_focused()
    expect(bell).to_have_attribute("aria-expanded", "false")
    # Read stays read: a reload shows the list with nothing unread.
    page.reload()
    expect(bell).to_have_accessible_name("Notifications: none unread")
    bell.click()
    expect(panel.get_by_role("listitem")).to_have_count(1)
    expect(panel.locator("li.unread")).to_have_count(0)
