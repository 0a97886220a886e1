"""The match page's comforts: the game record and the position text downloaded
from the page; keyboard shortcuts (f flips, z zen, ? lists them) and zen mode,
which leaves only the board, the tower, the clocks and the turn panel."""

from __future__ import annotations

import urllib.request
from pathlib import Path

from playwright.sync_api import expect

from .conftest import Contexts, assert_accessible, wait_ready
from .test_offers import button, one_choice_made, seated, shot


def test_the_record_and_the_position_downloaded_are_the_servers(contexts: Contexts) -> None:
    server = contexts.server
    match_id, tokens, _ = one_choice_made(server)
    page = seated(contexts, match_id, "white", tokens["white"])
    with urllib.request.urlopen(f"{server.base}/api/v1/matches/{match_id}/record") as answer:
        record = answer.read().decode()
    with page.expect_download() as got:
        page.get_by_role("link", name="Download record").click()
    assert Path(got.value.path()).read_text() == record
    assert got.value.suggested_filename == f"magery-{match_id}.txt"
    match = server.match(match_id)
    with page.expect_download() as got:
        page.get_by_role("link", name="Download position").click()
    assert Path(got.value.path()).read_text() == match["position"] + "\n"
    assert got.value.suggested_filename == f"magery-{match_id}-v{match['version']}.position.txt"


def test_shortcuts_flip_and_zen_and_their_list(contexts: Contexts) -> None:
    server = contexts.server
    match_id, tokens, before = one_choice_made(server, time_control={"type": "realtime", "minutes": 5})
    mover = server.match(match_id)["to_move"]
    page = seated(contexts, match_id, mover, tokens[mover])
    page.keyboard.press("?")
    listing = page.get_by_role("dialog", name="Keyboard shortcuts")
    expect(listing).to_be_visible()
    expect(listing).to_contain_text("Flip the board")
    assert_accessible(page)
    page.keyboard.press("Escape")
    expect(listing).to_be_hidden()

    flip = button(page, "Flip board")
    page.keyboard.press("f")
    expect(flip).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("f")
    expect(flip).to_have_attribute("aria-pressed", "false")

    page.keyboard.press("z")
    expect(button(page, "Zen")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("group", name="Arena")).to_be_visible()
    expect(page.get_by_role("list", name="Mage Tower", exact=False)).to_be_visible()
    for colour in ("white", "black"):
        expect(page.locator(f"#player-{colour} .clock")).to_be_visible()
    expect(page.get_by_role("heading", name="Your turn")).to_be_visible()
    expect(page.get_by_role("region", name="Moves")).to_be_hidden()
    expect(button(page, "Resign")).to_be_hidden()
    expect(page.get_by_role("link", name="Magery Online")).to_be_hidden()
    shot(page, "zen")
    button(page, "Zen").click()  # the way out by pointer
    expect(page.get_by_role("region", name="Moves")).to_be_visible()

    field = page.get_by_role("textbox").first  # a key typed into a field is the field's
    if field.count():
        field.focus()
        page.keyboard.press("z")
        expect(button(page, "Zen")).to_have_attribute("aria-pressed", "false")
    wait_ready(page)


def test_the_dark_theme_follows_the_system_then_the_switch_and_the_board_colouring_is_remembered(
        contexts: Contexts) -> None:
    server = contexts.server
    match_id, tokens, _ = one_choice_made(server)
    page = seated(contexts, match_id, "white", tokens["white"])
    background = "() => getComputedStyle(document.documentElement).backgroundColor"
    light = page.evaluate(background)
    page.emulate_media(color_scheme="dark")
    dark_theme = button(page, "Dark theme")
    expect(dark_theme).to_have_attribute("aria-pressed", "true")  # the system's choice, followed
    dark = page.evaluate(background)
    assert dark != light
    dark_theme.click()  # the switch says light, whatever the system says
    expect(dark_theme).to_have_attribute("aria-pressed", "false")
    assert page.evaluate(background) == light
    square = "() => getComputedStyle(document.querySelector('.sq.dark')).backgroundColor"
    wood = page.evaluate(square)
    button(page, "Board: wood").click()
    expect(button(page, "Board: slate")).to_be_visible()
    slate = page.evaluate(square)
    assert slate != wood
    page.reload()
    wait_ready(page)
    expect(button(page, "Dark theme")).to_have_attribute("aria-pressed", "false")  # remembered
    expect(button(page, "Board: slate")).to_be_visible()
    assert page.evaluate(square) == slate and page.evaluate(background) == light
    assert_accessible(page)
    button(page, "Dark theme").click()
    shot(page, "dark")
