"""Premove (static/js/premove.js): during the opponent's turn the seat chooses
its next action with the usual clicks; it is played the moment the turn comes
if it is still legal, dropped with a word if not, and can be cancelled (a
Cancel button, a right-click). The opponent here plays through the API."""

from __future__ import annotations

import os
import re
from typing import Any

from playwright.sync_api import expect

from .conftest import Contexts, assert_accessible, my_turn, wait_version
from .scenes import set_up, to_action_phase

NO_PREMOVE = "() => !('premove' in document.documentElement.dataset)"
SHOTS = os.environ.get("MAGERY_SHOTS")  # a folder to keep the screenshots in, when set


def shot(page: Any, name: str) -> None:
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"))


def black_page(contexts: Contexts, match_id: str, token: str, **kw: Any) -> Any:
    page = contexts.page(**kw)
    page.goto(f"/matches/{match_id}#seat=black.{token}")
    wait_version(page, 3)  # White to place: Black waits
    return page


def premove_dragon_on_druid(page: Any, tap: bool = False) -> None:
    dragon = page.get_by_role("button", name=re.compile("^Dragon: 2 in your reserve"))
    druid = page.get_by_role("button", name=re.compile("^Druid,"))
    for target in (dragon, druid):
        if tap:
            target.tap()
        else:
            target.click()
    expect(page.locator("#premove .premove-line")).to_have_text("Premove: place a dragon on the Druid")
    expect(druid).to_have_accessible_name(re.compile(", your premove$"))
    page.wait_for_function("() => document.documentElement.dataset.premove === '1'")


def test_a_premove_still_legal_is_played_when_the_turn_comes(contexts: Contexts) -> None:
    server = contexts.server
    match_id, tokens = set_up(server)
    page = black_page(contexts, match_id, tokens["black"], axe=True, width=1366, height=768)
    expect(page.locator("#turn")).to_be_hidden()  # not Black's turn: no turn panel
    premove_dragon_on_druid(page)
    assert_accessible(page)
    shot(page, "premove-1366x768")
    server.act(match_id, tokens["white"], {"type": "place", "mage": "sorcerer", "minion": "fey"})
    wait_version(page, 5)  # Black's premove went out as soon as White's action came
    expect(page.locator("#log")).to_contain_text("Black places a dragon on the Druid.")
    druid = next(c for c in server.match(match_id)["tower"] if c["mage"] == "druid")
    assert druid["occupant"] == {"owner": "black", "minion": "dragon"}, druid
    expect(page.locator("#premove")).to_be_hidden()
    page.wait_for_function(NO_PREMOVE)


def test_a_premove_made_illegal_is_dropped_with_a_word(contexts: Contexts) -> None:
    server = contexts.server
    match_id, tokens = set_up(server)
    page = black_page(contexts, match_id, tokens["black"])
    premove_dragon_on_druid(page)
    server.act(match_id, tokens["white"], {"type": "place", "mage": "druid", "minion": "fey"})  # the Druid taken
    my_turn(page, 4)  # Black's own turn, nothing sent for them
    expect(page.locator("#premove .premove-note")).to_have_text("Your premove was no longer legal and was dropped.")
    assert server.match(match_id)["version"] == 4
    page.wait_for_function(NO_PREMOVE)
    # The word stays until Black acts, then goes.
    page.get_by_role("button", name=re.compile("^Dragon: 2 in your reserve")).click()
    page.get_by_role("button", name=re.compile("^Oracle,")).click()
    wait_version(page, 5)
    expect(page.locator("#premove")).to_be_hidden()


def test_a_premove_is_cancelled_by_its_button_or_a_right_click(contexts: Contexts) -> None:
    server = contexts.server
    match_id, tokens = set_up(server)
    page = black_page(contexts, match_id, tokens["black"])
    premove_dragon_on_druid(page)
    page.locator("#premove").get_by_role("button", name="Cancel").click()
    expect(page.locator("#premove")).to_be_hidden()
    page.wait_for_function(NO_PREMOVE)
    premove_dragon_on_druid(page)
    page.get_by_role("button", name=re.compile("^Druid,")).click(button="right")
    expect(page.locator("#premove")).to_be_hidden()
    expect(page.get_by_role("button", name=re.compile("^Druid,"))).not_to_have_accessible_name(re.compile("premove"))
    page.wait_for_function(NO_PREMOVE)
    server.act(match_id, tokens["white"], {"type": "place", "mage": "sorcerer", "minion": "fey"})
    my_turn(page, 4)  # nothing was sent: the turn panel offers Black's choices
    assert server.match(match_id)["version"] == 4


def test_a_premove_by_taps_on_a_phone(contexts: Contexts) -> None:
    server = contexts.server
    match_id, tokens = set_up(server)
    page = black_page(contexts, match_id, tokens["black"], width=390, height=844, has_touch=True, is_mobile=True)
    premove_dragon_on_druid(page, tap=True)
    cancel = page.locator("#premove").get_by_role("button", name="Cancel")
    expect(cancel).to_be_in_viewport()
    box = cancel.bounding_box()
    assert box is not None and box["height"] >= 44 and box["width"] >= 44, box
    shot(page, "premove-390x844")
    server.act(match_id, tokens["white"], {"type": "place", "mage": "sorcerer", "minion": "fey"})
    wait_version(page, 5)
    expect(page.locator("#log")).to_contain_text("Black places a dragon on the Druid.")


def test_a_premove_of_a_removal_leaves_its_power_to_choose_when_the_turn_comes(contexts: Contexts) -> None:
    server = contexts.server
    match_id, tokens, mover = to_action_phase(server)
    waiter = "black" if mover == "white" else "white"
    mine = "sorcerer" if waiter == "black" else "druid"
    version = server.match(match_id)["version"]
    page = contexts.page()
    page.goto(f"/matches/{match_id}#seat={waiter}.{tokens[waiter]}")
    wait_version(page, version)
    chamber = page.get_by_role("button", name=re.compile(f"^{mine.capitalize()},"))
    chamber.click()
    premove = page.locator("#premove")
    expect(premove.get_by_role("button", name="Without power")).to_be_visible()
    premove.get_by_role("button", name="Choose the power later").click()
    expect(premove.locator(".premove-line")).to_have_text(
        f"Premove: remove from the {mine.capitalize()}, choosing its power when your turn comes")
    theirs = next(a for a in server.legal(match_id, tokens[mover])["actions"] if a["type"] == "remove")
    server.act(match_id, tokens[mover], {**theirs, "power": None} if theirs.get("power") else theirs)
    my_turn(page, version + 1)
    # The removal's chamber is the turn's first choice already: what is left is its power.
    expect(chamber).to_have_accessible_name(re.compile(", chosen"))
    expect(page.locator("#turn").get_by_role("button", name="Cancel")).to_be_visible()
    assert server.match(match_id)["version"] == version + 1
