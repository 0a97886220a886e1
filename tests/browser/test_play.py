"""Two people play a match in two browsers, and a third watches: create, join
by the invite link, set up, the decision and action phases with several powers
(a move, a summon, the Seer, the Magician), reload, hand a seat over by link,
a draw offered and declined, resignation, and the replay of the end."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from .conftest import (
    Contexts,
    assert_accessible,
    create_on_page,
    log_count,
    my_turn,
    seat_token,
    wait_ready,
    wait_version,
)


def button(page: Any, name: str) -> Any:
    return page.get_by_role("button", name=re.compile(f"^{re.escape(name)}"))


def place(page: Any, version: int, minion: str, mage: str) -> None:
    my_turn(page, version)
    button(page, f"{minion}:").click()  # the reserve type
    button(page, f"{mage},").click()  # the chamber


def test_a_whole_match_in_three_browsers(contexts: Contexts) -> None:
    ada = contexts.page()
    match_id = create_on_page(ada, name="Ada", colour="white", extra_options={"chaos": ["seer"]})
    invite = ada.get_by_label("Invite link").input_value()
    assert invite.endswith(f"/matches/{match_id}") and "token" not in invite and "#" not in invite
    expect(ada.get_by_role("status")).to_have_text("Waiting for an opponent to join.")

    grace = contexts.page()
    grace.goto(invite)
    grace.get_by_label("Your name").fill("Grace")
    grace.get_by_role("button", name="Join").click()
    expect(grace.locator("#player-black .you")).to_be_visible()

    watcher = contexts.page(axe=True)
    watcher.goto(invite)
    expect(watcher.get_by_role("button", name="Join")).to_be_hidden()
    expect(watcher.locator("#watchers")).to_contain_text("watching")

    # Setup: Ada swaps g1 and h1 by clicking them, Grace drags a8 onto h8.
    my_turn(ada, 1)
    button(ada, "g1,").click()
    button(ada, "h1,").click()
    expect(button(ada, "g1,")).to_have_accessible_name(re.compile("^g1, White's myrmidon"))
    button(ada, "Confirm setup").click()
    my_turn(grace, 2)
    button(grace, "a8,").drag_to(button(grace, "h8,"))
    expect(button(grace, "h8,")).to_have_accessible_name(re.compile("^h8, Black's construct"))
    button(grace, "Confirm setup").click()

    # The decision phase: placements and passes.
    place(ada, 3, "Undead", "Necromancer")
    place(grace, 4, "Beast", "Sorcerer")
    place(ada, 5, "Fey", "Druid")
    place(grace, 6, "Fey", "Magician")
    place(ada, 7, "Spirit", "Seer")
    my_turn(grace, 8)
    button(grace, "Pass").click()
    my_turn(ada, 9)
    expect(ada).to_have_title(re.compile("^Your turn"))
    button(ada, "Pass").click()

    # The action phase: the Seer gives Ada two turns in a row.
    my_turn(ada, 10)
    expect(ada.get_by_role("status")).to_contain_text("Action phase")
    button(ada, "Seer,").click()
    button(ada, "White (you) takes two turns").click()
    my_turn(ada, 11)
    button(ada, "Druid,").click()
    button(ada, "Cancel").click()  # backs out of the half-made choice
    button(ada, "Druid,").click()
    button(ada, "b1,").click()
    button(ada, "c3,").click()
    my_turn(ada, 12)
    button(ada, "Necromancer,").click()
    button(ada, "e4,").click()  # an empty square: a summon
    # The Magician clears another chamber: Grace sends her own beast home from the Sorcerer.
    my_turn(grace, 13)
    expect(button(grace, "e4,")).to_have_accessible_name(re.compile("^e4, White's undead"))
    button(grace, "Magician,").click()
    button(grace, "Sorcerer,").click()
    wait_version(ada, 14)
    expect(ada.get_by_role("status")).to_contain_text("Round 2 · Decision phase · White to move: your turn")

    # The watcher saw every action, in words.
    wait_version(watcher, 14)
    expect(watcher.locator("#log li[data-version]")).to_have_count(14)
    log = watcher.locator("#log").inner_text()
    # The words are the engine's (the server sends them with each entry).
    for words in ["White sets up their backrow, a to h: construct, fey, elemental, dragon, undead, beast, "
                  "myrmidon, spirit.",
                  "Black places a fey on the Magician.",
                  "White removes a spirit from the Seer and takes the next two turns.",
                  "White removes a fey from the Druid and moves the fey from b1 to c3.",
                  "White removes an undead from the Necromancer and summons an undead on e4.",
                  "Black removes a fey from the Magician and clears the Sorcerer, sending Black's beast back "
                  "to its owner's reserve."]:
        assert words in log, (words, log)
    # The last action is marked: the chamber removed from and the one it cleared.
    expect(watcher.locator(".chamber-row.last")).to_have_count(2)
    expect(watcher.locator(".chamber-row.last[data-mage=sorcerer]")).to_have_count(1)

    # A reload keeps the seat; a seat link moves it to another device, and leaves no token in the address.
    ada.reload()
    my_turn(ada, 14)
    expect(ada.locator("#player-white .you")).to_be_visible()
    button(ada, "Copy seat link").click()
    link = ada.locator("#seat-link").input_value()
    assert f"/matches/{match_id}#seat=white." in link
    other_device = contexts.page()
    other_device.goto(link)
    wait_ready(other_device)
    assert "#" not in other_device.url and "seat=" not in other_device.url
    expect(other_device.locator("#player-white .you")).to_be_visible()
    assert seat_token(other_device, match_id) == seat_token(ada, match_id)

    # The watcher steps back; what happens meanwhile does not snap the board back to live.
    # Version 1 is Black's join, an event: the 13 entries after it are moves.
    button(watcher, "Previous move").click()
    expect(watcher.locator("#position")).to_have_text("Move 12 of 13 (replay)")
    expect(button(watcher, "e4,")).to_have_accessible_name(re.compile("^e4, White's undead"))

    # A draw offered and declined, then a resignation.
    button(grace, "Offer draw").click()
    expect(watcher.locator("#position")).to_have_text("Move 12 of 13 (replay)")
    expect(watcher.locator("#log")).to_contain_text("Black offers a draw.")
    button(watcher, "Back to the live position").click()
    expect(watcher.locator("#position")).to_have_text("Move 13 of 13")
    expect(watcher.locator("#log li.current")).to_have_attribute("data-version", "15")  # the draw offer, live
    expect(button(ada, "Accept draw")).to_be_visible()
    button(ada, "Decline draw").click()
    expect(ada.locator("#log")).to_contain_text("White declines the draw.")
    button(grace, "Resign").click()
    button(grace, "Yes, resign").click()
    # The end panel speaks to each reader: the players in their own words.
    for page, words in ((ada, "You won — Black resigned."), (grace, "You lost — you resigned."),
                        (watcher, "White wins: Black resigned.")):
        expect(page.locator("#result")).to_have_text(words)
        expect(page.get_by_role("status")).to_contain_text("Match over")
    expect(watcher.locator("#seed-check")).to_contain_text("✓")
    seed = watcher.locator("#seed").inner_text()
    assert seed == "" or len(seed) >= 1
    state = contexts.server.match(match_id)
    assert seed == state["seed"] and watcher.locator("#commitment").inner_text() == state["seed_commitment"]
    assert_accessible(watcher)

    # The replay: buttons and arrow keys, move by move, each as the server's engine made it.
    last = state["version"]
    expect(watcher.locator("#position")).to_have_text("Move 13 of 13")
    button(watcher, "First move").click()
    expect(watcher.locator("#position")).to_have_text("Move 1 of 13 (replay)")
    expect(button(watcher, "d1,")).to_have_accessible_name(re.compile("^d1, White's dragon"))
    expect(button(watcher, "d8,")).to_have_accessible_name(re.compile("^d8, empty"))
    watcher.locator("#position").click()
    watcher.keyboard.press("ArrowRight")
    expect(watcher.locator("#position")).to_have_text("Move 2 of 13 (replay)")
    expect(button(watcher, "d8,")).to_have_accessible_name(re.compile("^d8, Black's"))
    for _ in range(9):
        watcher.keyboard.press("ArrowRight")
    expect(watcher.locator("#position")).to_have_text("Move 11 of 13 (replay)")
    expect(button(watcher, "c3,")).to_have_accessible_name(re.compile("^c3, White's fey"))
    expect(button(watcher, "c3,")).to_have_class(re.compile("last-to"))
    expect(button(watcher, "b1,")).to_have_class(re.compile("last-from"))
    watcher.keyboard.press("ArrowLeft")
    expect(watcher.locator("#position")).to_have_text("Move 10 of 13 (replay)")
    expect(button(watcher, "b1,")).to_have_accessible_name(re.compile("^b1, White's fey"))
    # A move in the list is a button: picked, the board shows it, and ← → go on from there.
    watcher.locator("#log li[data-version='4'] button").click()
    expect(watcher.locator("#position")).to_have_text("Move 3 of 13 (replay)")
    expect(watcher.locator("#log li[data-version='4'] button")).to_be_focused()
    watcher.keyboard.press("ArrowRight")
    expect(watcher.locator("#position")).to_have_text("Move 4 of 13 (replay)")
    expect(watcher.locator("#log li[data-version='5'] button")).to_be_focused()
    button(watcher, "Last move").click()
    expect(watcher.locator("#position")).to_have_text("Move 13 of 13")
    assert log_count(watcher) == last
