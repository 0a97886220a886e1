"""The home page as a newcomer meets it: a picture of the game, three ways in
first (Quick pairing in the first screen of a phone), the guided first match
offered on a first visit, the fine options folded away; a match for a friend
kept off the open list; nothing shifting as the page fills in."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Contexts, assert_accessible, wait_ready

SCREENS = [pytest.param((360, 780), id="360x780"), pytest.param((390, 844), id="390x844"),
           pytest.param((1366, 768), id="1366x768")]
# The sum of the page's unexpected layout shifts, as Lighthouse and the web's CLS count them.
CLS = """() => { window.__cls = 0; new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) window.__cls += e.value;
}).observe({ type: "layout-shift", buffered: true }); }"""


def screen(contexts: Contexts, size: tuple[int, int], axe: bool = False) -> Any:
    width, height = size
    phone = width < 500
    return contexts.page(width=width, height=height, axe=axe, is_mobile=phone, has_touch=phone)


def in_first_screen(page: Any, locator: Any) -> None:
    box = locator.bounding_box()
    height = page.viewport_size["height"]
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, (box, height)


@pytest.mark.parametrize("size", SCREENS)
def test_three_ways_in_first_and_quick_pairing_in_the_first_screen(contexts: Contexts, size: tuple[int, int]) -> None:
    page = screen(contexts, size, axe=True)
    page.add_init_script(script=f"({CLS})()")
    page.goto("/")
    picture = page.get_by_role("img", name=re.compile("Magery arena"))
    expect(picture).to_be_visible()
    in_first_screen(page, picture)
    ways = page.get_by_role("navigation", name="Ways to play")
    in_first_screen(page, ways.get_by_role("link", name=re.compile("Quick pairing")))
    for name in ("Play a friend", "Play the computer"):
        in_first_screen(page, ways.get_by_role("button", name=re.compile(name)))
    for button in page.locator("#pool-buttons button.pool-button:visible").all():
        in_first_screen(page, button)  # press one and the pairing starts
    expect(page.locator("#pool-buttons button.pool-button:visible")).to_have_count(4)
    # The fine options are folded away until asked for.
    for label in ("Colour", "Variant", "No-progress rule"):
        expect(page.get_by_label(label, exact=False).first).to_be_hidden()
    page.get_by_text("More options").click()
    expect(page.get_by_label("Colour")).to_be_visible()
    page.locator("#open-list li").first.wait_for()
    expect(page.locator("#open-list")).not_to_contain_text("Loading")
    assert page.evaluate("window.__cls") <= 0.1
    assert_accessible(page)


def test_a_first_visit_is_offered_the_guided_match_first(contexts: Contexts) -> None:
    page = contexts.page(width=390, height=844, is_mobile=True, has_touch=True)
    page.goto("/")
    offer = page.locator(".first-time.offer")
    expect(offer.get_by_role("button", name="Play a guided first match")).to_be_visible()
    in_first_screen(page, offer)
    page.goto("/")  # the second visit: offered quietly, beside Learn
    expect(page.locator(".first-time.offer")).to_have_count(0)
    expect(page.get_by_role("button", name="Play a guided first match")).to_be_visible()


def test_play_a_friend_is_not_listed_and_a_seek_is(contexts: Contexts) -> None:
    ada = contexts.page(width=390, height=844, is_mobile=True, has_touch=True)
    ada.goto("/")
    ada.get_by_label("Your name").fill("Ada")
    with ada.expect_request(lambda r: r.url.endswith("/api/v1/matches") and r.method == "POST") as sent:
        ada.get_by_role("button", name=re.compile("Play a friend")).click()
    assert sent.value.post_data_json["options"]["listed"] is False
    assert sent.value.post_data_json["opponent"] == "human"
    ada.wait_for_url(re.compile(r"/matches/"))
    wait_ready(ada)
    friend_id = ada.url.rsplit("/", 1)[1]

    grace = contexts.page()
    grace.goto("/")
    grace.get_by_label("Your name").fill("Grace")
    grace.get_by_role("button", name="Create match").click()  # "Anyone": an open match, listed
    grace.wait_for_url(re.compile(r"/matches/"))
    wait_ready(grace)
    seek_id = grace.url.rsplit("/", 1)[1]

    bo = contexts.page()
    bo.goto("/")
    expect(bo.locator("#open-list")).to_contain_text("Grace")
    expect(bo.locator("#open-list li", has_text="Grace")).to_contain_text("Casual")  # rated or not, said in every list
    assert friend_id not in bo.locator("#open-list").inner_html()
    assert seek_id != friend_id and "Ada" not in bo.locator("#open-list").inner_text()
    bo.goto(f"/matches/{friend_id}")  # the link still opens it, to join
    wait_ready(bo)


def test_play_the_computer_starts_at_once(contexts: Contexts) -> None:
    page = contexts.page(width=360, height=780, is_mobile=True, has_touch=True)
    page.goto("/")
    with page.expect_request(lambda r: r.url.endswith("/api/v1/matches") and r.method == "POST") as sent:
        page.get_by_role("button", name=re.compile("Play the computer")).click()
    assert sent.value.post_data_json["opponent"].startswith("bot:")
    page.wait_for_url(re.compile(r"/matches/"))
    wait_ready(page)
