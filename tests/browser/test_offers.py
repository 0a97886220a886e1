"""Takeback and give time on the match page (static/js/offers.js): one seat asks,
the other reads "Takeback asked" with Accept and Decline; "Give 15 s" puts the
time on the opponent's clock on both pages."""

from __future__ import annotations

import os
from typing import Any

from playwright.sync_api import expect

from .conftest import ROW, Contexts, Server, assert_accessible, wait_ready, wait_version

SHOTS = os.environ.get("MAGERY_SHOTS")  # a folder to keep the screenshots in, when set


def one_choice_made(server: Server, **options: Any) -> tuple[str, dict[str, str], dict[str, Any]]:
    """Ada (White) against Bo (Black), both set up, and the first to move has played once.
    Answers the match id, the tokens, and the match before that choice."""
    made = server.call("POST", "/matches", {"seat": "white", "name": "Ada", "options": options})
    match_id = made["match"]["id"]
    joined = server.call("POST", f"/matches/{match_id}/join", {"name": "Bo"})
    tokens = {"white": made["token"], "black": joined["token"]}
    server.act(match_id, tokens["white"], {"type": "setup", "backrow": ROW})
    before = server.act(match_id, tokens["black"], {"type": "setup", "backrow": ROW})
    mover = before["to_move"]
    legal = server.legal(match_id, tokens[mover])
    server.act(match_id, tokens[mover], legal["actions"][0])
    return match_id, tokens, before


def seated(contexts: Contexts, match_id: str, colour: str, token: str) -> Any:
    page = contexts.page(axe=True)
    page.goto(f"/matches/{match_id}#seat={colour}.{token}")
    wait_ready(page)
    return page


def button(page: Any, name: str) -> Any:
    return page.get_by_role("button", name=name, exact=True)


def shot(page: Any, name: str) -> None:
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


def test_a_takeback_asked_and_accepted_goes_back_on_both_pages(contexts: Contexts) -> None:
    server = contexts.server
    match_id, tokens, before = one_choice_made(server)
    asker = before["to_move"]
    answerer = "black" if asker == "white" else "white"
    mine, theirs = (seated(contexts, match_id, c, tokens[c]) for c in (asker, answerer))
    button(mine, "Takeback").click()
    prompt = theirs.get_by_role("group", name="Takeback asked")
    expect(prompt).to_be_visible()
    expect(button(mine, "Withdraw takeback")).to_be_visible()
    expect(button(mine, "Takeback")).to_be_hidden()
    expect(mine.get_by_role("group", name="Takeback asked")).to_be_hidden()  # the asker answers nothing
    assert_accessible(theirs)
    shot(theirs, "takeback-asked")
    button(theirs, "Accept").click()
    expect(prompt).to_be_hidden()
    after = server.match(match_id)
    assert after["to_move"] == asker and after["version"] == before["version"] + 3
    for page in (mine, theirs):
        wait_version(page, after["version"])
    expect(prompt).to_be_hidden()
    expect(mine.get_by_role("heading", name="Your turn")).to_be_visible()  # the choice is the asker's again
    expect(button(mine, "Takeback")).to_be_visible()
    shot(mine, "takeback-accepted")


def test_a_takeback_declined_leaves_the_match_as_it_was(contexts: Contexts) -> None:
    server = contexts.server
    match_id, tokens, before = one_choice_made(server)
    asker = before["to_move"]
    answerer = "black" if asker == "white" else "white"
    mine, theirs = (seated(contexts, match_id, c, tokens[c]) for c in (asker, answerer))
    button(mine, "Takeback").click()
    button(theirs, "Decline").click()
    expect(theirs.get_by_role("group", name="Takeback asked")).to_be_hidden()
    wait_version(mine, before["version"] + 3)  # the choice, the ask, the decline
    expect(button(mine, "Takeback")).to_be_visible()
    expect(mine.locator(".toast", has_text="declines the takeback")).to_be_visible()  # told to the asker
    after = server.match(match_id)
    assert after["to_move"] == answerer and after["takeback_offer"] is None
    expect(theirs.get_by_role("heading", name="Your turn")).to_be_visible()  # still the answerer's turn


def test_give_time_shows_on_both_clocks_and_no_takeback_against_the_computer(contexts: Contexts) -> None:
    server = contexts.server
    match_id, tokens, before = one_choice_made(server, time_control={"type": "realtime", "minutes": 5})
    waiting = before["to_move"]  # it has played: its clock stands still, at a figure known exactly
    thinking = "black" if waiting == "white" else "white"
    mine, theirs = (seated(contexts, match_id, c, tokens[c]) for c in (thinking, waiting))
    version = server.match(match_id)["version"]
    button(mine, "Give 15 s").click()
    wait_version(mine, version + 1)
    given = server.match(match_id)["clock"][waiting]
    assert given > 300_000 - 60_000 + 15_000 - 1
    seconds = -(-given // 1000)
    shown = f"{seconds // 60}:{seconds % 60:02d}"
    for page in (mine, theirs):
        wait_version(page, version + 1)
        expect(page.locator(f"#player-{waiting} .clock")).to_have_text(shown)
    expect(theirs.locator(".toast", has_text="gives you 15 seconds")).to_be_visible()
    shot(theirs, "time-given")

    made = server.call("POST", "/matches", {"seat": "white", "name": "Ada", "opponent": "bot:random"})
    page = seated(contexts, made["match"]["id"], "white", made["token"])
    expect(page.locator("#seat-actions")).to_be_visible()
    expect(button(page, "Takeback")).to_be_hidden()
