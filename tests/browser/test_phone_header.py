"""The match page's header on a 360 px phone, signed in: one row that never
scrolls sideways (the account's links once sat at x=522, past the window, in a
header that scrolled on its own), and no "Your move 0" beside the result once
the match is over."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from .conftest import Contexts, wait_ready
from .test_accounts import fits, fresh_name, phone_or_desk, sign_up


def header_fits(page: Any) -> None:
    """Every shown thing in the header lies inside the window, and the header itself cannot scroll."""
    width = page.viewport_size["width"]
    outside = page.locator("header.top").evaluate(
        """(top, width) => [...top.querySelectorAll('*')].filter(e => {
             const r = e.getBoundingClientRect();
             return r.width > 1 && (r.left < 0 || r.right > width);
           }).map(e => `${e.tagName}.${e.className} ${e.textContent.trim().slice(0, 20)}`)""", width)
    assert outside == [], outside
    sizes = page.locator("header.top").evaluate("top => [top.scrollWidth, top.clientWidth]")
    assert sizes[0] <= sizes[1], f"the header scrolls sideways: {sizes}"


def test_the_phone_header_fits_and_drops_your_move_at_the_end(contexts: Contexts) -> None:
    page = phone_or_desk(contexts, 360)
    page.goto("/signup")
    name = fresh_name("Hd")
    sign_up(page, name)
    page.wait_for_url(re.compile(r"/$"))
    page.get_by_label("Opponent").select_option("bot:random")
    page.get_by_role("button", name="Create match").click()
    page.wait_for_url(re.compile(r"/matches/"))
    wait_ready(page)
    awaiting = page.get_by_role("link", name=re.compile("^Matches awaiting your move"))
    expect(awaiting).to_be_visible()
    nav = page.get_by_role("navigation", name="Account")
    expect(nav.get_by_role("link", name=name)).to_be_visible()
    expect(nav.get_by_role("button", name="Sign out")).to_be_visible()
    header_fits(page)
    fits(page)

    page.get_by_role("button", name="Resign").click()
    page.get_by_role("button", name="Yes, resign").click()
    expect(page.locator("#end")).to_be_visible()
    expect(awaiting).to_be_hidden()
    header_fits(page)
