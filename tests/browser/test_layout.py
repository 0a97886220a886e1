"""Issue 16, defects 2 and 3: on a phone or a tablet the page reads arena, turn
panel, then the tower (the turn panel was below the whole tower and both
reserves); on a 1366×900 desktop the reserve and the turn panel are in view
during the decision phase, and a draw offer is seen wherever the page is scrolled."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Contexts, my_turn, page_width
from .scenes import seated, set_up, to_action_phase


def box(page: Any, selector: str) -> dict[str, float]:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not shown"
    return dict(found)


def assert_reading_order(page: Any) -> None:
    arena, turn, tower = box(page, ".arena"), box(page, "#turn"), box(page, ".tower")
    assert arena["y"] + arena["height"] <= turn["y"], (arena, turn)
    assert turn["y"] + turn["height"] <= tower["y"], (turn, tower)
    width = page.viewport_size["width"]
    for found in (arena, turn, tower):
        assert found["x"] >= 0 and found["x"] + found["width"] <= width, found


@pytest.mark.parametrize("width", [360, 412, 800])
def test_a_narrow_screen_reads_arena_then_turn_panel_then_tower(contexts: Contexts, width: int) -> None:
    server = contexts.server
    match_id, tokens = seated(server)
    page = contexts.page(width=width, height=780)
    page.goto(f"/matches/{match_id}#seat=white.{tokens['white']}")
    my_turn(page, 1)
    expect(page.get_by_role("button", name="Confirm setup")).to_be_visible()
    assert_reading_order(page)  # during the setup

    match_id, tokens, mover = to_action_phase(server)
    page.goto(f"/matches/{match_id}#seat={mover}.{tokens[mover]}")
    my_turn(page, server.match(match_id)["version"])
    expect(page.get_by_role("status")).to_contain_text("Action phase")
    assert_reading_order(page)  # during an action


def test_a_desktop_shows_the_reserve_and_the_turn_panel_and_a_draw_offer_in_view(contexts: Contexts) -> None:
    """One screen replaced the sticky side column (the page scrolled, the side stayed)
    with one screen that needs no scrolling: the reserve, the turn panel and an
    opponent's draw offer are in view where the page opens."""
    server = contexts.server
    match_id, tokens = set_up(server)
    page = contexts.page(width=1366, height=900)
    page.goto(f"/matches/{match_id}#seat=white.{tokens['white']}")
    my_turn(page, 3)
    expect(page.get_by_role("status")).to_contain_text("Decision phase")
    reserve = page.locator(".pool").filter(has_text="(you)")
    expect(reserve).to_be_in_viewport(ratio=1)
    expect(page.locator("#turn")).to_be_in_viewport(ratio=1)
    server.call("POST", f"/matches/{match_id}/draw", {"offer": True}, token=tokens["black"])
    expect(page.get_by_role("button", name="Accept draw")).to_be_in_viewport(ratio=1)
    expect(page.locator("#draw-note")).to_be_in_viewport(ratio=1)
    assert page.evaluate("() => scrollY") == 0


LONG = ("W" * 40, "Hubertwolfeschlegelsteinhausenbergerdorf")  # the longest names, unbroken


def test_the_longest_unbroken_names_fit_a_phone(contexts: Contexts) -> None:
    """A name may be 40 letters with nowhere to break: the home page's lists and
    the match page (players, end panel) must still fit 360 px, not scroll sideways."""
    server = contexts.server
    made = server.call("POST", "/matches", {"seat": "white", "name": LONG[0]})
    match_id = made["match"]["id"]
    joined = server.call("POST", f"/matches/{match_id}/join", {"name": LONG[1]})
    server.call("POST", "/matches", {"seat": "black", "name": LONG[1]})  # an open one, listed
    page = contexts.page(width=360, height=780)
    for path, ready in [("/", "#open-list"), (f"/matches/{match_id}", "#player-black")]:
        page.goto(path)
        expect(page.locator(ready).get_by_text(LONG[1])).to_be_visible()  # the long name is shown
        wide = page_width(page)
        assert wide <= 360, f"{path} is {wide} px wide at 360"
    server.call("POST", f"/matches/{match_id}/resign", token=joined["token"])
    page.goto(f"/matches/{match_id}#seat=white.{made['token']}")
    expect(page.locator("#result")).to_be_visible()
    wide = page_width(page)
    assert wide <= 360, f"the end panel is {wide} px wide at 360"
