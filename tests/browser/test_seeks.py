"""Seeks in real Chromium (issue 20), at a desk's width and a 390 px phone's:
a signed-in player asks for opponents within ±200 of their rating from the
home form; a guest sees the seek listed with the creator's rating ("1500?")
and the ratings it admits, with the header's "Leaderboard" link in the
window; the guest's join is refused in words, and the seek stays listed."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import Contexts, wait_ready
from .test_accounts import fits, fresh_name, phone_or_desk, sign_up

WIDTHS = [pytest.param(1280, id="desktop"), pytest.param(390, id="phone")]


@pytest.mark.parametrize("width", WIDTHS)
def test_a_ranged_seek_is_listed_with_its_rating_and_refuses_a_guest(contexts: Contexts, width: int) -> None:
    creator = phone_or_desk(contexts, width)
    creator.goto("/signup")
    name = fresh_name("Sek")
    sign_up(creator, name)
    creator.wait_for_url(re.compile(r"/$"))
    range_field = creator.get_by_label("Rating range")
    creator.get_by_label("Opponent").select_option("bot:random")
    expect(range_field).to_be_hidden()  # a computer joins at once: no range to ask of it
    creator.get_by_label("Opponent").select_option("human")
    range_field.select_option("200")
    with creator.expect_request(lambda r: r.url.endswith("/api/v1/matches") and r.method == "POST") as sent:
        creator.get_by_role("button", name="Create match").click()
    assert sent.value.post_data_json["options"]["rating_range"] == 200
    creator.wait_for_url(re.compile(r"/matches/"))
    wait_ready(creator)  # the creator stays on the match page: the seek is listed

    guest = phone_or_desk(contexts, width, axe=False)
    guest.goto("/")
    row = guest.locator("#open-list li", has_text=name)
    expect(row).to_contain_text(f"{name} (1500?) waits, as")
    expect(row).to_contain_text("ratings 1300\u20131700")
    expect(row.get_by_role("link", name=name)).to_have_attribute("href", f"/@/{name}")
    leaderboard = guest.get_by_role("banner").get_by_role("link", name="Leaderboard")
    expect(leaderboard).to_have_attribute("href", "/leaderboard")
    box = leaderboard.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, box
    fits(guest)
    row.get_by_role("button", name=re.compile("^Join")).click()
    expect(guest.get_by_role("alert")).to_contain_text(
        f"Could not join: this match asks for a rating within \u00b1200 of {name}'s 1500 (1300 to 1700): "
        "sign in to join it (a guest has no rating)")
    expect(row.get_by_role("button")).to_have_text("Not open to you")
    assert guest.url.endswith("/")  # still home: nobody joined
